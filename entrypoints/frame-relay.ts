import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
// The module itself, not lib/content's index: this bundle must not carry the annotator's modules.
import { locateLinkFrames, relayFrameSignals } from '@/lib/content/frame-relay';

// The top frame of a matched page, beside the annotator (manifest and runtime registration): wiring only.
export default defineUnlistedScript(() => {
  relayFrameSignals(window, locateLinkFrames);
});
