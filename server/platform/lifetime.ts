/**
 * A lifetime in the server is an `AbortSignal` (as in the extension): whoever starts something passes
 * one, and aborting it ends what was started with it.
 */

/** Settles when `signal` aborts (at once if it has). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
