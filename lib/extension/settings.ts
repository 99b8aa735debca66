import { browser } from 'wxt/browser';
import { storage } from 'wxt/utils/storage';
import { LAST_POLICY_STORAGE_KEY, USER_SETTINGS_KEY } from '../core/storage-keys';
import {
  DEFAULT_USER_SETTINGS,
  SETTINGS_VERSION,
  dedupeServices,
  mergeSettings,
  migrateSettingsV1ToV2,
  migrateSettingsV2ToV3,
  parseManagedSettings,
  parseStoredUserSettings,
  userSettingsSchema,
  type EffectiveSettings,
  type ManagedSettings,
  type PageSettings,
  type UserSettings,
} from '../core/schemas/settings';

/**
 * The settings store: user settings in storage.local (versioned), merged with the administrator
 * policy from storage.managed. Schemas, defaults and the merge live in lib/core/schemas/settings.ts.
 */

export const SETTINGS_STORAGE_KEY = `local:${USER_SETTINGS_KEY}` as const;

/**
 * Defines the versioned item. WXT runs migrations when an item is defined, so tests define a fresh
 * item after seeding storage; the extension defines it once per context (`createSettingsStore`).
 */
export function defineSettingsItem() {
  return storage.defineItem<unknown>(SETTINGS_STORAGE_KEY, {
    fallback: DEFAULT_USER_SETTINGS,
    version: SETTINGS_VERSION,
    migrations: { 2: migrateSettingsV1ToV2, 3: migrateSettingsV2ToV3 },
  });
}

export interface SettingsStore {
  getUserSettings(): Promise<UserSettings>;
  /** Validates strictly; throws a ZodError naming the field on bad input. Locked values still win on read. */
  updateUserSettings(patch: Partial<UserSettings>): Promise<UserSettings>;
  getManagedSettings(): Promise<ManagedSettings>;
  getEffectiveSettings(): Promise<EffectiveSettings>;
  /**
   * For content scripts, without waiting for a slow first policy read: unsettled answers use the
   * last policy seen (see `createManagedPolicyReader`).
   */
  getPageSettings(): Promise<PageSettings>;
  /**
   * For the snapshot service (what may be fetched, from where, kept how long): without waiting for
   * the first policy read of a browser session when an earlier session's read stands in for it (issue
   * #33 item 10: the first card after a browser start waited ~2.6 s); with no read ever made, it waits.
   */
  getFetchSettings(): Promise<EffectiveSettings>;
  /** Called with the new effective settings when the user's settings change. */
  watch(onChange: (settings: EffectiveSettings) => void): () => void;
}

/** Reads managed storage; absent (no policy, or Firefox without a managed manifest) means `{}`. */
async function readManagedStorage(): Promise<unknown> {
  try {
    return await storage.snapshot('managed');
  } catch {
    return {};
  }
}

/**
 * The last policy read, kept for the browser session. The first `storage.managed` read of a browser
 * session took ~2.6 s in Chromium on Linux (later reads ~10 ms), and the service worker restarts
 * often: a restarted worker answers from this copy at once and refreshes it behind.
 * Defined here, in the background only, not at module load: defining a `session:` item reads it at
 * once, and Firefox gives extension pages framed in web pages (the card) no `storage.session` at all.
 *
 * A second copy in `storage.local` (LAST_POLICY_STORAGE_KEY) outlives the browser session, only for
 * `provisional()`: pages opened while the first read is pending are annotated from it instead of
 * waiting, and it is rewritten only when a fresh read differs, which tells content scripts to look
 * again. `standIn()` answers the snapshot service from it too, until the first read is done.
 */
export function createManagedPolicyReader(read: () => Promise<unknown> = readManagedStorage) {
  const managedPolicyCache = storage.defineItem<unknown>('session:managedPolicyCache', { fallback: null });
  const lastPolicy = storage.defineItem<unknown>(`local:${LAST_POLICY_STORAGE_KEY}`, { fallback: null });
  let current: Promise<ManagedSettings> | undefined;
  let settled: ManagedSettings | null = null;
  /** The session copy, read once per worker (by `get()` and `provisional()` alike). */
  let sessionCopy: Promise<unknown> | undefined;
  const readSessionCopy = () => (sessionCopy ??= managedPolicyCache.getValue().catch(() => null));
  const loadFresh = async (): Promise<ManagedSettings> => {
    const policy = parseManagedSettings(await read());
    settled = policy;
    await managedPolicyCache.setValue(policy).catch(() => undefined);
    const previous: unknown = await lastPolicy.getValue().catch(() => null);
    if (JSON.stringify(previous) !== JSON.stringify(policy)) await lastPolicy.setValue(policy).catch(() => undefined);
    return policy;
  };
  const loadCachedThenFresh = async (): Promise<ManagedSettings> => {
    const fresh = loadFresh();
    const cached: unknown = await readSessionCopy();
    if (cached === null) return fresh;
    fresh.then(
      (policy) => {
        current = Promise.resolve(policy);
      },
      () => undefined,
    );
    settled ??= parseManagedSettings(cached);
    return settled;
  };
  const get = (): Promise<ManagedSettings> => {
    current ??= loadCachedThenFresh();
    return current;
  };
  /**
   * Without waiting for a first read still pending: the policy `get()` would answer if it can
   * (settled), otherwise the last policy seen in an earlier browser session, or none (unsettled).
   */
  const provisional = async (): Promise<{ policy: ManagedSettings; settled: boolean }> => {
    const pending = get();
    if (settled) return { policy: settled, settled: true };
    if ((await readSessionCopy()) !== null) return { policy: await pending, settled: true };
    if (settled) return { policy: settled, settled: true };
    const last: unknown = await lastPolicy.getValue().catch(() => null);
    return { policy: parseManagedSettings(last), settled: false };
  };
  return {
    get,
    provisional,
    /**
     * The policy to fetch with: the settled one; while the first read of a browser session is pending,
     * the last one seen in an earlier session (the policy in force when the browser last ran); with
     * none ever seen, the read itself.
     */
    async standIn(): Promise<ManagedSettings> {
      const answer = await provisional();
      if (answer.settled) return answer.policy;
      const last: unknown = await lastPolicy.getValue().catch(() => null);
      return last === null ? get() : answer.policy;
    },
    /** The administrator changed the policy: read it again now. */
    reload(): Promise<ManagedSettings> {
      current = loadFresh();
      return current;
    },
  };
}

export interface SettingsStoreOptions {
  /** Where the user's settings are kept (default: the extension's settings item). */
  item?: ReturnType<typeof defineSettingsItem>;
  /** The lifetime of its listener for policy changes (the background's); none: the page's. */
  signal?: AbortSignal;
}

export function createSettingsStore({ item = defineSettingsItem(), signal }: SettingsStoreOptions = {}): SettingsStore {
  const getUserSettings = async () => parseStoredUserSettings(await item.getValue());
  const managedPolicy = createManagedPolicyReader();
  const onPolicyChanged = (_changes: unknown, area: string) => {
    if (area === 'managed') void managedPolicy.reload();
  };
  browser.storage?.onChanged?.addListener(onPolicyChanged);
  signal?.addEventListener('abort', () => browser.storage?.onChanged?.removeListener(onPolicyChanged), { once: true });
  const getManagedSettings = () => managedPolicy.get();
  const getEffectiveSettings = async () => {
    const [user, managed] = await Promise.all([getUserSettings(), getManagedSettings()]);
    return mergeSettings(user, managed);
  };
  return {
    getUserSettings,
    getManagedSettings,
    getEffectiveSettings,
    async getFetchSettings() {
      const [user, policy] = await Promise.all([getUserSettings(), managedPolicy.standIn()]);
      return mergeSettings(user, policy);
    },
    async getPageSettings() {
      const [user, { policy, settled }] = await Promise.all([getUserSettings(), managedPolicy.provisional()]);
      return { ...mergeSettings(user, policy), settled };
    },
    async updateUserSettings(patch) {
      const next = userSettingsSchema.parse({ ...(await getUserSettings()), ...patch });
      const services = dedupeServices(next.services);
      const stored = { ...next, services };
      await item.setValue(stored);
      return stored;
    },
    watch(onChange) {
      return item.watch(() => {
        void getEffectiveSettings().then(onChange);
      });
    },
  };
}
