import { describe, expect, it } from 'vitest';
import { storedWatchSettingsSchema, watchSettingsSchema } from '@/lib/core/schemas/watchlist';
import {
  cadencePeriodMs,
  DEFAULT_WATCH_SETTINGS,
  jitterMs,
  nextDueAt,
  retryDelayMs,
  watchBudget,
} from '@/lib/core/watchlist/schedule';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('cadence', () => {
  it.each([
    ['daily', DAY],
    ['weekly', 7 * DAY],
    ['manual', null],
  ] as const)('%s → %s ms', (cadence, period) => {
    expect(cadencePeriodMs({ cadence, intervalSeconds: 30 })).toBe(period);
  });

  it('an interval is clamped to [30 s, 7 days]', () => {
    expect(cadencePeriodMs({ cadence: 'interval', intervalSeconds: 45 })).toBe(45_000);
    expect(cadencePeriodMs({ cadence: 'interval', intervalSeconds: 1 })).toBe(30_000);
  });

  it('the stored settings: an interval under 30 s is refused when written and falls back when read', () => {
    expect(watchSettingsSchema.safeParse({ cadence: 'interval', intervalSeconds: 5, notifications: true }).success).toBe(false);
    expect(storedWatchSettingsSchema.parse({ cadence: 'interval', intervalSeconds: 5, notifications: false })).toEqual({
      cadence: 'interval',
      intervalSeconds: DEFAULT_WATCH_SETTINGS.intervalSeconds,
      notifications: false,
    });
    expect(storedWatchSettingsSchema.parse('garbage')).toEqual(DEFAULT_WATCH_SETTINGS);
    expect(storedWatchSettingsSchema.parse({ cadence: 'hourly' }).cadence).toBe('daily');
  });
});

describe('spreading', () => {
  const ids = Array.from({ length: 200 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

  it('a refresh is never sooner than one period after the previous one, and at most period / 12 later', () => {
    for (const id of ids) {
      const due = nextDueAt(id, 1_000, DAY);
      expect(due).toBeGreaterThanOrEqual(1_000 + DAY);
      expect(due).toBeLessThan(1_000 + DAY + 2 * HOUR);
    }
  });

  it('is stable per watch and spreads links watched at the same moment over two hours (not one minute)', () => {
    expect(jitterMs(ids[0]!, DAY)).toBe(jitterMs(ids[0]!, DAY));
    const minutes = new Set(ids.map((id) => Math.floor(jitterMs(id, DAY) / MINUTE)));
    // 200 links over 120 minutes: most minutes are used, none holds many.
    expect(minutes.size).toBeGreaterThan(70);
    const perMinute = new Map<number, number>();
    for (const id of ids) {
      const minute = Math.floor(jitterMs(id, DAY) / MINUTE);
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
    }
    expect(Math.max(...perMinute.values())).toBeLessThanOrEqual(8);
  });
});

describe('back-off', () => {
  it('5 min, 15 min, 45 min, … capped at the cadence period', () => {
    expect([1, 2, 3, 4].map((failures) => retryDelayMs(failures, DAY))).toEqual([
      5 * MINUTE,
      15 * MINUTE,
      45 * MINUTE,
      135 * MINUTE,
    ]);
    expect(retryDelayMs(10, DAY)).toBe(DAY);
    expect(retryDelayMs(3, 30_000)).toBe(5 * MINUTE);
  });
});

describe('budget share', () => {
  it('a quarter of the per-minute budget per tick, keeping half in reserve; at least one', () => {
    expect(watchBudget(30)).toEqual({ perTick: 7, reserve: 15 });
    expect(watchBudget(1)).toEqual({ perTick: 1, reserve: 0 });
    expect(watchBudget(50)).toEqual({ perTick: 12, reserve: 25 });
  });
});
