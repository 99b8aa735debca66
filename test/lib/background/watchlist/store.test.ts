import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import {
  openWatchStore,
  WATCHLIST_DB_NAME,
  WATCHLIST_DB_VERSION,
  WatchlistFullError,
  withPoint,
  type WatchStore,
} from '@/lib/background/watchlist/store';
import { WATCHLIST_LIMITS } from '@/lib/core/limits';
import { FIXTURE_NOW } from '@/test/fixtures/snapshot';
import { buildPoint, buildWatch } from '@/test/fixtures/watchlist';

const DAY = 24 * 3600_000;
let store: WatchStore;

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  store = await openWatchStore();
});
afterEach(() => store.close());

describe('watch store', () => {
  it('creates a watch with its first point, finds it by id and by link, lists it', async () => {
    const watch = buildWatch(1);
    const first = buildPoint({ at: FIXTURE_NOW, source: 'watch' });
    const created = await store.create(watch, first);
    expect(created.latest).toEqual(first);
    expect(created.previous).toBeNull();
    expect(created.series).toEqual([{ at: FIXTURE_NOW, score: first.readinessScore }]);
    expect(created.pointCount).toBe(1);
    expect(await store.get(watch.id)).toEqual(created);
    expect(await store.findByLink(watch.origin, watch.token)).toEqual(created);
    expect(await store.findByLink(watch.origin, 'another-token-of-good-shape')).toBeNull();
    expect(await store.list()).toEqual({ records: [created], unreadable: 0 });
    expect(await store.history(watch.id)).toEqual([first]);
  });

  it('refuses a second watch of the same link', async () => {
    await store.create(buildWatch(1), null);
    await expect(store.create({ ...buildWatch(2), token: buildWatch(1).token }, null)).rejects.toThrow();
    expect((await store.list()).records).toHaveLength(1);
  });

  it('appending moves latest to previous and extends the series', async () => {
    const watch = buildWatch(1);
    await store.create(watch, buildPoint({ at: FIXTURE_NOW, readinessScore: 60 }));
    const next = buildPoint({ at: FIXTURE_NOW + DAY, readinessScore: 66 });
    const updated = await store.addPoint(watch.id, next, (record) => ({ ...record, lastRefreshAt: next.at }));
    expect(updated?.previous?.readinessScore).toBe(60);
    expect(updated?.latest).toEqual(next);
    expect(updated?.lastRefreshAt).toBe(next.at);
    expect(updated?.series.map((sample) => sample.score)).toEqual([60, 66]);
    expect(await store.history(watch.id)).toHaveLength(2);
    expect(await store.addPoint('00000000-0000-4000-8000-999999999999', next)).toBeNull();
    // The same fetch applied twice (callers that shared one request) is kept once.
    expect((await store.addPoint(watch.id, next))?.pointCount).toBe(2);
    expect(await store.history(watch.id)).toHaveLength(2);
  });

  it(`keeps at most ${WATCHLIST_LIMITS.maxPointsPerWatch} points per link (the oldest go) and ${WATCHLIST_LIMITS.seriesLength} in the series`, async () => {
    const watch = buildWatch(1);
    await store.create(watch, null);
    const total = WATCHLIST_LIMITS.maxPointsPerWatch + 5;
    for (let i = 0; i < total; i++) await store.addPoint(watch.id, buildPoint({ at: FIXTURE_NOW + i * DAY }));
    const history = await store.history(watch.id);
    expect(history).toHaveLength(WATCHLIST_LIMITS.maxPointsPerWatch);
    expect(history[0]?.at).toBe(FIXTURE_NOW + 5 * DAY);
    const record = await store.get(watch.id);
    expect(record?.pointCount).toBe(WATCHLIST_LIMITS.maxPointsPerWatch);
    expect(record?.series).toHaveLength(WATCHLIST_LIMITS.seriesLength);
    expect(record?.series.at(-1)?.at).toBe(FIXTURE_NOW + (total - 1) * DAY);
  });

  it(`holds at most ${WATCHLIST_LIMITS.maxWatches} watches, and says so`, async () => {
    for (let i = 0; i < WATCHLIST_LIMITS.maxWatches; i++) await store.create(buildWatch(i), null);
    await expect(store.create(buildWatch(WATCHLIST_LIMITS.maxWatches), null)).rejects.toBeInstanceOf(WatchlistFullError);
    expect((await store.list()).records).toHaveLength(WATCHLIST_LIMITS.maxWatches);
  });

  it('update changes the watch, not its history; delete and clear remove both', async () => {
    await store.create(buildWatch(1), buildPoint());
    await store.create(buildWatch(2), null);
    const muted = await store.update(buildWatch(1).id, (record) => ({ ...record, muted: true }));
    expect(muted?.muted).toBe(true);
    expect(await store.history(buildWatch(1).id)).toHaveLength(1);
    expect(await store.delete(buildWatch(1).id)).toBe(true);
    expect(await store.delete(buildWatch(1).id)).toBe(false);
    expect(await store.history(buildWatch(1).id)).toEqual([]);
    expect(await store.clear()).toBe(1);
    expect((await store.list()).records).toEqual([]);
  });

  it('survives a restart: a new connection reads what the old one wrote', async () => {
    await store.create(buildWatch(1), buildPoint());
    store.close();
    store = await openWatchStore();
    expect((await store.list()).records).toHaveLength(1);
  });
});

describe('stored format', () => {
  /** A database exactly as format 1 wrote it: one store, each history inline. */
  async function writeFormat1(records: unknown[]): Promise<void> {
    const v1 = await openDB(WATCHLIST_DB_NAME, 1, {
      upgrade(database) {
        database.createObjectStore('watches', { keyPath: 'id' }).createIndex('byLink', 'link', { unique: true });
      },
    });
    for (const record of records) await v1.put('watches', record);
    v1.close();
  }

  it('migrates format 1 (history inline) to format 2 (points in their own store), losing nothing', async () => {
    store.close();
    globalThis.indexedDB = new IDBFactory();
    const watch = buildWatch(1);
    const history = [0, 1, 2].map((day) => buildPoint({ at: FIXTURE_NOW + day * DAY, readinessScore: 60 + day }));
    const summary = history.reduce(withPoint, watch);
    const unreadable = { id: 'not-a-watch', link: 'x', history: 'nope' };
    await writeFormat1([
      { ...summary, link: `${watch.origin} ${watch.token}`, history },
      { ...buildWatch(2), link: `${buildWatch(2).origin} ${buildWatch(2).token}`, history: [] },
      unreadable,
    ]);

    store = await openWatchStore();
    const { records, unreadable: skipped } = await store.list();
    expect(skipped).toBe(1);
    expect(records.map((record) => record.id).sort()).toEqual([watch.id, buildWatch(2).id]);
    const migrated = await store.get(watch.id);
    expect(migrated).toEqual(summary);
    expect(migrated && 'history' in migrated).toBe(false);
    expect(await store.history(watch.id)).toEqual(history);
    expect(await store.findByLink(watch.origin, watch.token)).toEqual(summary);
    // The unreadable record is still there, as it was.
    store.close();
    const raw = await openDB(WATCHLIST_DB_NAME, WATCHLIST_DB_VERSION);
    expect(await raw.get('watches', 'not-a-watch')).toEqual(unreadable);
    raw.close();
    store = await openWatchStore();
    // And format 2 goes on from there.
    const next = buildPoint({ at: FIXTURE_NOW + 3 * DAY, readinessScore: 70 });
    expect((await store.addPoint(watch.id, next))?.previous).toEqual(history[2]);
    expect(await store.history(watch.id)).toHaveLength(4);
  });

  it('skips a corrupt point instead of failing the whole history', async () => {
    const watch = buildWatch(1);
    await store.create(watch, buildPoint());
    store.close();
    const raw = await openDB(WATCHLIST_DB_NAME, WATCHLIST_DB_VERSION);
    await raw.put('points', { watchId: watch.id, at: FIXTURE_NOW + 1, readinessScore: 'high' });
    raw.close();
    store = await openWatchStore();
    expect(await store.history(watch.id)).toEqual([buildPoint()]);
  });
});
