import { z } from 'zod';
import { KeyedMutex } from '../common/keyed-mutex';
import type { StorageAreaAdapter } from '../common/storage-area';

/**
 * Uncached links a tab's gestures may fetch per minute, hover, click and key alike (issue #26 item 1):
 * a page that moves links under a still pointer, or swaps them under a decoy the user clicks, cannot
 * spend the request budget on tokens it chooses. Beyond it the card offers Load.
 */
export const HOVER_FETCHES_PER_MINUTE = 10;

/** storage.session key prefix of a tab's recent gesture fetches (`hoverFetches:<tabId>`). */
export const HOVER_FETCHES_KEY_PREFIX = 'hoverFetches:';
const WINDOW_MS = 60_000;
/** Each fetch of the last minute: when, and of which link (an entry of an older format names none). */
const fetchesSchema = z
  .array(z.union([z.object({ at: z.number(), link: z.string() }), z.number().transform((at) => ({ at, link: '' }))]))
  .catch([]);

export interface HoverAllowance {
  /**
   * Takes one fetch of the tab's allowance for the link `link` (its canonical key); false when the last
   * minute already used it all. A link fetched by a gesture in the last minute costs nothing again: the
   * allowance is there so that a page cannot spend views on tokens it chooses, and a second fetch of
   * the same link chooses none (a ready answer is cached anyway; issue #33 item 15).
   */
  take(tabId: number, link: string): Promise<boolean>;
  forget(tabId: number): Promise<void>;
}

/**
 * How many uncached links a tab's gestures may fetch per minute (security finding 6, issue #26 item
 * 1): a page cannot turn small real pointer moves over links it keeps changing, or clicks on a badge
 * it keeps re-aiming, into fetches of tokens it chooses. Kept in storage.session, so a restarted service worker does not hand out a fresh minute.
 */
export function createHoverAllowance(deps: { area: StorageAreaAdapter; now?: () => number; perMinute?: number }): HoverAllowance {
  const now = deps.now ?? (() => Date.now());
  const perMinute = deps.perMinute ?? HOVER_FETCHES_PER_MINUTE;
  // Frames of one tab may ask at once: each read-and-write waits for the one before.
  const mutex = new KeyedMutex();
  return {
    take: (tabId, link) =>
      mutex.run(HOVER_FETCHES_KEY_PREFIX + tabId, async () => {
        const key = HOVER_FETCHES_KEY_PREFIX + tabId;
        const at = now();
        const recent = fetchesSchema.parse((await deps.area.get([key]))[key]).filter((fetch) => at - fetch.at < WINDOW_MS);
        if (recent.some((fetch) => fetch.link === link)) return true;
        if (recent.length >= perMinute) return false;
        await deps.area.set({ [key]: [...recent, { at, link }] });
        return true;
      }),
    async forget(tabId) {
      await deps.area.remove([HOVER_FETCHES_KEY_PREFIX + tabId]);
    },
  };
}
