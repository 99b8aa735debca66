import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
// The module itself, not lib/content's index: this bundle must not carry the annotator's modules.
import { frameProbeMessaging, probeFrame } from '@/lib/content/frame-probe';

// Every frame of a matched page with an http(s) address (manifest and runtime registration): wiring only.
export default defineUnlistedScript(() => {
  void probeFrame({ isTopFrame: window === window.top, window, document, ...frameProbeMessaging });
});
