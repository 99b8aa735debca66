import { browser } from 'wxt/browser';
import { backgroundClient } from '@/lib/protocol/pages';
import { createSettingsStore, type SettingsStore } from '@/lib/extension/settings';
import { type EffectiveSettings, type UserSettings } from '@/lib/core/schemas/settings';
import type { LanguagePreference } from '@/lib/core/i18n/language';
import { getLanguagePreference, setLanguagePreference } from '@/lib/extension/language-preference';
import { createWatchSettingsStore, type WatchSettingsStore } from '@/lib/extension/watch-settings';
import type { WatchSettings } from '@/lib/core/watchlist/schedule';

/**
 * Everything the options page reads and writes, behind one interface so component tests can swap
 * the browser parts (permission prompts, the background worker) for fakes.
 */
export interface OptionsApi {
  /**
   * Effective settings (with locked flags) and the user's own, which is what the page edits. At once,
   * even while the browser's first read of the administrator policy is pending (seconds on a new
   * install): then with the last policy seen and `settled: false`, and `policySettled` says when to
   * load again.
   */
  loadSettings: () => Promise<{ effective: EffectiveSettings; user: UserSettings; settled: boolean }>;
  /** Resolves once the administrator policy has been read (at once when it already was). */
  policySettled: () => Promise<void>;
  /** Validated strictly by the settings store; rejects with a ZodError naming the field. */
  updateUserSettings: (patch: Partial<UserSettings>) => Promise<UserSettings>;
  watchSettings: (onChange: () => void) => () => void;
  hasHostAccess: (pattern: string) => Promise<boolean>;
  /**
   * Asks the browser for host access. It calls the browser before anything is awaited, so call it
   * synchronously from a click or submit handler: browsers only prompt during a user gesture.
   */
  requestHostAccess: (patterns: readonly string[]) => Promise<boolean>;
  /** Best effort: manifest permissions cannot be removed, and that is fine. */
  removeHostAccess: (patterns: readonly string[]) => Promise<void>;
  countCached: () => Promise<number>;
  /** Clears the snapshot cache everywhere; resolves to the number of entries removed. */
  clearCache: () => Promise<number>;
  getLanguagePreference: () => Promise<LanguagePreference>;
  setLanguagePreference: (preference: LanguagePreference) => Promise<void>;
  /** The watchlist's cadence and notifications (lib/extension/watch-settings.ts). */
  loadWatchSettings: () => Promise<WatchSettings>;
  /** Validated strictly; rejects with a ZodError naming the field. */
  updateWatchSettings: (patch: Partial<WatchSettings>) => Promise<WatchSettings>;
  watchWatchSettings: (onChange: () => void) => () => void;
}

export interface BrowserOptionsApiDeps {
  settings?: SettingsStore;
  permissions?: Pick<typeof browser.permissions, 'contains' | 'request' | 'remove'>;
  background?: Pick<typeof backgroundClient, 'listCached' | 'clearCache'>;
  watchSettings?: WatchSettingsStore;
}

export function createBrowserOptionsApi(deps: BrowserOptionsApiDeps = {}): OptionsApi {
  const settings = deps.settings ?? createSettingsStore();
  const permissions = deps.permissions ?? browser.permissions;
  const background = deps.background ?? backgroundClient;
  const watchSettings = deps.watchSettings ?? createWatchSettingsStore();
  return {
    async loadSettings() {
      const [{ settled, ...effective }, user] = await Promise.all([settings.getPageSettings(), settings.getUserSettings()]);
      return { effective, user, settled };
    },
    policySettled: async () => {
      await settings.getManagedSettings();
    },
    updateUserSettings: (patch) => settings.updateUserSettings(patch),
    watchSettings: (onChange) => settings.watch(() => onChange()),
    async hasHostAccess(pattern) {
      try {
        return await permissions.contains({ origins: [pattern] });
      } catch {
        return false;
      }
    },
    requestHostAccess: (patterns) => permissions.request({ origins: [...patterns] }),
    async removeHostAccess(patterns) {
      try {
        await permissions.remove({ origins: [...patterns] });
      } catch {
        // Required (manifest) host permissions cannot be removed.
      }
    },
    countCached: async () => (await background.listCached()).length,
    clearCache: async () => (await background.clearCache({ area: 'all' })).cleared,
    getLanguagePreference,
    setLanguagePreference,
    loadWatchSettings: () => watchSettings.get(),
    updateWatchSettings: (patch) => watchSettings.update(patch),
    watchWatchSettings: (onChange) => watchSettings.watch(() => onChange()),
  };
}
