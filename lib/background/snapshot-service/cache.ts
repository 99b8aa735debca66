import { z } from 'zod';
import { cachedSummarySchema, type CachedSummary } from '../../core/schemas/results';
import { KeyedMutex } from '../common/keyed-mutex';
import type { StorageAreaAdapter } from '../common/storage-area';

export const CACHE_KEY_PREFIX = 'snapshotCache:';
const INDEX_KEY = `${CACHE_KEY_PREFIX}index`;
export const DEFAULT_MAX_CACHE_ENTRIES = 500;

/**
 * The one canonical cache key for (origin, token). Origins are canonical already (settings only hold
 * `URL.origin` values, matched exactly); tokens are case-sensitive and contain no spaces.
 */
export function cacheKey(origin: string, token: string): string {
  return `${CACHE_KEY_PREFIX}${origin} ${token}`;
}

export type CacheEntry = CachedSummary;

/** Oldest first: the order entries were stored in, which is also eviction order. */
const indexSchema = z.array(z.string().startsWith(CACHE_KEY_PREFIX)).catch([]);

/**
 * A bounded snapshot cache over one storage area: one storage key per entry plus an index for
 * eviction. Entries are zod-parsed on read; a corrupt one reads as a miss.
 */
export class SnapshotCache {
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly area: StorageAreaAdapter,
    private readonly maxEntries = DEFAULT_MAX_CACHE_ENTRIES,
  ) {}

  async get(origin: string, token: string): Promise<CacheEntry | null> {
    const key = cacheKey(origin, token);
    const stored = await this.area.get([key]);
    const parsed = cachedSummarySchema.safeParse(stored[key]);
    if (!parsed.success || parsed.data.origin !== origin || parsed.data.token !== token) return null;
    return parsed.data;
  }

  async put(entry: CacheEntry): Promise<void> {
    const key = cacheKey(entry.origin, entry.token);
    await this.mutex.run(INDEX_KEY, async () => {
      const index = (await this.readIndex()).filter((existing) => existing !== key);
      index.push(key);
      const evicted = index.splice(0, Math.max(0, index.length - this.maxEntries));
      await this.area.set({ [key]: entry, [INDEX_KEY]: index });
      if (evicted.length > 0) await this.area.remove(evicted);
    });
  }

  async delete(origin: string, token: string): Promise<void> {
    const key = cacheKey(origin, token);
    await this.mutex.run(INDEX_KEY, async () => {
      const index = (await this.readIndex()).filter((existing) => existing !== key);
      await this.area.remove([key]);
      await this.area.set({ [INDEX_KEY]: index });
    });
  }

  async list(): Promise<CacheEntry[]> {
    const index = await this.readIndex();
    if (index.length === 0) return [];
    const stored = await this.area.get(index);
    return index.flatMap((key) => {
      const parsed = cachedSummarySchema.safeParse(stored[key]);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** Removes every entry; returns how many there were. */
  async clear(): Promise<number> {
    return this.mutex.run(INDEX_KEY, async () => {
      const index = await this.readIndex();
      await this.area.remove([...index, INDEX_KEY]);
      return index.length;
    });
  }

  private async readIndex(): Promise<string[]> {
    const stored = await this.area.get([INDEX_KEY]);
    return indexSchema.parse(stored[INDEX_KEY] ?? []);
  }
}
