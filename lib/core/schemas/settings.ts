import { z } from 'zod';
import { SETTINGS_LIMITS } from '../limits';
import { API_PATH_TEMPLATE, DEFAULT_SERVICES, LOCAL_SERVICES, SHARE_PATH_TEMPLATE, type ServiceConfig } from '../services';
import { serviceConfigSchema } from './service';

/**
 * User settings, administrator policy and their merge, as schemas and pure functions. Every stored
 * value is parsed on read: a corrupt field falls back to its default, a corrupt service entry is
 * dropped, and nothing read from storage can throw. The store that reads and writes them is
 * lib/extension/settings.ts.
 */

export const FETCH_MODES = ['intent', 'prefetch-visible'] as const;
export type FetchMode = (typeof FETCH_MODES)[number];

export const hoverDelayMsSchema = z.int().min(SETTINGS_LIMITS.hoverDelayMs.min).max(SETTINGS_LIMITS.hoverDelayMs.max);
const cacheTtlMinutesSchema = z.int().min(SETTINGS_LIMITS.cacheTtlMinutes.min).max(SETTINGS_LIMITS.cacheTtlMinutes.max);
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
    items
      .flatMap((item) => {
        const parsed = element.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      })
      .slice(0, limit),
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

/**
 * Version 2 listed the bundled server twice (`local-localhost` at http://localhost:8787, `local-127`
 * at http://127.0.0.1:8787); version 3 lists it once, the other name as its alias (issue #33 item
 * 14). Entries the user changed are kept as they are.
 */
const V2_LOCAL_ORIGINS: Readonly<Record<string, string>> = {
  'local-localhost': 'http://localhost:8787',
  'local-127': 'http://127.0.0.1:8787',
};

export function migrateSettingsV2ToV3(stored: unknown): UserSettings {
  const settings = parseStoredUserSettings(stored);
  const isOldLocal = (service: ServiceConfig) => !service.aliases && V2_LOCAL_ORIGINS[service.id] === service.origin;
  const first = settings.services.findIndex(isOldLocal);
  if (first === -1) return settings;
  const services = settings.services.flatMap((service, index) =>
    !isOldLocal(service) ? [service] : index === first ? [...LOCAL_SERVICES] : [],
  );
  return { ...settings, services: dedupeServices(services) };
}

export const SETTINGS_VERSION = 3;

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
    managed.allowUserServices === false ? [] : user.services.map((service) => ({ ...service, source: 'user', locked: false }));
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
