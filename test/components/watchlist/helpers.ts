import { vi } from 'vitest';
import type { WatchlistApi } from '@/components/watchlist/api';
import { withPoint } from '@/lib/background/watchlist/store';
import type { SnapshotRequest } from '@/lib/core/schemas/results';
import { diffPoints } from '@/lib/core/watchlist/diff';
import { DEFAULT_WATCH_SETTINGS, type WatchSettings } from '@/lib/core/watchlist/schedule';
import type { WatchPoint, WatchRecord } from '@/lib/core/watchlist/types';
import type { WatchlistFocus } from '@/lib/extension/watchlist-signals';
import { FIXTURE_NOW } from '@/test/fixtures/snapshot';
import { buildPoint, buildWatch } from '@/test/fixtures/watchlist';

const DAY = 24 * 3600_000;

/** A watch with a history of readiness scores, one a day up to FIXTURE_NOW. */
export function watchWithScores(index: number, company: string, scores: number[], overrides: Partial<WatchRecord> = {}) {
  const points = scores.map((score, day) =>
    buildPoint({ at: FIXTURE_NOW - (scores.length - 1 - day) * DAY, readinessScore: score, viewCount: 3 + day }),
  );
  const watch = points.reduce(withPoint, buildWatch(index, { company, lastRefreshAt: points.at(-1)?.at ?? null, ...overrides }));
  return { watch: { ...watch, ...overrides }, points };
}

/** An in-memory watchlist behind the WatchlistApi: enough to drive every component. */
export function fakeWatchlistApi(
  initial: { watch: WatchRecord; points: WatchPoint[] }[] = [],
  settings: WatchSettings = DEFAULT_WATCH_SETTINGS,
) {
  const entries = new Map(initial.map((entry) => [entry.watch.id, { ...entry }]));
  /** What the next refresh of a watch reads: its new readiness score. */
  const nextScores = new Map<string, number>();
  let focus: WatchlistFocus | null = null;
  const changeListeners = new Set<() => void>();
  const focusListeners = new Set<() => void>();
  let ids = 100;
  const mustGet = (id: string) => {
    const entry = entries.get(id);
    if (!entry) throw new Error('This company is not in the watchlist (any more).');
    return entry;
  };
  const findByLink = (request: SnapshotRequest) =>
    [...entries.values()].find((entry) => entry.watch.origin === request.origin && entry.watch.token === request.token) ?? null;
  const refreshOne = (id: string) => {
    const entry = mustGet(id);
    const latest = entry.watch.latest ?? buildPoint();
    const point = {
      ...latest,
      at: latest.at + DAY,
      source: 'user' as const,
      readinessScore: nextScores.get(id) ?? latest.readinessScore,
    };
    const changes = diffPoints(entry.watch.latest, point);
    entry.watch = { ...withPoint(entry.watch, point), lastRefreshAt: point.at };
    entry.points = [...entry.points, point];
    return { watch: entry.watch, changes };
  };
  const api = {
    getWatch: vi.fn(async (request: SnapshotRequest) => ({ watch: findByLink(request)?.watch ?? null, settings })),
    watch: vi.fn(async (request: SnapshotRequest) => {
      const existing = findByLink(request);
      if (existing) return existing.watch;
      const watch = buildWatch(++ids, { origin: request.origin, token: request.token });
      entries.set(watch.id, { watch, points: [] });
      return watch;
    }),
    unwatch: vi.fn(async (id: string) => ({ removed: entries.delete(id) })),
    list: vi.fn(async () => ({ watches: [...entries.values()].map((entry) => entry.watch), unreadable: 0, settings })),
    history: vi.fn(async (id: string) => ({ watch: mustGet(id).watch, points: mustGet(id).points })),
    exportAll: vi.fn(async () => ({ watches: [...entries.values()].map(({ watch, points }) => ({ watch, points })) })),
    refresh: vi.fn(async (id: string) => refreshOne(id)),
    refreshAll: vi.fn(async () => {
      const active = [...entries.values()].filter((entry) => entry.watch.status === 'active');
      active.forEach((entry) => refreshOne(entry.watch.id));
      return { refreshed: active.length, ended: 0, failed: 0 };
    }),
    setMuted: vi.fn(async (id: string, muted: boolean) => {
      const entry = mustGet(id);
      entry.watch = { ...entry.watch, muted };
      return entry.watch;
    }),
    clear: vi.fn(async () => {
      const removed = entries.size;
      entries.clear();
      return { removed };
    }),
    watchChanges: vi.fn((listener: () => void) => {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    }),
    takeFocus: vi.fn(async () => {
      const pending = focus;
      focus = null;
      return pending;
    }),
    watchFocus: vi.fn((listener: () => void) => {
      focusListeners.add(listener);
      return () => focusListeners.delete(listener);
    }),
    openSidePanel: vi.fn(async (_watchId: string | null) => undefined),
    /** Test controls. */
    setNextScore: (id: string, score: number) => nextScores.set(id, score),
    requestFocus: (watchId: string | null) => {
      focus = { watchId, at: FIXTURE_NOW };
      focusListeners.forEach((listener) => listener());
    },
    emitChange: () => changeListeners.forEach((listener) => listener()),
  } satisfies WatchlistApi & Record<string, unknown>;
  return api;
}
