import { ANNOTATOR_MATCHES, ANNOTATOR_SCRIPT, enabledSiteMatches } from '../core/content-scripts';
import type { EffectiveSettings } from '../core/schemas/settings';

/**
 * Runs the annotator on the extra sites the user enabled (options page, or "Enable on this site" in
 * the popup): one content script registered at runtime with `scripting.registerContentScripts`,
 * kept in step with `enabledSites` whenever the background starts and whenever settings change.
 * The browser injects it only where the user granted host access; the sites the manifest already
 * covers are excluded so no page runs the annotator twice.
 */

export const ENABLED_SITES_SCRIPT_ID = 'annotator-enabled-sites';

/** What this module needs of `browser.scripting` (injected: tests pass a fake). */
export interface RegisteredScript {
  id: string;
  matches?: string[];
  excludeMatches?: string[];
  js?: string[];
  runAt?: 'document_start' | 'document_end' | 'document_idle';
  allFrames?: boolean;
  matchOriginAsFallback?: boolean;
}

export interface ContentScriptingApi {
  getRegisteredContentScripts(filter?: { ids?: string[] }): Promise<RegisteredScript[]>;
  registerContentScripts(scripts: RegisteredScript[]): Promise<void>;
  updateContentScripts(scripts: RegisteredScript[]): Promise<void>;
  unregisterContentScripts(filter?: { ids?: string[] }): Promise<void>;
}

function desiredScript(matches: string[]): RegisteredScript {
  return {
    id: ENABLED_SITES_SCRIPT_ID,
    matches,
    excludeMatches: [...ANNOTATOR_MATCHES],
    js: [ANNOTATOR_SCRIPT],
    runAt: 'document_idle',
    // Frames too, as in the manifest (wxt.config.ts): mail bodies and records often sit in one.
    allFrames: true,
    matchOriginAsFallback: true,
  };
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort());

export type SyncOutcome = 'registered' | 'updated' | 'unregistered' | 'unchanged';

/** Brings the registration in line with `sites`: registers, updates, unregisters or leaves it. */
export async function syncContentScripts(scripting: ContentScriptingApi, sites: readonly string[]): Promise<SyncOutcome> {
  const matches = enabledSiteMatches(sites);
  const [current] = await scripting.getRegisteredContentScripts({ ids: [ENABLED_SITES_SCRIPT_ID] });
  if (matches.length === 0) {
    if (!current) return 'unchanged';
    await scripting.unregisterContentScripts({ ids: [ENABLED_SITES_SCRIPT_ID] });
    return 'unregistered';
  }
  const desired = desiredScript(matches);
  if (!current) {
    await scripting.registerContentScripts([desired]);
    return 'registered';
  }
  if (
    sameList(current.matches, desired.matches) &&
    sameList(current.excludeMatches, desired.excludeMatches) &&
    sameList(current.js, desired.js) &&
    current.allFrames === desired.allFrames &&
    current.matchOriginAsFallback === desired.matchOriginAsFallback
  ) {
    return 'unchanged';
  }
  await scripting.updateContentScripts([desired]);
  return 'updated';
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
