import { SETTINGS_LIMITS } from '../../lib/core/limits';

/** The extension's default hover delay: how long a pointer must rest on a link before it counts as intent. */
export const HOVER_DELAY_MS = SETTINGS_LIMITS.hoverDelayMs.default;

/**
 * Time for a message round trip to the background and a fetch from the local test server to land,
 * with room for a busy two-core machine.
 */
const ROUND_TRIP_MARGIN_MS = 400;

/**
 * The one fixed wait the browser tests allow, for proving that something does NOT happen: a pointer
 * pass-over or a forged gesture starts no fetch, detection or a cached hover costs no view, a card the
 * pointer rests on does not close, a swapped link gets no badge. When nothing happens there is nothing
 * to wait for, so the test waits out the delay after which the extension would have acted: the hover
 * delay (the card's close delay, 300 ms, and the annotator's idle-batch timeout, 200 ms, are shorter)
 * plus a round trip. Everything else waits on a condition (`expect(...)`, `expect.poll`, `waitFor`).
 */
export function waitLongerThanHoverDelay(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, HOVER_DELAY_MS + ROUND_TRIP_MARGIN_MS));
}
