// Statistics for the bench tables: medians, and how far a difference between two builds can be
// trusted when single loads on this shared machine spread by ±15 ms.

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Loads of one build: the page with the extension, and the same page without it. */
export interface BuildLoads {
  extension: readonly number[];
  baseline: readonly number[];
}

/** A build's cost on a page: median with the extension minus median without it. */
export const costOf = (loads: BuildLoads) => median(loads.extension) - median(loads.baseline);

/** Mulberry32: a seeded generator, so the same measurements always print the same interval. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function resample(values: readonly number[], random: () => number): number[] {
  return values.map(() => values[Math.floor(random() * values.length)] ?? Number.NaN);
}

export interface Difference {
  /** costOf(a) − costOf(b). */
  estimate: number;
  /** The central `level` of the bootstrap distribution of that difference. */
  low: number;
  high: number;
}

/**
 * The difference in cost between two builds with a percentile bootstrap interval: each build's loads
 * (with and without the extension) are resampled with replacement `rounds` times. An interval that
 * holds 0 means the run cannot tell the builds apart.
 */
export function bootstrapDifference(
  a: BuildLoads,
  b: BuildLoads,
  options: { rounds?: number; level?: number; seed?: number } = {},
): Difference {
  const { rounds = 2_000, level = 0.9, seed = 1 } = options;
  const random = seededRandom(seed);
  const resampledCost = (loads: BuildLoads) =>
    median(resample(loads.extension, random)) - median(resample(loads.baseline, random));
  const differences: number[] = [];
  for (let round = 0; round < rounds; round++) differences.push(resampledCost(a) - resampledCost(b));
  differences.sort((x, y) => x - y);
  const at = (quantile: number) => differences[Math.min(rounds - 1, Math.max(0, Math.floor(quantile * rounds)))] ?? Number.NaN;
  return { estimate: costOf(a) - costOf(b), low: at((1 - level) / 2), high: at((1 + level) / 2) };
}
