import { z } from 'zod';
import { browser } from 'wxt/browser';
import { storage } from 'wxt/utils/storage';
import {
  API_PATH_TEMPLATE,
  LOCAL_SERVICES,
  SHARE_PATH_TEMPLATE,
  serviceConfigSchema,
  type ServiceConfig,
} from '../core/schemas/service';
import { LAST_POLICY_STORAGE_KEY, USER_SETTINGS_KEY } from '../core/storage-keys';

/**
 * User settings (storage.local, versioned) merged with administrator policy (storage.managed).
 * Every stored value is parsed with zod on read: a corrupt field falls back to its default, a corrupt
 * service entry is dropped, and nothing read from storage can throw.
 */

/**
 * Placeholder origin of the hosted compliance-status service: the spec does not publish one.
 * Administrators override it through managed storage, users in the options page. It is not in
 * `host_permissions`, so it is only contacted once the user grants it (`requestServicePermission`).
 */
export const PRODUCTION_SERVICE_ORIGIN = 'https://app.compliance-status.example';

export const PRODUCTION_SERVICE: ServiceConfig = {
  id: 'production',
  name: 'Compliance Status',
  origin: PRODUCTION_SERVICE_ORIGIN,
  apiPathTemplate: API_PATH_TEMPLATE,
  sharePathTemplates: [SHARE_PATH_TEMPLATE],
};

export const DEFAULT_SERVICES: readonly ServiceConfig[] = [...LOCAL_SERVICES, PRODUCTION_SERVICE];

export const FETCH_MODES = ['intent', 'prefetch-visible'] as const;
export type FetchMode = (typeof FETCH_MODES)[number];

export const SETTINGS_LIMITS = {
  hoverDelayMs: { min: 300, max: 1500, default: 400 },
  cacheTtlMinutes: { min: 30, max: 360, default: 60 },
  /** Kept well under the server's 60/min per IP, which is shared by everyone behind one NAT. */
  requestBudgetPerMinute: { min: 1, max: 50, default: 30 },
} as const;

const hoverDelayMsSchema = z.int().min(SETTINGS_LIMITS.hoverDelayMs.min).max(SETTINGS_LIMITS.hoverDelayMs.max);
const cacheTtlMinutesSchema = z
  .int()
  .min(SETTINGS_LIMITS.cacheTtlMinutes.min)
  .max(SETTINGS_LIMITS.cacheTtlMinutes.max);
const requestBudgetSchema = z
  .int()
  .min(SETTINGS_LIMITS.requestBudgetPerMinute.min)
  .max(SETTINGS_LIMITS.requestBudgetPerMinute.max);

/** A host the content script may also run on, e.g. `crm.example.com` or `*.example.com`. */
export const enabledSiteSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/, 'a host name like crm.example.com or *.example.com');

/** Strict schema: what may be written. */
export const userSettingsSchema = z.object({
  services: z.array(serviceConfigSchema).max(50),
  fetchMode: z.enum(FETCH_MODES),
  hoverDelayMs: hoverDelayMsSchema,
  cacheTtlMinutes: cacheTtlMinutesSchema,
  requestBudgetPerMinute: requestBudgetSchema,
  /** Off: the snapshot cache lives in storage.session (gone when the browser closes). */
  persistCache: z.boolean(),
  enabledSites: z.array(enabledSiteSchema).max(200),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

export const DEFAULT_USER_SETTINGS: UserSettings = {
  services: [...DEFAULT_SERVICES],
  fetchMode: 'intent',
  hoverDelayMs: SETTINGS_LIMITS.hoverDelayMs.default,
  cacheTtlMinutes: SETTINGS_LIMITS.cacheTtlMinutes.default,
  requestBudgetPerMinute: SETTINGS_LIMITS.requestBudgetPerMinute.default,
  persistCache: false,
  enabledSites: [],
};

/** Keeps the valid elements of a stored list and drops the rest, instead of losing the whole list. */
function lenientList<T>(element: z.ZodType<T>, limit: number) {
  return z.array(z.unknown()).transform((items) =>
    items.flatMap((item) => {
      const parsed = element.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    }).slice(0, limit),
  );
}

/** Unique by id and by origin; the first entry wins. */
export function dedupeServices<T extends ServiceConfig>(services: readonly T[]): T[] {
  const ids = new Set<string>();
  const origins = new Set<string>();
  return services.filter((service) => {
    if (ids.has(service.id) || origins.has(service.origin)) return false;
    ids.add(service.id);
    origins.add(service.origin);
    return true;
  });
}

/** Lenient schema: what is read. Each field falls back on its own. */
export const storedUserSettingsSchema = z
  .object({
    services: lenientList(serviceConfigSchema, 50)
      .transform(dedupeServices)
      .catch(() => [...DEFAULT_USER_SETTINGS.services]),
    fetchMode: z.enum(FETCH_MODES).catch(DEFAULT_USER_SETTINGS.fetchMode),
    hoverDelayMs: hoverDelayMsSchema.catch(DEFAULT_USER_SETTINGS.hoverDelayMs),
    cacheTtlMinutes: cacheTtlMinutesSchema.catch(DEFAULT_USER_SETTINGS.cacheTtlMinutes),
    requestBudgetPerMinute: requestBudgetSchema.catch(DEFAULT_USER_SETTINGS.requestBudgetPerMinute),
    persistCache: z.boolean().catch(DEFAULT_USER_SETTINGS.persistCache),
    enabledSites: lenientList(enabledSiteSchema, 200).catch(() => [...DEFAULT_USER_SETTINGS.enabledSites]),
  })
  .catch(() => structuredClone(DEFAULT_USER_SETTINGS));

export function parseStoredUserSettings(value: unknown): UserSettings {
  return storedUserSettingsSchema.parse(value);
}

/**
 * Version 1 (the prototype) stored `prefetchVisible`, `hoverDelay` (ms), `cacheTtlMs`,
 * `requestsPerMinute` and `persistentCache`. Version 2 is `UserSettings`.
 */
const settingsV1Schema = z.object({
  services: z.unknown().optional(),
  prefetchVisible: z.boolean().optional().catch(undefined),
  hoverDelay: z.number().optional().catch(undefined),
  cacheTtlMs: z.number().optional().catch(undefined),
  requestsPerMinute: z.number().optional().catch(undefined),
  persistentCache: z.boolean().optional().catch(undefined),
  enabledSites: z.unknown().optional(),
});

function clampInt(value: number | undefined, limits: { min: number; max: number; default: number }): number {
  if (value === undefined || !Number.isFinite(value)) return limits.default;
  return Math.min(limits.max, Math.max(limits.min, Math.round(value)));
}

export function migrateSettingsV1ToV2(stored: unknown): UserSettings {
  const v1 = settingsV1Schema.safeParse(stored);
  if (!v1.success) return structuredClone(DEFAULT_USER_SETTINGS);
  const old = v1.data;
  return parseStoredUserSettings({
    services: old.services ?? DEFAULT_USER_SETTINGS.services,
    fetchMode: old.prefetchVisible ? 'prefetch-visible' : 'intent',
    hoverDelayMs: clampInt(old.hoverDelay, SETTINGS_LIMITS.hoverDelayMs),
    cacheTtlMinutes: clampInt(
      old.cacheTtlMs === undefined ? undefined : old.cacheTtlMs / 60_000,
      SETTINGS_LIMITS.cacheTtlMinutes,
    ),
    requestBudgetPerMinute: clampInt(old.requestsPerMinute, SETTINGS_LIMITS.requestBudgetPerMinute),
    persistCache: old.persistentCache ?? false,
    enabledSites: old.enabledSites ?? [],
  });
}

export const SETTINGS_STORAGE_KEY = `local:${USER_SETTINGS_KEY}` as const;
export const SETTINGS_VERSION = 2;

/**
 * Defines the versioned item. WXT runs migrations when an item is defined, so tests define a fresh
 * item after seeding storage; the extension defines it once per context (`createSettingsStore`).
 */
export function defineSettingsItem() {
  return storage.defineItem<unknown>(SETTINGS_STORAGE_KEY, {
    fallback: DEFAULT_USER_SETTINGS,
    version: SETTINGS_VERSION,
    migrations: { 2: migrateSettingsV1ToV2 },
  });
}

// ---- Managed storage (administrator policy; schema in public/managed_schema.json) ----

const managedServiceSchema = z.object({
  id: serviceConfigSchema.shape.id,
  name: serviceConfigSchema.shape.name,
  origin: serviceConfigSchema.shape.origin,
  apiPathTemplate: serviceConfigSchema.shape.apiPathTemplate.default(API_PATH_TEMPLATE),
  sharePathTemplates: serviceConfigSchema.shape.sharePathTemplates.default([SHARE_PATH_TEMPLATE]),
});

/** Each policy is optional; an invalid one is ignored (as if unset), never fatal. */
export const managedSettingsSchema = z
  .object({
    services: lenientList(managedServiceSchema, 50).transform(dedupeServices).optional().catch(undefined),
    /** false: only the administrator's services are used and the user cannot add more. */
    allowUserServices: z.boolean().optional().catch(undefined),
    fetchMode: z.enum(FETCH_MODES).optional().catch(undefined),
    hoverDelayMs: hoverDelayMsSchema.optional().catch(undefined),
    cacheTtlMinutes: cacheTtlMinutesSchema.optional().catch(undefined),
    requestBudgetPerMinute: requestBudgetSchema.optional().catch(undefined),
    persistCache: z.boolean().optional().catch(undefined),
    enabledSites: lenientList(enabledSiteSchema, 200).optional().catch(undefined),
  })
  .catch({});
export type ManagedSettings = z.infer<typeof managedSettingsSchema>;

export function parseManagedSettings(value: unknown): ManagedSettings {
  return managedSettingsSchema.parse(value ?? {});
}

// ---- Effective settings ----

export const configuredServiceSchema = serviceConfigSchema.extend({
  source: z.enum(['user', 'managed']),
  locked: z.boolean(),
});
export type ConfiguredService = z.infer<typeof configuredServiceSchema>;


export const effectiveSettingsSchema = userSettingsSchema.extend({
  services: z.array(configuredServiceSchema),
  /** true where an administrator's policy decides the value and the options page must not offer it. */
  locked: z.object({
    fetchMode: z.boolean(),
    hoverDelayMs: z.boolean(),
    cacheTtlMinutes: z.boolean(),
    requestBudgetPerMinute: z.boolean(),
    persistCache: z.boolean(),
    enabledSites: z.boolean(),
    /** The service list: true when `allowUserServices` is false (managed services are always locked). */
    services: z.boolean(),
  }),
});
export type EffectiveSettings = z.infer<typeof effectiveSettingsSchema>;

/** Effective settings for a page; `settled: false` while the administrator policy is still being read. */
export const pageSettingsSchema = effectiveSettingsSchema.extend({ settled: z.boolean() });
export type PageSettings = z.infer<typeof pageSettingsSchema>;

/** Managed values win over the user's and are marked locked. */
export function mergeSettings(user: UserSettings, managed: ManagedSettings): EffectiveSettings {
  const managedServices: ConfiguredService[] = (managed.services ?? []).map((service) => ({
    ...service,
    source: 'managed',
    locked: true,
  }));
  const userServices: ConfiguredService[] =
    managed.allowUserServices === false
      ? []
      : user.services.map((service) => ({ ...service, source: 'user', locked: false }));
  // A user entry with the same id or origin as a managed one is shadowed by it.
  const services = dedupeServices([...managedServices, ...userServices]);

  return {
    services,
    fetchMode: managed.fetchMode ?? user.fetchMode,
    hoverDelayMs: managed.hoverDelayMs ?? user.hoverDelayMs,
    cacheTtlMinutes: managed.cacheTtlMinutes ?? user.cacheTtlMinutes,
    requestBudgetPerMinute: managed.requestBudgetPerMinute ?? user.requestBudgetPerMinute,
    persistCache: managed.persistCache ?? user.persistCache,
    enabledSites: managed.enabledSites ?? user.enabledSites,
    locked: {
      fetchMode: managed.fetchMode !== undefined,
      hoverDelayMs: managed.hoverDelayMs !== undefined,
      cacheTtlMinutes: managed.cacheTtlMinutes !== undefined,
      requestBudgetPerMinute: managed.requestBudgetPerMinute !== undefined,
      persistCache: managed.persistCache !== undefined,
      enabledSites: managed.enabledSites !== undefined,
      services: managed.allowUserServices === false,
    },
  };
}

export interface SettingsStore {
  getUserSettings(): Promise<UserSettings>;
  /** Validates strictly; throws a ZodError naming the field on bad input. Locked values still win on read. */
  updateUserSettings(patch: Partial<UserSettings>): Promise<UserSettings>;
  getManagedSettings(): Promise<ManagedSettings>;
  getEffectiveSettings(): Promise<EffectiveSettings>;
  /**
   * For content scripts, without waiting for a slow first policy read: unsettled answers use the
   * last policy seen (see `createManagedPolicyReader`). Never for decisions that gate a fetch.
   */
  getPageSettings(): Promise<PageSettings>;
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
 * again. Everything that gates a fetch uses `get()`, which never answers from that copy.
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
  return {
    get,
    /**
     * Without waiting for a first read still pending: the policy `get()` would answer if it can
     * (settled), otherwise the last policy seen in an earlier browser session, or none (unsettled).
     */
    async provisional(): Promise<{ policy: ManagedSettings; settled: boolean }> {
      const pending = get();
      if (settled) return { policy: settled, settled: true };
      if ((await readSessionCopy()) !== null) return { policy: await pending, settled: true };
      if (settled) return { policy: settled, settled: true };
      const last: unknown = await lastPolicy.getValue().catch(() => null);
      return { policy: parseManagedSettings(last), settled: false };
    },
    /** The administrator changed the policy: read it again now. */
    reload(): Promise<ManagedSettings> {
      current = loadFresh();
      return current;
    },
  };
}

export function createSettingsStore(item = defineSettingsItem()): SettingsStore {
  const getUserSettings = async () => parseStoredUserSettings(await item.getValue());
  const managedPolicy = createManagedPolicyReader();
  browser.storage?.onChanged?.addListener((_changes, area) => {
    if (area === 'managed') void managedPolicy.reload();
  });
  const getManagedSettings = () => managedPolicy.get();
  const getEffectiveSettings = async () => {
    const [user, managed] = await Promise.all([getUserSettings(), getManagedSettings()]);
    return mergeSettings(user, managed);
  };
  return {
    getUserSettings,
    getManagedSettings,
    getEffectiveSettings,
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
