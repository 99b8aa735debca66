import { browser } from 'wxt/browser';
import { ContentScriptContext } from 'wxt/utils/content-script-context';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { hostFrameCards, locateLinkFrames, relayFrameSignals } from '@/lib/content/top-frame';
import { contentMessenger } from '@/lib/content/shared/messaging';

// The top frame of a matched page, beside the annotator (manifest and runtime registration): wiring only.
export default defineUnlistedScript(() => {
  // Stops when the extension goes (updated, disabled) or a newer relay starts in this document.
  const { signal } = new ContentScriptContext('frame-relay', { noScriptStartedPostMessage: true });
  relayFrameSignals(window, locateLinkFrames, signal);
  hostFrameCards({
    window,
    extensionOrigin: () => new URL(browser.runtime.getURL('/')).origin,
    messenger: contentMessenger(),
    signal,
  });
});
