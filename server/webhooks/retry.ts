/**
 * When a failed delivery is tried again: exponential back-off (×4 from 10 s, at most 12 h) with ±20 %
 * jitter, 13 attempts in all, about three days from the first to the last. Times are on the server's
 * clock, so the dev clock brings a pending retry forward.
 */

const SECOND = 1000;
const HOUR = 3600 * SECOND;

/** The first attempt and 12 retries: 10 s, 40 s, 2.7 min, 11 min, 43 min, 2.8 h, 11.4 h, then 12 h five times (≈ 75 h). */
export const MAX_ATTEMPTS = 13;
const FIRST_RETRY_MS = 10 * SECOND;
const MAX_RETRY_MS = 12 * HOUR;
const JITTER = 0.2;

/** An endpoint without a single successful delivery for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 72 * HOUR;

/** Delay before the next attempt after `failedAttempts` failures (1, 2, …); `random` in [0, 1). */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 4 ** Math.max(0, failedAttempts - 1), MAX_RETRY_MS);
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** The whole schedule without jitter (documentation and tests). */
export function retrySchedule(): number[] {
  return Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1, () => 0.5));
}
