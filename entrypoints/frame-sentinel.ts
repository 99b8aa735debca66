import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
// The module itself, not lib/page-world's index: this bundle carries the sentinel alone.
import { isSentinelFrame, signalAncestors, watchFrameLinks } from '@/lib/page-world/frame-sentinel';

// Every `about:blank`/`srcdoc` subframe of a matched page, in the page's own world (manifest and
// runtime registration): wiring only.
export default defineUnlistedScript(() => {
  if (isSentinelFrame(window)) watchFrameLinks(window, () => signalAncestors(window));
});
