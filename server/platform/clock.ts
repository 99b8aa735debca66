/**
 * The server's notion of "now". Everything time-based (expiry, rate-limit windows, timestamps) reads
 * it, so the dev API can move time forward for tests without touching the system clock.
 */
export interface Clock {
  now(): Date;
  /** Moves this clock forward; returns the new time. */
  advance(ms: number): Date;
}

/** System time plus an offset that only grows (dev `POST /api/dev/clock`). */
export function systemClock(): Clock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms) {
      offsetMs += ms;
      return new Date(Date.now() + offsetMs);
    },
  };
}

/** A clock that only moves when told to (tests). */
export function manualClock(start: Date | string | number): Clock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
      return new Date(current);
    },
  };
}
