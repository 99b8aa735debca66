import { browser } from 'wxt/browser';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { hostFrameCards, locateLinkFrames, relayFrameSignals } from '@/lib/content/top-frame';
import { startLifetime } from '@/lib/content/shared/lifetime';
import { contentMessenger } from '@/lib/content/shared/messaging';

// The top frame of a matched page, beside the annotator (manifest and runtime registration): wiring only.
export default defineUnlistedScript(() => {
  const { signal } = startLifetime('frame-relay');
  relayFrameSignals(window, locateLinkFrames, signal);
  hostFrameCards({
    window,
    extensionOrigin: () => new URL(browser.runtime.getURL('/')).origin,
    messenger: contentMessenger(),
    signal,
  });
});
