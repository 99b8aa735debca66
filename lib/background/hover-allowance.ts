import { z } from 'zod';
import { KeyedMutex } from './common/keyed-mutex';
import type { StorageAreaAdapter } from './common/storage-area';

/**
 * Uncached links a tab's gestures may fetch per minute, hover, click and key alike (issue #26 item 1):
 * a page that moves links under a still pointer, or swaps them under a decoy the user clicks, cannot
 * spend the request budget on tokens it chooses. Beyond it the card offers Load.
 */
export const HOVER_FETCHES_PER_MINUTE = 10;

/** storage.session key prefix of a tab's recent gesture fetches (`hoverFetches:<tabId>`). */
export const HOVER_FETCHES_KEY_PREFIX = 'hoverFetches:';
const WINDOW_MS = 60_000;
const timesSchema = z.array(z.number()).catch([]);

export interface HoverAllowance {
  /** Takes one fetch of the tab's allowance; false when the last minute already used it all. */
  take(tabId: number): Promise<boolean>;
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
    take: (tabId) =>
      mutex.run(HOVER_FETCHES_KEY_PREFIX + tabId, async () => {
        const key = HOVER_FETCHES_KEY_PREFIX + tabId;
        const at = now();
        const recent = timesSchema.parse((await deps.area.get([key]))[key]).filter((time) => at - time < WINDOW_MS);
        if (recent.length >= perMinute) return false;
        await deps.area.set({ [key]: [...recent, at] });
        return true;
      }),
    async forget(tabId) {
      await deps.area.remove([HOVER_FETCHES_KEY_PREFIX + tabId]);
    },
  };
}
