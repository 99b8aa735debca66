import { storage } from 'wxt/utils/storage';
import { storedWatchSettingsSchema, watchSettingsSchema } from '../core/schemas/watchlist';
import { DEFAULT_WATCH_SETTINGS, type WatchSettings } from '../core/watchlist/schedule';

/**
 * The watchlist's settings (cadence, notifications) in storage.local, versioned. Read by the
 * background (scheduler, notifier) and the pages (options, the watchlist's texts). Reads never throw:
 * a corrupt field falls back to its default.
 */

export const WATCH_SETTINGS_STORAGE_KEY = 'local:watchSettings' as const;
export const WATCH_SETTINGS_VERSION = 1;

export function defineWatchSettingsItem() {
  return storage.defineItem<unknown>(WATCH_SETTINGS_STORAGE_KEY, {
    fallback: DEFAULT_WATCH_SETTINGS,
    version: WATCH_SETTINGS_VERSION,
  });
}

export interface WatchSettingsStore {
  get(): Promise<WatchSettings>;
  /** Validated strictly; throws a ZodError naming the field on bad input. */
  update(patch: Partial<WatchSettings>): Promise<WatchSettings>;
  watch(onChange: (settings: WatchSettings) => void): () => void;
}

export function createWatchSettingsStore(item = defineWatchSettingsItem()): WatchSettingsStore {
  const get = async () => storedWatchSettingsSchema.parse(await item.getValue());
  return {
    get,
    async update(patch) {
      const next = watchSettingsSchema.parse({ ...(await get()), ...patch });
      await item.setValue(next);
      return next;
    },
    watch: (onChange) => item.watch((value) => onChange(storedWatchSettingsSchema.parse(value))),
  };
}
