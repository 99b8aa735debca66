import { coalesce } from '../../core/coalesce';
import type { ContentProtocolMap } from '../../protocol/content';
import { isFrameLinksSignal } from '../../protocol/guarded/frame-signals';
import { watchScriptlessFrames } from '../../dom';
import { contentMessenger } from '../shared/messaging';

/**
 * The top frame's side of the frame sentinels (lib/page-world/frame-sentinel.ts), which run in the
 * page's own world of every subframe and have no extension API: asks the background to look at the
 * tab's frames (`locateLinkFrames`) when a sentinel below signals, and when a sandboxed frame without
 * scripts loads in this document (no sentinel can run there). Any window, the page's too, can post a
 * signal; it only makes the background look, and signals during a look cost one more look. Relays
 * until `signal` aborts.
 */
export function relayFrameSignals(win: Window, locate: () => Promise<unknown>, signal: AbortSignal): void {
  const request = coalesce(locate);
  // Not `event.source`: reading a frame's window from this world builds this world in that frame.
  win.addEventListener('message', (event) => isFrameLinksSignal(event.data) && void request(), { signal });
  const stopWatching = watchScriptlessFrames(win.document, () => void request());
  signal.addEventListener('abort', stopWatching, { once: true });
}

/** Asks the background to find the tab's frames that hold a share link; the extension may be gone. */
export const locateLinkFrames = (): Promise<unknown> =>
  contentMessenger<ContentProtocolMap>()
    .send('locateLinkFrames')
    .catch(() => undefined);
