/** Less than this between the service's stamp and the browser's fetch is latency and rounding, not a clock ahead. */
const SAME_CLOCK_MS = 60_000;

/**
 * How far the service's clock ran ahead of this browser's when it answered (ms; 0 when it did not, or
 * only by latency): the snapshot's own stamp against the moment the browser received it.
 */
export function serviceClockAhead(snapshotAt: string, fetchedAt: number): number {
  const ahead = Date.parse(snapshotAt) - fetchedAt;
  return Number.isFinite(ahead) && ahead > SAME_CLOCK_MS ? ahead : 0;
}
