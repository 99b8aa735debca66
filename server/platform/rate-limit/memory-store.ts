import type { Clock } from '../clock';
import { toWallClockReset, type ClientRateLimitInfo, type ClockedStore } from './store';

interface Entry {
  hits: number;
  resetAtMs: number;
}

/**
 * Fixed windows per key, starting at a key's first request, timed by the injected clock. In process:
 * the default with PGlite (one server process), and fast enough for the throughput budget.
 */
export class MemoryRateLimitStore implements ClockedStore {
  readonly localKeys = true;
  private readonly entries = new Map<string, Entry>();
  private windowMs = 60_000;
  private nextSweepMs = 0;

  constructor(private readonly clock: Clock) {}

  init(options: { windowMs: number }): void {
    this.windowMs = options.windowMs;
  }

  private sweep(nowMs: number): void {
    // Drop finished windows at most once per window length: bounded memory without a timer.
    if (nowMs < this.nextSweepMs) return;
    this.nextSweepMs = nowMs + this.windowMs;
    for (const [key, entry] of this.entries) if (entry.resetAtMs <= nowMs) this.entries.delete(key);
  }

  get(key: string): ClientRateLimitInfo | undefined {
    const nowMs = this.clock.now().getTime();
    const entry = this.entries.get(key);
    if (!entry || entry.resetAtMs <= nowMs) return undefined;
    return { totalHits: entry.hits, resetTime: toWallClockReset(entry.resetAtMs, nowMs) };
  }

  increment(key: string): ClientRateLimitInfo {
    const nowMs = this.clock.now().getTime();
    this.sweep(nowMs);
    let entry = this.entries.get(key);
    if (!entry || entry.resetAtMs <= nowMs) {
      entry = { hits: 0, resetAtMs: nowMs + this.windowMs };
      this.entries.set(key, entry);
    }
    entry.hits += 1;
    return { totalHits: entry.hits, resetTime: toWallClockReset(entry.resetAtMs, nowMs) };
  }

  decrement(key: string): void {
    const entry = this.entries.get(key);
    if (entry && entry.hits > 0) entry.hits -= 1;
  }

  resetKey(key: string): void {
    this.entries.delete(key);
  }

  async resetAll(): Promise<void> {
    this.entries.clear();
  }
}
