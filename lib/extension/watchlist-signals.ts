import { z } from 'zod';
import { storage } from 'wxt/utils/storage';

/**
 * Signals from the background's watchlist to the pages, in storage.session (they mean nothing after
 * the browser restarts). Plain get/set calls, no item defined at module load: pages framed in web
 * pages (the card) get no storage.session on Firefox, and must not fail importing this.
 *
 * - A focus request, "show the watchlist at this company": written when a notification is clicked,
 *   read (once) by the side panel, whether that click opened it or it was open already.
 * - A change mark, written after the watchlist changed (a scheduled refresh, or another page's
 *   action): open pages read the watchlist again.
 */

const FOCUS_KEY = 'session:watchlistFocus' as const;
/** A request older than this was not for the page opening now. */
const MAX_AGE_MS = 60_000;

const focusSchema = z.object({ watchId: z.string().max(64).nullable(), at: z.number() });
export type WatchlistFocus = z.infer<typeof focusSchema>;

export async function requestWatchlistFocus(watchId: string | null, now = Date.now()): Promise<void> {
  await storage.setItem(FOCUS_KEY, { watchId, at: now });
}

/** The pending request, removed as it is read; null when there is none (or it is stale). */
export async function takeWatchlistFocus(now = Date.now()): Promise<WatchlistFocus | null> {
  const parsed = focusSchema.safeParse(await storage.getItem(FOCUS_KEY).catch(() => null));
  if (!parsed.success) return null;
  await storage.removeItem(FOCUS_KEY).catch(() => undefined);
  return now - parsed.data.at <= MAX_AGE_MS ? parsed.data : null;
}

/** Calls `onRequest` when a new request is written (the side panel is already open). */
export function watchWatchlistFocus(onRequest: () => void): () => void {
  return storage.watch(FOCUS_KEY, (value) => {
    if (value !== null) onRequest();
  });
}

const CHANGED_KEY = 'session:watchlistChangedAt' as const;

export async function markWatchlistChanged(now = Date.now()): Promise<void> {
  await storage.setItem(CHANGED_KEY, now);
}

export function watchWatchlistChanges(onChange: () => void): () => void {
  try {
    return storage.watch(CHANGED_KEY, () => onChange());
  } catch {
    // No storage.session here (Firefox, a page framed in a web page): no live updates, nothing breaks.
    return () => undefined;
  }
}
