import { ANNOTATOR_MATCHES, enabledSiteMatches, PAGE_SCRIPTS } from '../../extension/content-scripts';
import type { EffectiveSettings } from '../../core/schemas/settings';

/**
 * Runs the annotator on the extra sites the user enabled (options page, or "Enable on this site" in
 * the popup): the same content scripts as the manifest (the annotator and the frame relay in the top
 * frame, the sentinel in the page world of every subframe), registered at runtime with
 * `scripting.registerContentScripts` and kept in step with `enabledSites` whenever the background
 * starts and whenever settings change. The browser injects them only where the user granted host
 * access; the sites the manifest already covers are excluded so no page runs them twice.
 */

/** The registration id of one of PAGE_SCRIPTS on enabled sites. */
const registrationId = (name: (typeof PAGE_SCRIPTS)[number]['name']) => `${name}-enabled-sites`;
export const ENABLED_SITES_SCRIPT_ID = registrationId('annotator');
export const ENABLED_SITES_FRAME_RELAY_ID = registrationId('frame-relay');
export const ENABLED_SITES_FRAME_SENTINEL_ID = registrationId('frame-sentinel');
const SCRIPT_IDS = PAGE_SCRIPTS.map(({ name }) => registrationId(name));
/** Registrations of earlier builds, removed wherever found (the browser keeps them across updates). */
export const RETIRED_SCRIPT_IDS = ['frame-probe-enabled-sites'];

/** What this module needs of `browser.scripting` (injected: tests pass a fake). */
export interface RegisteredScript {
  id: string;
  matches?: string[];
  excludeMatches?: string[];
  js?: string[];
  runAt?: 'document_start' | 'document_end' | 'document_idle';
  allFrames?: boolean;
  matchOriginAsFallback?: boolean;
  world?: 'ISOLATED' | 'MAIN';
}

export interface ContentScriptingApi {
  getRegisteredContentScripts(filter?: { ids?: string[] }): Promise<RegisteredScript[]>;
  registerContentScripts(scripts: RegisteredScript[]): Promise<void>;
  updateContentScripts(scripts: RegisteredScript[]): Promise<void>;
  unregisterContentScripts(filter?: { ids?: string[] }): Promise<void>;
}

/** PAGE_SCRIPTS, as the manifest has them (wxt.config.ts), on the enabled sites. */
function desiredScripts(matches: string[]): RegisteredScript[] {
  const common = {
    matches,
    excludeMatches: [...ANNOTATOR_MATCHES],
  } satisfies Partial<RegisteredScript>;
  return PAGE_SCRIPTS.map(({ name, js, allFrames, world, runAt }) => ({
    id: registrationId(name),
    ...common,
    runAt,
    js: [js],
    allFrames,
    matchOriginAsFallback: true,
    ...(world === 'MAIN' ? { world } : {}),
  }));
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort());

function sameScript(current: RegisteredScript, desired: RegisteredScript): boolean {
  return (
    sameList(current.matches, desired.matches) &&
    sameList(current.excludeMatches, desired.excludeMatches) &&
    sameList(current.js, desired.js) &&
    current.runAt === desired.runAt &&
    (current.allFrames ?? false) === desired.allFrames &&
    (current.matchOriginAsFallback ?? false) === desired.matchOriginAsFallback &&
    (current.world ?? 'ISOLATED') === (desired.world ?? 'ISOLATED')
  );
}

export type SyncOutcome = 'registered' | 'updated' | 'unregistered' | 'unchanged';

/** Brings the registrations in line with `sites`: registers, updates, unregisters or leaves each (by id). */
export async function syncContentScripts(
  scripting: ContentScriptingApi,
  sites: readonly string[],
): Promise<Record<string, SyncOutcome>> {
  const matches = enabledSiteMatches(sites);
  const registered = new Map(
    (await scripting.getRegisteredContentScripts({ ids: [...SCRIPT_IDS, ...RETIRED_SCRIPT_IDS] })).map((script) => [
      script.id,
      script,
    ]),
  );
  const outcomes: Record<string, SyncOutcome> = {};
  const retired = RETIRED_SCRIPT_IDS.filter((id) => registered.has(id));
  if (retired.length > 0) await scripting.unregisterContentScripts({ ids: retired });
  for (const id of retired) outcomes[id] = 'unregistered';
  if (matches.length === 0) {
    const stale = SCRIPT_IDS.filter((id) => registered.has(id));
    if (stale.length > 0) await scripting.unregisterContentScripts({ ids: stale });
    for (const id of SCRIPT_IDS) outcomes[id] = registered.has(id) ? 'unregistered' : 'unchanged';
    return outcomes;
  }
  const desired = desiredScripts(matches);
  const missing = desired.filter((script) => !registered.has(script.id));
  const changed = desired.filter((script) => {
    const current = registered.get(script.id);
    return current !== undefined && !sameScript(current, script);
  });
  if (missing.length > 0) await scripting.registerContentScripts(missing);
  if (changed.length > 0) await scripting.updateContentScripts(changed);
  for (const script of desired) {
    outcomes[script.id] = missing.includes(script) ? 'registered' : changed.includes(script) ? 'updated' : 'unchanged';
  }
  return outcomes;
}

export interface ContentRegistrationDeps {
  scripting: ContentScriptingApi;
  settings: {
    getEffectiveSettings(): Promise<EffectiveSettings>;
    watch(onChange: (settings: EffectiveSettings) => void): () => void;
  };
  onError?: (error: unknown) => void;
}

/**
 * Syncs now and after every settings change. Syncs run one after another (two overlapping ones
 * could both try to register the same id). Returns a function that stops watching.
 */
export function startContentRegistration(deps: ContentRegistrationDeps): { stop(): void; settled(): Promise<void> } {
  const onError =
    deps.onError ?? ((error: unknown) => console.warn('[Compliance Lens] content script registration failed:', error));
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (sites: () => Promise<readonly string[]>) => {
    chain = chain
      .then(async () => {
        await syncContentScripts(deps.scripting, await sites());
      })
      .catch(onError);
  };
  enqueue(async () => (await deps.settings.getEffectiveSettings()).enabledSites);
  const unwatch = deps.settings.watch((next) => enqueue(async () => next.enabledSites));
  return { stop: unwatch, settled: () => chain };
}
