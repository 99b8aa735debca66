import { openDB, type DBSchema, type IDBPDatabase, type IDBPObjectStore } from 'idb';
import { z } from 'zod';
import { WATCHLIST_LIMITS } from '../../core/limits';
import { watchPointSchema, watchRecordSchema } from '../../core/schemas/watchlist';
import type { WatchPoint, WatchRecord } from '../../core/watchlist/types';

/**
 * The watchlist in IndexedDB (through idb): survives worker and browser restarts. Everything read is
 * parsed with zod; a record that does not parse is skipped (and reported by `list`), never thrown.
 *
 * Format version 1: one object store, `watches`, one record per watched link holding its whole
 * history inline (`history`, oldest first).
 */

export const WATCHLIST_DB_NAME = 'compliance-lens-watchlist';
export const WATCHLIST_DB_VERSION = 1;

interface WatchlistDbV1 extends DBSchema {
  watches: { key: string; value: unknown; indexes: { byLink: string } };
}

type WatchesStore = IDBPObjectStore<WatchlistDbV1, ['watches'], 'watches', 'readwrite'>;

const storedWatchSchema = watchRecordSchema.extend({ history: z.array(watchPointSchema) });

/** Thrown when a new watch would pass WATCHLIST_LIMITS.maxWatches. */
export class WatchlistFullError extends Error {
  override name = 'WatchlistFullError';
}

export interface WatchStore {
  list(): Promise<WatchRecord[]>;
  get(id: string): Promise<WatchRecord | null>;
  findByLink(origin: string, token: string): Promise<WatchRecord | null>;
  /** Adds a watch (with its first point, if any). Throws WatchlistFullError at the limit. */
  create(record: WatchRecord, first: WatchPoint | null): Promise<WatchRecord>;
  /** Rewrites a watch's own fields (not its history). null: no such watch. */
  update(id: string, change: (record: WatchRecord) => WatchRecord): Promise<WatchRecord | null>;
  /** Appends a point (bounded per watch) and moves the summary on; `change` updates the rest. */
  addPoint(id: string, point: WatchPoint, change?: (record: WatchRecord) => WatchRecord): Promise<WatchRecord | null>;
  /** The whole history, oldest first. */
  history(id: string): Promise<WatchPoint[]>;
  delete(id: string): Promise<boolean>;
  /** Deletes every watch and its history; returns how many watches there were. */
  clear(): Promise<number>;
  close(): void;
}

const linkKey = (origin: string, token: string) => `${origin} ${token}`;

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

export async function openWatchStore(name = WATCHLIST_DB_NAME): Promise<WatchStore> {
  const db: IDBPDatabase<WatchlistDbV1> = await openDB<WatchlistDbV1>(name, WATCHLIST_DB_VERSION, {
    upgrade(database) {
      const watches = database.createObjectStore('watches', { keyPath: 'id' });
      watches.createIndex('byLink', 'link', { unique: true });
    },
  });

  const parse = (value: unknown) => {
    const parsed = storedWatchSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  };
  const toRecord = ({ history: _history, ...record }: z.infer<typeof storedWatchSchema>): WatchRecord => record;
  const toStored = (record: WatchRecord, history: WatchPoint[]) => ({
    ...record,
    link: linkKey(record.origin, record.token),
    history,
  });

  /** Runs `body` in one transaction; on any failure the transaction is aborted and the error rethrown. */
  async function write<T>(body: (store: WatchesStore) => Promise<T>): Promise<T> {
    const tx = db.transaction('watches', 'readwrite');
    try {
      const result = await body(tx.store);
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

  const rewrite = (
    id: string,
    change: (stored: z.infer<typeof storedWatchSchema>) => { record: WatchRecord; history: WatchPoint[] },
  ): Promise<WatchRecord | null> =>
    write(async (store) => {
      const stored = parse(await store.get(id));
      if (!stored) return null;
      const next = change(stored);
      await store.put(toStored(next.record, next.history));
      return next.record;
    });

  return {
    async list() {
      return (await db.getAll('watches')).flatMap((value) => {
        const stored = parse(value);
        return stored ? [toRecord(stored)] : [];
      });
    },
    async get(id) {
      const stored = parse(await db.get('watches', id));
      return stored ? toRecord(stored) : null;
    },
    async findByLink(origin, token) {
      const stored = parse(await db.getFromIndex('watches', 'byLink', linkKey(origin, token)));
      return stored ? toRecord(stored) : null;
    },
    create: (record, first) =>
      write(async (store) => {
        if ((await store.count()) >= WATCHLIST_LIMITS.maxWatches) {
          throw new WatchlistFullError(`The watchlist holds at most ${WATCHLIST_LIMITS.maxWatches} links.`);
        }
        const created = first ? withPoint(record, first) : record;
        await store.add(toStored(created, first ? [first] : []));
        return created;
      }),
    update: (id, change) => rewrite(id, (stored) => ({ record: change(toRecord(stored)), history: stored.history })),
    addPoint: (id, point, change = (record) => record) =>
      rewrite(id, (stored) => ({
        record: change(withPoint(toRecord(stored), point)),
        history: [...stored.history, point].slice(-WATCHLIST_LIMITS.maxPointsPerWatch),
      })),
    async history(id) {
      return parse(await db.get('watches', id))?.history ?? [];
    },
    delete: (id) =>
      write(async (store) => {
        if ((await store.getKey(id)) === undefined) return false;
        await store.delete(id);
        return true;
      }),
    clear: () =>
      write(async (store) => {
        const count = await store.count();
        await store.clear();
        return count;
      }),
    close: () => db.close(),
  };
}
