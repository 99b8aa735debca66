import { z } from 'zod';
import { storage } from 'wxt/utils/storage';

/**
 * "Show the watchlist at this company": written by the background when a notification is clicked,
 * read (once) by the side panel, whether it is opened by that click or already open. In
 * storage.session: it means nothing after the browser restarts. Plain get/set calls, no item defined
 * at module load (pages framed in web pages get no storage.session on Firefox).
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
