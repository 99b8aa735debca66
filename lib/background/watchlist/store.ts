import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import { z } from 'zod';
import { WATCHLIST_LIMITS } from '../../core/limits';
import { watchPointSchema, watchRecordSchema } from '../../core/schemas/watchlist';
import type { WatchPoint, WatchRecord } from '../../core/watchlist/types';

/**
 * The watchlist in IndexedDB (through idb): survives worker and browser restarts. Everything read is
 * parsed with zod; a record that does not parse is left where it is and counted (`list().unreadable`),
 * never thrown and never deleted.
 *
 * Format 2 (current): `watches` holds one record per watched link with a summary of its history
 * (latest and previous points, the score series, the count); `points` holds the history, keyed
 * `[watchId, at]`, so a refresh appends one small record and listing reads no history.
 * Format 1 kept each link's history inline (`history` in the watch record): every refresh rewrote the
 * whole history and listing read all of it. Opening a format-1 database migrates it (`upgrade`).
 */

export const WATCHLIST_DB_NAME = 'compliance-lens-watchlist';
export const WATCHLIST_DB_VERSION = 2;

interface WatchlistDb extends DBSchema {
  watches: { key: string; value: unknown; indexes: { byLink: string } };
  points: { key: [string, number]; value: unknown };
}

type Names = StoreNames<WatchlistDb>[];
type WriteTx = IDBPTransaction<WatchlistDb, Names, 'readwrite' | 'versionchange'>;

const storedPointSchema = watchPointSchema.extend({ watchId: z.string() });
/** Format 1's record: today's fields, with the history inline. */
const watchV1Schema = watchRecordSchema.extend({ history: z.array(watchPointSchema) });

/** Thrown when a new watch would pass WATCHLIST_LIMITS.maxWatches. */
export class WatchlistFullError extends Error {
  override name = 'WatchlistFullError';
}

export interface WatchStore {
  /** Every readable watch, and how many stored records could not be read (left untouched). */
  list(): Promise<{ records: WatchRecord[]; unreadable: number }>;
  get(id: string): Promise<WatchRecord | null>;
  findByLink(origin: string, token: string): Promise<WatchRecord | null>;
  /** Adds a watch (with its first point, if any). Throws WatchlistFullError at the limit. */
  create(record: WatchRecord, first: WatchPoint | null): Promise<WatchRecord>;
  /** Rewrites a watch's own fields (not its history). null: no such watch. */
  update(id: string, change: (record: WatchRecord) => WatchRecord): Promise<WatchRecord | null>;
  /**
   * Appends a point (bounded per watch) and moves the summary on; `change` updates the rest. A point
   * not newer than the latest (the same fetch, applied by two callers that shared it) is not added.
   */
  addPoint(id: string, point: WatchPoint, change?: (record: WatchRecord) => WatchRecord): Promise<WatchRecord | null>;
  /** The whole history, oldest first. */
  history(id: string): Promise<WatchPoint[]>;
  /** Deletes a watch and its history. */
  delete(id: string): Promise<boolean>;
  /** Deletes every watch and all history; returns how many watches there were. */
  clear(): Promise<number>;
  close(): void;
}

const linkKey = (origin: string, token: string) => `${origin} ${token}`;
const toStored = (record: WatchRecord) => ({ ...record, link: linkKey(record.origin, record.token) });
const pointsOf = (id: string) => IDBKeyRange.bound([id, -Infinity], [id, Infinity]);

/** The record's summary after `point`: latest and previous points, the score series, the count. */
export function withPoint(record: WatchRecord, point: WatchPoint): WatchRecord {
  const series = [...record.series, { at: point.at, score: point.readinessScore }].slice(-WATCHLIST_LIMITS.seriesLength);
  return {
    ...record,
    previous: record.latest,
    latest: point,
    series,
    pointCount: Math.min(WATCHLIST_LIMITS.maxPointsPerWatch, record.pointCount + 1),
  };
}

function parseRecord(value: unknown): WatchRecord | null {
  const parsed = watchRecordSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Stores a point and drops the oldest past the per-link bound. */
async function putPoint(tx: WriteTx, id: string, point: WatchPoint): Promise<void> {
  const points = tx.objectStore('points');
  await points.put({ ...point, watchId: id });
  let excess = (await points.count(pointsOf(id))) - WATCHLIST_LIMITS.maxPointsPerWatch;
  let cursor = excess > 0 ? await points.openCursor(pointsOf(id)) : null;
  while (cursor && excess > 0) {
    await cursor.delete();
    excess -= 1;
    cursor = await cursor.continue();
  }
}

/** Format 1 → 2: each inline history moves to `points`; a record that does not parse stays as it was. */
async function migrateV1(tx: WriteTx): Promise<void> {
  let cursor = await tx.objectStore('watches').openCursor();
  while (cursor) {
    const v1 = watchV1Schema.safeParse(cursor.value);
    if (v1.success) {
      const { history, ...record } = v1.data;
      const kept = history.slice(-WATCHLIST_LIMITS.maxPointsPerWatch);
      for (const point of kept) await tx.objectStore('points').put({ ...point, watchId: record.id });
      await cursor.update(toStored({ ...record, pointCount: kept.length }));
    }
    cursor = await cursor.continue();
  }
}

export async function openWatchStore(name = WATCHLIST_DB_NAME): Promise<WatchStore> {
  const db: IDBPDatabase<WatchlistDb> = await openDB<WatchlistDb>(name, WATCHLIST_DB_VERSION, {
    upgrade(database, oldVersion, _newVersion, tx) {
      if (oldVersion < 1)
        database.createObjectStore('watches', { keyPath: 'id' }).createIndex('byLink', 'link', { unique: true });
      if (oldVersion < 2) {
        database.createObjectStore('points', { keyPath: ['watchId', 'at'] });
        // A failed request aborts the upgrade, so openDB rejects and the format-1 data stays as it was.
        if (oldVersion === 1) void migrateV1(tx).catch(() => undefined);
      }
    },
    // Another context (an older worker) holds the database open at an older version: let it go.
    blocking: () => db.close(),
  });

  /** Runs `body` in one transaction over both stores; on failure it is aborted and the error rethrown. */
  async function write<T>(body: (tx: WriteTx) => Promise<T>): Promise<T> {
    const tx = db.transaction(['watches', 'points'], 'readwrite');
    try {
      const result = await body(tx);
      await tx.done;
      return result;
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // Already finished or aborted.
      }
      await tx.done.catch(() => undefined);
      throw error;
    }
  }

  const rewrite = (id: string, change: (record: WatchRecord, tx: WriteTx) => Promise<WatchRecord>) =>
    write(async (tx): Promise<WatchRecord | null> => {
      const record = parseRecord(await tx.objectStore('watches').get(id));
      if (!record) return null;
      const next = await change(record, tx);
      await tx.objectStore('watches').put(toStored(next));
      return next;
    });

  return {
    async list() {
      const values = await db.getAll('watches');
      const records = values.flatMap((value) => parseRecord(value) ?? []);
      return { records, unreadable: values.length - records.length };
    },
    get: async (id) => parseRecord(await db.get('watches', id)),
    findByLink: async (origin, token) => parseRecord(await db.getFromIndex('watches', 'byLink', linkKey(origin, token))),
    create: (record, first) =>
      write(async (tx) => {
        if ((await tx.objectStore('watches').count()) >= WATCHLIST_LIMITS.maxWatches) {
          throw new WatchlistFullError(`The watchlist holds at most ${WATCHLIST_LIMITS.maxWatches} links.`);
        }
        const created = first ? withPoint(record, first) : record;
        await tx.objectStore('watches').add(toStored(created));
        if (first) await putPoint(tx, record.id, first);
        return created;
      }),
    update: (id, change) => rewrite(id, async (record) => change(record)),
    addPoint: (id, point, change = (record) => record) =>
      rewrite(id, async (record, tx) => {
        // The same fetch applied twice (two callers joined one request): kept once.
        if (record.latest !== null && record.latest.at >= point.at) return change(record);
        await putPoint(tx, id, point);
        return change(withPoint(record, point));
      }),
    async history(id) {
      return (await db.getAll('points', pointsOf(id))).flatMap((value) => {
        const parsed = storedPointSchema.safeParse(value);
        if (!parsed.success) return [];
        const { watchId: _watchId, ...point } = parsed.data;
        return [point];
      });
    },
    delete: (id) =>
      write(async (tx) => {
        if ((await tx.objectStore('watches').getKey(id)) === undefined) return false;
        await tx.objectStore('watches').delete(id);
        await tx.objectStore('points').delete(pointsOf(id));
        return true;
      }),
    clear: () =>
      write(async (tx) => {
        const count = await tx.objectStore('watches').count();
        await Promise.all([tx.objectStore('watches').clear(), tx.objectStore('points').clear()]);
        return count;
      }),
    close: () => db.close(),
  };
}

/**
 * A store whose database opens on first use: the background wires everything synchronously when the
 * worker starts (listeners must be registered at once), and IndexedDB opens asynchronously. A failure
 * to open (e.g. no IndexedDB in a private window) rejects each call with its error, and the next call
 * tries again.
 */
export function deferredWatchStore(open: () => Promise<WatchStore> = () => openWatchStore()): WatchStore {
  let opened: Promise<WatchStore> | null = null;
  const ready = () => {
    opened ??= open().catch((error: unknown) => {
      opened = null;
      throw error;
    });
    return opened;
  };
  return {
    list: async () => (await ready()).list(),
    get: async (id) => (await ready()).get(id),
    findByLink: async (origin, token) => (await ready()).findByLink(origin, token),
    create: async (record, first) => (await ready()).create(record, first),
    update: async (id, change) => (await ready()).update(id, change),
    addPoint: async (id, point, change) => (await ready()).addPoint(id, point, change),
    history: async (id) => (await ready()).history(id),
    delete: async (id) => (await ready()).delete(id),
    clear: async () => (await ready()).clear(),
    close: () =>
      void opened?.then(
        (store) => store.close(),
        () => undefined,
      ),
  };
}
