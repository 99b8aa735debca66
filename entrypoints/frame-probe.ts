import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
// The module itself, not lib/content's index: this bundle must not carry the annotator's modules.
import { frameProbeMessaging, probeFrame } from '@/lib/content/frame-probe';

// Every subframe of a matched page (manifest and runtime registration): wiring only.
export default defineUnlistedScript(() => {
  void probeFrame({ isTopFrame: window === window.top, document, ...frameProbeMessaging });
});
