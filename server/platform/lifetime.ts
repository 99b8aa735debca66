/**
 * A lifetime in the server is an `AbortSignal` (as in the extension): whoever starts something passes
 * one, and aborting it ends what was started with it.
 */

/** Settles when `signal` aborts (at once if it has). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** A started thing's lifetime: `closed` settles once it is released; `close()` ends it and waits. */
export interface Lifetime {
  signal: AbortSignal;
  closed: Promise<void>;
  close: () => Promise<void>;
}

/**
 * A lifetime of its own that also ends when `outer` aborts (a handle's `close()` ends only its own);
 * once it ends, `release` runs. Whoever ends it awaits `closed`; one ended by an outer signal whose
 * owner does not must not crash the process, so `closed` never rejects unhandled.
 */
export function startLifetime(outer: AbortSignal | undefined, release: () => Promise<void>): Lifetime {
  const own = new AbortController();
  if (outer) void untilAborted(outer).then(() => own.abort());
  const closed = untilAborted(own.signal).then(release);
  closed.catch(() => undefined);
  return {
    signal: own.signal,
    closed,
    close: () => {
      own.abort();
      return closed;
    },
  };
}
