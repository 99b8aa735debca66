import { describe, expect, it } from 'vitest';
import { bootstrapDifference, costOf, median } from './stats';

describe('median', () => {
  it('takes the middle value, the upper one of an even count, NaN of nothing', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(Number.isNaN(median([]))).toBe(true);
  });
});

describe('bootstrapDifference', () => {
  const spread = (centre: number) => [-6, -3, -1, 0, 1, 2, 4, 7].map((offset) => centre + offset);

  it('estimates the difference of the two costs', () => {
    const a = { extension: spread(150), baseline: spread(100) };
    const b = { extension: spread(130), baseline: spread(100) };
    expect(costOf(a)).toBe(50);
    expect(bootstrapDifference(a, b).estimate).toBe(20);
  });

  it('gives an interval clear of 0 when one build costs clearly more', () => {
    const slower = { extension: spread(160), baseline: spread(100) };
    const faster = { extension: spread(130), baseline: spread(100) };
    const { low, high } = bootstrapDifference(slower, faster);
    expect(low).toBeGreaterThan(0);
    expect(high).toBeGreaterThanOrEqual(low);
  });

  it('gives an interval on both sides of 0 when the builds measure the same, as wide as their spread', () => {
    const build = { extension: spread(140), baseline: spread(100) };
    const { estimate, low, high } = bootstrapDifference(build, {
      extension: [...build.extension].reverse(),
      baseline: build.baseline,
    });
    expect(estimate).toBe(0);
    expect(low).toBeLessThan(0);
    expect(high).toBeGreaterThan(0);
    expect(high - low).toBeLessThan(30);
  });

  it('prints the same interval for the same loads (seeded), another for another seed', () => {
    const a = { extension: spread(150), baseline: spread(100) };
    const b = { extension: spread(145), baseline: spread(101) };
    expect(bootstrapDifference(a, b)).toEqual(bootstrapDifference(a, b));
    const seeds = new Set([1, 2, 3, 4, 5].map((seed) => JSON.stringify(bootstrapDifference(a, b, { seed }))));
    expect(seeds.size).toBeGreaterThan(1);
  });
});
