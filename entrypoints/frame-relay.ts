import { browser } from 'wxt/browser';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
// The modules themselves, not lib/content's index: this bundle must not carry the annotator's modules.
import { hostFrameCards } from '@/lib/content/card-host';
import { locateLinkFrames, relayFrameSignals } from '@/lib/content/frame-relay';
import { contentMessenger } from '@/lib/content/messaging';

// The top frame of a matched page, beside the annotator (manifest and runtime registration): wiring only.
export default defineUnlistedScript(() => {
  relayFrameSignals(window, locateLinkFrames);
  hostFrameCards({
    window,
    extensionOrigin: () => new URL(browser.runtime.getURL('/')).origin,
    messenger: contentMessenger(),
  });
});
