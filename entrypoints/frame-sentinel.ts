import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
// The module itself, not lib/page-world's index: this bundle carries the sentinel alone.
import { signalAncestors, watchFrameLinks } from '@/lib/page-world/frame-sentinel';

// Every frame of a matched page, in the page's own world (manifest and runtime registration): wiring
// only. The manifest cannot leave out the top frame, which runs the annotator instead.
export default defineUnlistedScript(() => {
  if (window !== window.top) watchFrameLinks(window, () => signalAncestors(window));
});
