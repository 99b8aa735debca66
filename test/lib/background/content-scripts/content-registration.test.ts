import { describe, expect, it, vi } from 'vitest';
import {
  ENABLED_SITES_FRAME_RELAY_ID,
  ENABLED_SITES_FRAME_SENTINEL_ID,
  ENABLED_SITES_SCRIPT_ID,
  RETIRED_SCRIPT_IDS,
  startContentRegistration,
  syncContentScripts,
  type ContentScriptingApi,
  type RegisteredScript,
} from '@/lib/background/content-scripts/content-registration';
import {
  ANNOTATOR_MATCHES,
  ANNOTATOR_SCRIPT,
  enabledSiteMatches,
  FRAME_RELAY_SCRIPT,
  FRAME_SENTINEL_SCRIPT,
  siteMatchPattern,
} from '@/lib/extension/content-scripts';
import { DEFAULT_USER_SETTINGS, mergeSettings, type EffectiveSettings } from '@/lib/core/schemas/settings';

/** An in-memory `browser.scripting` with the browser's own rules (duplicate id, unknown id). */
function fakeScripting() {
  const registered = new Map<string, RegisteredScript>();
  const api = {
    getRegisteredContentScripts: vi.fn(async (filter?: { ids?: string[] }) =>
      [...registered.values()]
        .filter((script) => !filter?.ids || filter.ids.includes(script.id))
        .map((script) => structuredClone(script)),
    ),
    registerContentScripts: vi.fn(async (scripts: RegisteredScript[]) => {
      for (const script of scripts) {
        if (registered.has(script.id)) throw new Error(`Duplicate script ID '${script.id}'`);
        registered.set(script.id, structuredClone(script));
      }
    }),
    updateContentScripts: vi.fn(async (scripts: RegisteredScript[]) => {
      for (const script of scripts) {
        const current = registered.get(script.id);
        if (!current) throw new Error(`Nonexistent script ID '${script.id}'`);
        registered.set(script.id, { ...current, ...structuredClone(script) });
      }
    }),
    unregisterContentScripts: vi.fn(async (filter?: { ids?: string[] }) => {
      for (const id of filter?.ids ?? [...registered.keys()]) {
        if (!registered.delete(id)) throw new Error(`Nonexistent script ID '${id}'`);
      }
    }),
  } satisfies ContentScriptingApi;
  return { api, registered };
}

const settingsWith = (enabledSites: string[]): EffectiveSettings => mergeSettings({ ...DEFAULT_USER_SETTINGS, enabledSites }, {});

describe('match patterns', () => {
  it.each([
    ['crm.example.com', '*://crm.example.com/*'],
    ['*.example.com', '*://*.example.com/*'],
    ['crm.example.com:8443', '*://crm.example.com/*'],
    ['  CRM.Example.com ', '*://crm.example.com/*'],
  ])('%j → %j', (site, pattern) => {
    expect(siteMatchPattern(site)).toBe(pattern);
  });

  it('deduplicates (ports collapse) and sorts, so the same sites always give the same list', () => {
    expect(enabledSiteMatches(['b.example', 'a.example:8080', 'a.example'])).toEqual(['*://a.example/*', '*://b.example/*']);
  });
});

describe('syncContentScripts', () => {
  const both = (outcome: string) => ({
    [ENABLED_SITES_SCRIPT_ID]: outcome,
    [ENABLED_SITES_FRAME_RELAY_ID]: outcome,
    [ENABLED_SITES_FRAME_SENTINEL_ID]: outcome,
  });

  it('registers the annotator and the frame relay (top frame) and the sentinel (the page world of every subframe) for enabled sites, excluding the sites the manifest already covers', async () => {
    const { api, registered } = fakeScripting();
    expect(await syncContentScripts(api, ['crm.example.com'])).toEqual(both('registered'));
    const common = {
      matches: ['*://crm.example.com/*'],
      excludeMatches: ANNOTATOR_MATCHES,
      runAt: 'document_idle',
    };
    // The annotator starts with the page: its badges take their room before the first paint.
    expect(registered.get(ENABLED_SITES_SCRIPT_ID)).toEqual({
      id: ENABLED_SITES_SCRIPT_ID,
      ...common,
      runAt: 'document_start',
      js: [ANNOTATOR_SCRIPT],
      allFrames: false,
      matchOriginAsFallback: true,
    });
    expect(registered.get(ENABLED_SITES_FRAME_RELAY_ID)).toEqual({
      id: ENABLED_SITES_FRAME_RELAY_ID,
      ...common,
      js: [FRAME_RELAY_SCRIPT],
      allFrames: false,
      matchOriginAsFallback: true,
    });
    expect(registered.get(ENABLED_SITES_FRAME_SENTINEL_ID)).toEqual({
      id: ENABLED_SITES_FRAME_SENTINEL_ID,
      ...common,
      js: [FRAME_SENTINEL_SCRIPT],
      allFrames: true,
      matchOriginAsFallback: true,
      world: 'MAIN',
    });
  });

  it('removes the frame probe that earlier builds registered for every frame with an address', async () => {
    const { api, registered } = fakeScripting();
    const [probeId = ''] = RETIRED_SCRIPT_IDS;
    registered.set(probeId, { id: probeId, matches: ['*://crm.example.com/*'], js: ['frame-probe.js'], allFrames: true });
    expect(await syncContentScripts(api, ['crm.example.com'])).toEqual({ ...both('registered'), [probeId]: 'unregistered' });
    expect([...registered.keys()].sort()).toEqual(Object.keys(both('')).sort());
    // Also when no site is left to register for.
    registered.set(probeId, { id: probeId, matches: ['*://crm.example.com/*'], js: ['frame-probe.js'], allFrames: true });
    expect(await syncContentScripts(api, [])).toEqual({ ...both('unregistered'), [probeId]: 'unregistered' });
    expect(registered.size).toBe(0);
  });

  it('updates when the sites change, leaves an identical registration alone, unregisters when none are left', async () => {
    const { api, registered } = fakeScripting();
    await syncContentScripts(api, ['crm.example.com']);
    expect(await syncContentScripts(api, ['crm.example.com', 'deals.example.org'])).toEqual(both('updated'));
    expect(registered.get(ENABLED_SITES_SCRIPT_ID)?.matches).toEqual(['*://crm.example.com/*', '*://deals.example.org/*']);
    expect(registered.get(ENABLED_SITES_FRAME_SENTINEL_ID)?.matches).toEqual([
      '*://crm.example.com/*',
      '*://deals.example.org/*',
    ]);
    expect(await syncContentScripts(api, ['deals.example.org', 'crm.example.com'])).toEqual(both('unchanged'));
    expect(api.updateContentScripts).toHaveBeenCalledTimes(1);
    expect(await syncContentScripts(api, [])).toEqual(both('unregistered'));
    expect(registered.size).toBe(0);
    expect(await syncContentScripts(api, [])).toEqual(both('unchanged'));
  });

  it('repairs a registration from an older build (different file) and adds the missing sentinel', async () => {
    const { api, registered } = fakeScripting();
    registered.set(ENABLED_SITES_SCRIPT_ID, { id: ENABLED_SITES_SCRIPT_ID, matches: ['*://crm.example.com/*'], js: ['old.js'] });
    expect(await syncContentScripts(api, ['crm.example.com'])).toEqual({
      [ENABLED_SITES_SCRIPT_ID]: 'updated',
      [ENABLED_SITES_FRAME_RELAY_ID]: 'registered',
      [ENABLED_SITES_FRAME_SENTINEL_ID]: 'registered',
    });
    expect(registered.get(ENABLED_SITES_SCRIPT_ID)?.js).toEqual([ANNOTATOR_SCRIPT]);
  });

  it('repairs a registration from a build that ran the annotator in every frame', async () => {
    const { api, registered } = fakeScripting();
    registered.set(ENABLED_SITES_SCRIPT_ID, {
      id: ENABLED_SITES_SCRIPT_ID,
      matches: ['*://crm.example.com/*'],
      excludeMatches: [...ANNOTATOR_MATCHES],
      js: [ANNOTATOR_SCRIPT],
      runAt: 'document_idle',
      allFrames: true,
      matchOriginAsFallback: true,
    });
    expect((await syncContentScripts(api, ['crm.example.com']))[ENABLED_SITES_SCRIPT_ID]).toBe('updated');
    expect(registered.get(ENABLED_SITES_SCRIPT_ID)).toMatchObject({ allFrames: false });
  });

  it('reads a browser that leaves default fields out as having them off', async () => {
    const { api, registered } = fakeScripting();
    await syncContentScripts(api, ['crm.example.com']);
    const annotator = registered.get(ENABLED_SITES_SCRIPT_ID);
    if (!annotator) throw new Error('not registered');
    delete annotator.allFrames;
    delete annotator.world;
    expect(await syncContentScripts(api, ['crm.example.com'])).toEqual(both('unchanged'));
  });

  it('leaves other registrations alone', async () => {
    const { api, registered } = fakeScripting();
    registered.set('someone-else', { id: 'someone-else', matches: ['*://x.example/*'], js: ['x.js'] });
    await syncContentScripts(api, ['crm.example.com']);
    await syncContentScripts(api, []);
    expect([...registered.keys()]).toEqual(['someone-else']);
  });
});

describe('startContentRegistration', () => {
  function fakeSettings(initial: string[]) {
    let listener: ((settings: EffectiveSettings) => void) | null = null;
    return {
      getEffectiveSettings: vi.fn(async () => settingsWith(initial)),
      watch: vi.fn((onChange: (settings: EffectiveSettings) => void) => {
        listener = onChange;
        return () => {
          listener = null;
        };
      }),
      change: (sites: string[]) => listener?.(settingsWith(sites)),
      get watching() {
        return listener !== null;
      },
    };
  }

  it('syncs at start (the background starts with the browser) and after each settings change, in order', async () => {
    const { api, registered } = fakeScripting();
    const settings = fakeSettings(['crm.example.com']);
    const registration = startContentRegistration({ scripting: api, settings });
    await registration.settled();
    expect(registered.get(ENABLED_SITES_SCRIPT_ID)?.matches).toEqual(['*://crm.example.com/*']);

    // Two quick changes: run one after the other, never two registrations at once.
    settings.change(['a.example']);
    settings.change(['a.example', 'b.example']);
    await registration.settled();
    expect(registered.get(ENABLED_SITES_SCRIPT_ID)?.matches).toEqual(['*://a.example/*', '*://b.example/*']);
    expect(registered.get(ENABLED_SITES_FRAME_SENTINEL_ID)?.matches).toEqual(['*://a.example/*', '*://b.example/*']);
    expect(api.registerContentScripts).toHaveBeenCalledTimes(1);

    settings.change([]);
    await registration.settled();
    expect(registered.size).toBe(0);

    registration.stop();
    expect(settings.watching).toBe(false);
  });

  it('reports a failure and keeps going with the next change', async () => {
    const { api, registered } = fakeScripting();
    api.registerContentScripts.mockRejectedValueOnce(new Error('Invalid match pattern'));
    const onError = vi.fn();
    const settings = fakeSettings(['crm.example.com']);
    const registration = startContentRegistration({ scripting: api, settings, onError });
    await registration.settled();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'Invalid match pattern' }));
    settings.change(['crm.example.com']);
    await registration.settled();
    expect(registered.has(ENABLED_SITES_SCRIPT_ID)).toBe(true);
  });
});
