import { coalesce } from '../../core/coalesce';
import { FRAME_LINKS_SIGNAL } from '../../core/frame-signals';
import type { ContentProtocolMap } from '../../protocol/content';
import { watchScriptlessFrames } from '../../dom';
import { contentMessenger } from '../shared/messaging';

/**
 * The top frame's side of the frame sentinels (lib/page-world/frame-sentinel.ts), which run in the
 * page's own world of every subframe and have no extension API: asks the background to look at the
 * tab's frames (`locateLinkFrames`) when a sentinel below signals, and when a sandboxed frame without
 * scripts loads in this document (no sentinel can run there). Any window, the page's too, can post a
 * signal; it only makes the background look, and signals during a look cost one more look. Returns a
 * function that stops relaying.
 */
export function relayFrameSignals(win: Window, locate: () => Promise<unknown>): () => void {
  const request = coalesce(locate);
  const onMessage = (event: MessageEvent) => {
    // Not `event.source`: reading a frame's window from this world builds this world in that frame.
    if (event.data === FRAME_LINKS_SIGNAL) void request();
  };
  win.addEventListener('message', onMessage);
  const stopWatching = watchScriptlessFrames(win.document, () => void request());
  return () => {
    win.removeEventListener('message', onMessage);
    stopWatching();
  };
}

/** Asks the background to find the tab's frames that hold a share link; the extension may be gone. */
export const locateLinkFrames = (): Promise<unknown> =>
  contentMessenger<ContentProtocolMap>()
    .send('locateLinkFrames')
    .catch(() => undefined);
