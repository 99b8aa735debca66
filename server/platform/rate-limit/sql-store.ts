import { z } from 'zod';
import type { Clock } from '../clock';
import type { Queryable } from '../db/driver';
import { toWallClockReset, type ClientRateLimitInfo, type ClockedStore } from './store';

const counterRow = z.object({ hits: z.coerce.number(), reset_at_ms: z.coerce.number() });

/**
 * The same fixed windows in the `rate_limits` table, for PostgreSQL: several server instances share
 * one count. The upsert is a single statement, so concurrent hits on one key never lose a count.
 */
export class SqlRateLimitStore implements ClockedStore {
  readonly localKeys = false;
  private windowMs = 60_000;
  private increments = 0;

  constructor(
    private readonly db: Queryable,
    private readonly clock: Clock,
  ) {}

  init(options: { windowMs: number }): void {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const nowMs = this.clock.now().getTime();
    const result = await this.db.query('SELECT hits, reset_at_ms FROM rate_limits WHERE key = $1 AND reset_at_ms > $2', [
      key,
      nowMs,
    ]);
    const row = result.rows[0];
    if (row === undefined) return undefined;
    const counter = counterRow.parse(row);
    return { totalHits: counter.hits, resetTime: toWallClockReset(counter.reset_at_ms, nowMs) };
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const nowMs = this.clock.now().getTime();
    const result = await this.db.query(
      `INSERT INTO rate_limits AS r (key, hits, reset_at_ms) VALUES ($1, 1, $3)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.reset_at_ms <= $2 THEN 1 ELSE r.hits + 1 END,
         reset_at_ms = CASE WHEN r.reset_at_ms <= $2 THEN $3 ELSE r.reset_at_ms END
       RETURNING hits, reset_at_ms`,
      [key, nowMs, nowMs + this.windowMs],
    );
    const counter = counterRow.parse(result.rows[0]);
    if (++this.increments % 1000 === 0) {
      // Housekeeping now and then; a failure here must not fail the request.
      await this.db.query('DELETE FROM rate_limits WHERE reset_at_ms <= $1', [nowMs]).catch(() => undefined);
    }
    return { totalHits: counter.hits, resetTime: toWallClockReset(counter.reset_at_ms, nowMs) };
  }

  async decrement(key: string): Promise<void> {
    await this.db.query('UPDATE rate_limits SET hits = hits - 1 WHERE key = $1 AND hits > 0 AND reset_at_ms > $2', [
      key,
      this.clock.now().getTime(),
    ]);
  }

  async resetKey(key: string): Promise<void> {
    await this.db.query('DELETE FROM rate_limits WHERE key = $1', [key]);
  }

  async resetAll(): Promise<void> {
    await this.db.query('DELETE FROM rate_limits');
  }
}
