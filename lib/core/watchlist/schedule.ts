/**
 * When a watched link is refreshed, as pure arithmetic (the background's scheduler applies it; tests
 * check it without a clock). Every snapshot GET is a view for the founder, so a scheduled refresh
 * comes at least one cadence period after the previous refresh of the same link, never sooner.
 */

/**
 * `daily`, `weekly` and `manual` are what the options page offers. `interval` (every
 * `intervalSeconds`, at least 30 s: Chrome's shortest alarm) is accepted by the stored settings only,
 * so end-to-end tests can drive the real alarm path in seconds; the options page shows it but does
 * not offer it (docs/security.md).
 */
export const WATCH_CADENCES = ['daily', 'weekly', 'manual', 'interval'] as const;
export type WatchCadence = (typeof WATCH_CADENCES)[number];
export const MIN_INTERVAL_SECONDS = 30;
export const MAX_INTERVAL_SECONDS = 7 * 24 * 3600;

export interface WatchSettings {
  cadence: WatchCadence;
  /** Only read when `cadence` is `interval`. */
  intervalSeconds: number;
  /** Browser notifications for changes worth attention (each watch can also be muted). */
  notifications: boolean;
}

export const DEFAULT_WATCH_SETTINGS: WatchSettings = { cadence: 'daily', intervalSeconds: 3600, notifications: true };

const DAY_MS = 24 * 3600_000;

/** The time between scheduled refreshes of one link; null: manual only. */
export function cadencePeriodMs(settings: Pick<WatchSettings, 'cadence' | 'intervalSeconds'>): number | null {
  switch (settings.cadence) {
    case 'daily':
      return DAY_MS;
    case 'weekly':
      return 7 * DAY_MS;
    case 'manual':
      return null;
    case 'interval':
      return Math.min(MAX_INTERVAL_SECONDS, Math.max(MIN_INTERVAL_SECONDS, settings.intervalSeconds)) * 1000;
  }
}

/**
 * FNV-1a over the id, then MurmurHash3's finaliser so that ids differing in one character land far
 * apart: a stable number per watch, so its place in the day does not move between runs.
 */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * Extra delay of a watch, in [0, period / 12): two hours at most for a daily cadence. Links watched
 * in the same minute (a user going down a deal list) are not all refreshed in the same minute.
 */
export function jitterMs(watchId: string, periodMs: number): number {
  return Math.floor((hash32(watchId) / 2 ** 32) * (periodMs / 12));
}

/**
 * The first scheduled refresh of a watch made (or re-timed) at `from`: one period, plus the watch's
 * place in the period. Later refreshes come one period after the previous one, keeping that place.
 */
export function nextDueAt(watchId: string, from: number, periodMs: number): number {
  return from + periodMs + jitterMs(watchId, periodMs);
}

const FIRST_RETRY_MS = 5 * 60_000;

/**
 * After `failures` network failures in a row (1, 2, …): 5 min, 15 min, 45 min, … never longer than
 * the cadence period (a link that keeps failing is tried about as often as it would be refreshed).
 */
export function retryDelayMs(failures: number, periodMs: number): number {
  const delay = FIRST_RETRY_MS * 3 ** Math.max(0, failures - 1);
  return Math.min(Math.max(periodMs, FIRST_RETRY_MS), delay);
}

/** Offline: look again this much later (no request is made while the browser says it is offline). */
export const OFFLINE_RETRY_MS = 5 * 60_000;
/** Watch refreshes left over because of the budget are carried over to a tick this much later. */
export const CARRY_OVER_MS = 60_000;

/**
 * How much of the per-minute request budget (per service origin) the scheduler may use: at most a
 * quarter of it per tick, and only while at least half the budget stays available for hovers and
 * the user's own loads. `reserve` is the number of tokens a watch refresh must leave in the bucket.
 */
export function watchBudget(perMinute: number): { perTick: number; reserve: number } {
  return { perTick: Math.max(1, Math.floor(perMinute / 4)), reserve: Math.floor(perMinute / 2) };
}
