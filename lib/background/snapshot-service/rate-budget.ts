import { z } from 'zod';
import { KeyedMutex } from '../common/keyed-mutex';
import type { StorageAreaAdapter } from '../common/storage-area';

/**
 * Per-origin client budget and 429 pause, both persisted in storage.session so a restarted service
 * worker neither gets a fresh full budget nor forgets a pause.
 *
 * Token bucket with reservations: a request takes a token even when none is left, driving the count
 * negative, and waits until its token would have refilled. Requests are therefore queued in arrival
 * order and never dropped, and the debt survives a restart (a new worker waits it out too).
 */

const BUDGET_KEY_PREFIX = 'rateBudget:';
const PAUSE_KEY_PREFIX = 'ratePause:';
const WINDOW_MS = 60_000;

/** When a 429 carries no usable Retry-After. */
export const DEFAULT_RETRY_AFTER_MS = 60_000;
/** A hostile or broken Retry-After must not silence an origin for days. */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;

const bucketSchema = z.object({ tokens: z.number().finite(), updatedAt: z.number().finite() });
const pauseSchema = z.object({ until: z.number().finite() });

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export class RateBudget {
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly area: StorageAreaAdapter,
    private readonly clock: Clock,
  ) {}

  /**
   * Waits for a token of `perMinute` for this origin. Returns early with the pause end if the origin
   * is paused (before or after waiting), without spending a token in the first case.
   */
  async acquire(origin: string, perMinute: number): Promise<{ pausedUntil: number } | null> {
    const pausedBefore = await this.pausedUntil(origin);
    if (pausedBefore !== null) return { pausedUntil: pausedBefore };

    const waitMs = await this.mutex.run(origin, async () => {
      const key = BUDGET_KEY_PREFIX + origin;
      const now = this.clock.now();
      const capacity = Math.max(1, perMinute);
      const refillPerMs = capacity / WINDOW_MS;
      const stored = bucketSchema.safeParse((await this.area.get([key]))[key]);
      const bucket = stored.success ? stored.data : { tokens: capacity, updatedAt: now };
      const elapsed = Math.max(0, now - bucket.updatedAt);
      const available = Math.min(capacity, bucket.tokens + elapsed * refillPerMs);
      const remaining = available - 1;
      await this.area.set({ [key]: { tokens: remaining, updatedAt: now } });
      return remaining >= 0 ? 0 : Math.ceil(-remaining / refillPerMs);
    });
    if (waitMs > 0) await this.clock.sleep(waitMs);

    const pausedAfter = await this.pausedUntil(origin);
    return pausedAfter === null ? null : { pausedUntil: pausedAfter };
  }

  /**
   * For background work (watch refreshes): takes a token only if `reserve` tokens stay in the bucket
   * afterwards, never waits and never goes into debt, so hovers and the user's own loads keep their
   * share. Otherwise says when to try again: the pause end, or when the bucket will hold enough.
   */
  async tryAcquire(origin: string, perMinute: number, reserve: number): Promise<{ granted: true } | { retryAt: number }> {
    const pausedUntil = await this.pausedUntil(origin);
    if (pausedUntil !== null) return { retryAt: pausedUntil };
    return this.mutex.run(origin, async () => {
      const key = BUDGET_KEY_PREFIX + origin;
      const now = this.clock.now();
      const capacity = Math.max(1, perMinute);
      const refillPerMs = capacity / WINDOW_MS;
      const stored = bucketSchema.safeParse((await this.area.get([key]))[key]);
      const bucket = stored.success ? stored.data : { tokens: capacity, updatedAt: now };
      const available = Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.updatedAt) * refillPerMs);
      const needed = Math.min(capacity, reserve + 1);
      if (available < needed) return { retryAt: now + Math.ceil((needed - available) / refillPerMs) };
      await this.area.set({ [key]: { tokens: available - 1, updatedAt: now } });
      return { granted: true as const };
    });
  }

  /** The pause end if the origin is paused now, else null. */
  async pausedUntil(origin: string): Promise<number | null> {
    const key = PAUSE_KEY_PREFIX + origin;
    const stored = pauseSchema.safeParse((await this.area.get([key]))[key]);
    if (!stored.success || stored.data.until <= this.clock.now()) return null;
    return stored.data.until;
  }

  async pause(origin: string, until: number): Promise<void> {
    await this.mutex.run(PAUSE_KEY_PREFIX + origin, async () => {
      const current = await this.pausedUntil(origin);
      // Concurrent 429s never shorten a pause.
      if (current !== null && current >= until) return;
      await this.area.set({ [PAUSE_KEY_PREFIX + origin]: { until } });
    });
  }
}

/**
 * `Retry-After` as delta-seconds or an HTTP date (RFC 9110 §10.2.3), clamped to
 * [1 s, MAX_RETRY_AFTER_MS]; absent or unparseable gives DEFAULT_RETRY_AFTER_MS.
 */
export function retryAtFrom(header: string | null, now: number): number {
  const clamp = (ms: number) => now + Math.min(MAX_RETRY_AFTER_MS, Math.max(1000, ms));
  const value = header?.trim();
  if (!value) return now + DEFAULT_RETRY_AFTER_MS;
  if (/^\d+$/.test(value)) return clamp(Number(value) * 1000);
  // Anything else numeric-looking ("-5", "1.5") is malformed; Date.parse would read it as a year.
  if (/^[-+]?[\d.]+$/.test(value)) return now + DEFAULT_RETRY_AFTER_MS;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return now + DEFAULT_RETRY_AFTER_MS;
  return clamp(date - now);
}
