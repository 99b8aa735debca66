import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ZodError } from 'zod';
import { LOCAL_SERVICES } from '@/lib/core/services';
import {
  DEFAULT_USER_SETTINGS,
  SETTINGS_VERSION,
  effectiveSettingsSchema,
  mergeSettings,
  parseManagedSettings,
} from '@/lib/core/schemas/settings';
import { PRODUCTION_SERVICE, PRODUCTION_SERVICE_ORIGIN } from '@/lib/core/services';
import { createSettingsStore } from '@/lib/extension/settings';

const STORAGE_KEY = 'settings';

beforeEach(() => {
  fakeBrowser.reset();
  vi.restoreAllMocks();
});

describe('defaults', () => {
  it('falls back to documented defaults when nothing is stored', async () => {
    const settings = await createSettingsStore().getUserSettings();
    expect(settings).toEqual({
      services: [...LOCAL_SERVICES, PRODUCTION_SERVICE],
      fetchMode: 'intent',
      hoverDelayMs: 400,
      cacheTtlMinutes: 60,
      requestBudgetPerMinute: 30,
      persistCache: false,
      enabledSites: [],
    });
    expect(PRODUCTION_SERVICE_ORIGIN).toBe('https://app.compliance-status.example');
  });

  it('effective settings without managed policy: nothing locked, all user services', async () => {
    const effective = await createSettingsStore().getEffectiveSettings();
    expect(effectiveSettingsSchema.safeParse(effective).success).toBe(true);
    expect(Object.values(effective.locked).every((locked) => !locked)).toBe(true);
    expect(effective.services.map((service) => [service.origin, service.source, service.locked])).toEqual([
      ['http://localhost:8787', 'user', false],
      [PRODUCTION_SERVICE_ORIGIN, 'user', false],
    ]);
  });
});

describe('corrupt stored values', () => {
  it.each([
    ['a string', 'garbage'],
    ['a number', 42],
    ['an array', [1, 2, 3]],
  ])('%s falls back to the defaults', async (_name, stored) => {
    await fakeBrowser.storage.local.set({ [STORAGE_KEY]: stored, [`${STORAGE_KEY}$`]: { v: SETTINGS_VERSION } });
    expect(await createSettingsStore().getUserSettings()).toEqual(DEFAULT_USER_SETTINGS);
  });

  it('falls back field by field and drops only the broken service entries', async () => {
    await fakeBrowser.storage.local.set({
      [STORAGE_KEY]: {
        services: [
          LOCAL_SERVICES[0],
          { id: 'bad', name: 'Bad', origin: 'https://x.example/path', apiPathTemplate: '/{token}', sharePathTemplates: [] },
          'nope',
        ],
        fetchMode: 'always',
        hoverDelayMs: 50,
        cacheTtlMinutes: 120,
        requestBudgetPerMinute: 60,
        persistCache: 'yes',
        enabledSites: ['crm.example.com', 'not a host!'],
      },
      [`${STORAGE_KEY}$`]: { v: SETTINGS_VERSION },
    });
    expect(await createSettingsStore().getUserSettings()).toEqual({
      services: [LOCAL_SERVICES[0]],
      fetchMode: 'intent',
      hoverDelayMs: 400,
      cacheTtlMinutes: 120,
      requestBudgetPerMinute: 30,
      persistCache: false,
      enabledSites: ['crm.example.com'],
    });
  });
});

/** The bundled server on 127.0.0.1, as version 2 of the settings listed it beside localhost. */
const OTHER_LOCAL = {
  id: 'local-127',
  name: 'Local dev server (127.0.0.1)',
  origin: 'http://127.0.0.1:8787',
  apiPathTemplate: '/api/v1/compliance-status/{token}',
  sharePathTemplates: ['/share/{token}'],
};

describe('migration', () => {
  it('version 2 to 3: the bundled server listed twice becomes one service with an alias; a changed entry stays (issue #33 item 14)', async () => {
    const [local] = LOCAL_SERVICES;
    if (!local) throw new Error('no local service');
    const { aliases: _aliases, ...localV2 } = local;
    const mine = { ...OTHER_LOCAL, id: 'mine', origin: 'http://127.0.0.1:9000' };
    await fakeBrowser.storage.local.set({
      [STORAGE_KEY]: { ...DEFAULT_USER_SETTINGS, services: [localV2, OTHER_LOCAL, mine] },
      [`${STORAGE_KEY}$`]: { v: 2 },
    });
    const store = createSettingsStore();
    expect((await store.getUserSettings()).services).toEqual([local, mine]);
  });

  it('migrates version 1 (prefetchVisible, hoverDelay, cacheTtlMs, requestsPerMinute, persistentCache)', async () => {
    await fakeBrowser.storage.local.set({
      [STORAGE_KEY]: {
        services: [OTHER_LOCAL],
        prefetchVisible: true,
        hoverDelay: 250,
        cacheTtlMs: 2 * 3600_000,
        requestsPerMinute: 55,
        persistentCache: true,
      },
    });
    const store = createSettingsStore();
    expect(await store.getUserSettings()).toEqual({
      // Version 3 lists the bundled server once, with its other name as an alias.
      services: [...LOCAL_SERVICES],
      fetchMode: 'prefetch-visible',
      hoverDelayMs: 300,
      cacheTtlMinutes: 120,
      requestBudgetPerMinute: 50,
      persistCache: true,
      enabledSites: [],
    });
    const stored = await fakeBrowser.storage.local.get([STORAGE_KEY, `${STORAGE_KEY}$`]);
    expect(stored[`${STORAGE_KEY}$`]).toEqual({ v: SETTINGS_VERSION });
    expect(stored[STORAGE_KEY]).toMatchObject({ fetchMode: 'prefetch-visible' });
  });

  it('migrates an empty or corrupt version 1 value to the defaults', async () => {
    await fakeBrowser.storage.local.set({ [STORAGE_KEY]: { hoverDelay: 'slow', services: 'none' } });
    expect(await createSettingsStore().getUserSettings()).toEqual(DEFAULT_USER_SETTINGS);
  });
});

describe('updates', () => {
  it('stores a valid patch', async () => {
    const store = createSettingsStore();
    await store.updateUserSettings({ hoverDelayMs: 800, persistCache: true });
    expect(await createSettingsStore().getUserSettings()).toMatchObject({
      hoverDelayMs: 800,
      persistCache: true,
      cacheTtlMinutes: 60,
    });
  });

  it.each([
    ['hover delay below 300 ms', { hoverDelayMs: 100 }],
    ['budget above 50/min', { requestBudgetPerMinute: 55 }],
    ['TTL above 6 h', { cacheTtlMinutes: 400 }],
    ['TTL below 30 min', { cacheTtlMinutes: 10 }],
  ])('rejects %s', async (_name, patch) => {
    const store = createSettingsStore();
    await expect(store.updateUserSettings(patch)).rejects.toBeInstanceOf(ZodError);
    expect(await store.getUserSettings()).toEqual(DEFAULT_USER_SETTINGS);
  });

  it('notifies watchers with the effective settings', async () => {
    const store = createSettingsStore();
    const seen = new Promise((resolve) => store.watch(resolve));
    await store.updateUserSettings({ fetchMode: 'prefetch-visible' });
    expect(await seen).toMatchObject({ fetchMode: 'prefetch-visible' });
  });
});

describe('managed storage', () => {
  const adminService = { id: 'corp', name: 'Corp compliance', origin: 'https://compliance.corp.example' };

  it('merges administrator policy over user settings and marks it locked', async () => {
    await fakeBrowser.storage.managed.set({
      services: [adminService],
      requestBudgetPerMinute: 10,
      persistCache: false,
      enabledSites: ['crm.corp.example'],
    });
    const store = createSettingsStore();
    await store.updateUserSettings({ requestBudgetPerMinute: 40, persistCache: true, hoverDelayMs: 600 });
    const effective = await store.getEffectiveSettings();

    expect(effective).toMatchObject({
      requestBudgetPerMinute: 10,
      persistCache: false,
      hoverDelayMs: 600,
      enabledSites: ['crm.corp.example'],
      locked: {
        requestBudgetPerMinute: true,
        persistCache: true,
        enabledSites: true,
        hoverDelayMs: false,
        fetchMode: false,
        cacheTtlMinutes: false,
        services: false,
      },
    });
    expect(effective.services[0]).toEqual({
      ...adminService,
      apiPathTemplate: '/api/v1/compliance-status/{token}',
      sharePathTemplates: ['/share/{token}'],
      source: 'managed',
      locked: true,
    });
    expect(effective.services.slice(1).every((service) => service.source === 'user' && !service.locked)).toBe(true);
  });

  it('a managed service shadows a user entry with the same origin', () => {
    const effective = mergeSettings(
      { ...DEFAULT_USER_SETTINGS, services: [{ ...PRODUCTION_SERVICE, id: 'mine', name: 'Mine' }] },
      parseManagedSettings({ services: [{ id: 'prod', name: 'Prod (policy)', origin: PRODUCTION_SERVICE_ORIGIN }] }),
    );
    expect(effective.services).toHaveLength(1);
    expect(effective.services[0]).toMatchObject({ id: 'prod', source: 'managed', locked: true });
  });

  it('allowUserServices: false keeps only the administrator’s services and locks the list', async () => {
    await fakeBrowser.storage.managed.set({ services: [adminService], allowUserServices: false });
    const effective = await createSettingsStore().getEffectiveSettings();
    expect(effective.services.map((service) => service.origin)).toEqual([adminService.origin]);
    expect(effective.locked.services).toBe(true);
  });

  it('ignores invalid policies one by one', async () => {
    await fakeBrowser.storage.managed.set({
      services: [adminService, { id: 'x', name: 'X', origin: 'javascript:alert(1)' }],
      hoverDelayMs: 5,
      fetchMode: 'prefetch-visible',
      cacheTtlMinutes: 'long',
    });
    const managed = await createSettingsStore().getManagedSettings();
    expect(managed.services?.map((service) => service.id)).toEqual(['corp']);
    expect(managed.fetchMode).toBe('prefetch-visible');
    expect(managed.hoverDelayMs).toBeUndefined();
    expect(managed.cacheTtlMinutes).toBeUndefined();
  });

  it('absent managed storage (the API throws) is fine', async () => {
    vi.spyOn(fakeBrowser.storage.managed, 'get').mockRejectedValue(new Error('Managed storage manifest not found'));
    const store = createSettingsStore();
    expect(await store.getManagedSettings()).toEqual({});
    expect((await store.getEffectiveSettings()).locked.requestBudgetPerMinute).toBe(false);
  });

  it('a non-object managed value reads as no policy', () => {
    expect(parseManagedSettings('oops')).toEqual({});
    expect(parseManagedSettings(null)).toEqual({});
  });
});
