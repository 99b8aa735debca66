import type { ClientRateLimitInfo, Store } from 'hono-rate-limiter';

/**
 * A hono-rate-limiter Store whose windows follow the injected clock, plus `resetAll` for the dev API.
 *
 * hono-rate-limiter computes `RateLimit-Reset` and `Retry-After` against the real `Date.now()`, so
 * stores report `resetTime` as real time + (window end − clock now): the headers stay right after
 * the dev clock has been moved.
 */
export interface ClockedStore extends Store {
  resetAll(): Promise<void>;
}

export function toWallClockReset(resetAtClockMs: number, clockNowMs: number): Date {
  return new Date(Date.now() + Math.max(0, resetAtClockMs - clockNowMs));
}

export type { ClientRateLimitInfo };
