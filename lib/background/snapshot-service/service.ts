import { serviceAt, type ServiceConfig } from '../../core/services';
import { isValidTokenShape } from '../../core/token';
import { SnapshotCache, cacheKey, type CacheEntry } from './cache';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS, buildSnapshotUrl, fetchSnapshot, type FetchLike } from './http';
import { RateBudget } from './rate-budget';
import { createSignatureChecker } from './signatures';
import {
  snapshotError,
  type CachedSummary,
  type PeekResult,
  type SnapshotError,
  type SnapshotRequest,
  type SnapshotResult,
} from '../../core/schemas/results';
import type { StorageAreaAdapter } from '../common/storage-area';

/** The part of the effective settings the service reads, on every call (settings can change any time). */
export interface SnapshotServiceSettings {
  services: readonly ServiceConfig[];
  cacheTtlMinutes: number;
  requestBudgetPerMinute: number;
  /** true: cache in `localArea` (survives browser restarts); false: in `sessionArea`. */
  persistCache: boolean;
}

export interface SnapshotServiceDeps {
  fetch: FetchLike;
  getSettings: () => Promise<SnapshotServiceSettings>;
  /** Whether the extension may contact this origin (host permission granted). */
  hasHostPermission: (origin: string) => Promise<boolean>;
  /** storage.session: default cache, rate budget and 429 pauses. */
  sessionArea: StorageAreaAdapter;
  /** storage.local: the cache when the user opts in to keeping it across browser restarts. */
  localArea: StorageAreaAdapter;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
  maxBodyBytes?: number;
  maxCacheEntries?: number;
}

/** A background refresh that did not run: the budget share for background work is used up, or the origin is paused. */
export interface BudgetDeferral {
  status: 'deferred';
  retryAt: number;
}

export interface SnapshotService {
  /** From the cache while fresh, else one (shared, budgeted) fetch. */
  getSnapshot: (request: SnapshotRequest) => Promise<SnapshotResult>;
  /** Bypasses the cache; still joins an in-flight fetch and waits for the budget. */
  refresh: (request: SnapshotRequest) => Promise<SnapshotResult>;
  /**
   * `refresh` for background work (the watchlist's scheduled refreshes): joins an in-flight fetch,
   * otherwise fetches only if `reserve` budget tokens stay for hovers and user actions; never waits.
   */
  refreshInBackground: (request: SnapshotRequest, options: { reserve: number }) => Promise<SnapshotResult | BudgetDeferral>;
  /** The cache only, never the network: null when nothing fresh is cached. */
  peek: (request: SnapshotRequest) => Promise<PeekResult>;
  /**
   * Whether `getSnapshot` would send a request now: nothing fresh cached, no fetch of the link on its
   * way to join, the origin not paused (a gesture's allowance is spent only on such a fetch).
   */
  wouldFetch: (request: SnapshotRequest) => Promise<boolean>;
  /** Cached entries (fresh or not) in the active cache area, oldest first. */
  listCached: () => Promise<CachedSummary[]>;
  /** Empties the cache: `all` (default) both areas, or just one. Returns how many entries went. */
  clearCache: (area?: 'session' | 'local' | 'all') => Promise<number>;
}

type Resolved = { service: ServiceConfig; token: string; settings: SnapshotServiceSettings };

export function createSnapshotService(deps: SnapshotServiceDeps): SnapshotService {
  const now = deps.now ?? (() => Date.now());
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const sessionCache = new SnapshotCache(deps.sessionArea, deps.maxCacheEntries);
  const localCache = new SnapshotCache(deps.localArea, deps.maxCacheEntries);
  const budget = new RateBudget(deps.sessionArea, { now, sleep });
  const http = {
    fetch: deps.fetch,
    now,
    timeoutMs: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  };
  const signatures = createSignatureChecker({ fetch: deps.fetch, now });
  /** Only promises live in memory: losing them with the worker loses nothing but the coalescing. */
  const inFlight = new Map<string, Promise<SnapshotResult | BudgetDeferral>>();

  const cacheFor = (settings: SnapshotServiceSettings) => (settings.persistCache ? localCache : sessionCache);

  /**
   * Re-checks what any caller claims (its shape was parsed where it entered): exact configured origin
   * (or one of its aliases: the same link, cached and fetched on the service's own origin), valid token shape.
   */
  async function resolve({ origin, token }: SnapshotRequest): Promise<Resolved | SnapshotError> {
    const settings = await deps.getSettings();
    const service = serviceAt(settings.services, origin);
    if (!service) {
      return snapshotError(
        'FORBIDDEN_ORIGIN',
        `${origin} is not a configured compliance-status service; nothing was sent to it.`,
      );
    }
    if (!isValidTokenShape(token)) {
      return snapshotError('NOT_FOUND', 'This is not a valid share token; nothing was sent.');
    }
    return { service, token, settings };
  }

  function isFresh(entry: CacheEntry): boolean {
    return entry.expiresAt === null || entry.expiresAt > now();
  }

  function fromCache(entry: CacheEntry): SnapshotResult {
    return { ...entry.result, fromCache: true };
  }

  async function readFresh(resolved: Resolved): Promise<SnapshotResult | null> {
    const entry = await cacheFor(resolved.settings).get(resolved.service.origin, resolved.token);
    return entry && isFresh(entry) ? fromCache(entry) : null;
  }

  async function store(resolved: Resolved, result: SnapshotResult, previous: CacheEntry | null): Promise<SnapshotResult> {
    const { service, token, settings } = resolved;
    let entry: CacheEntry | null = null;
    const storedAt = now();
    if (result.status === 'ready') {
      const ttlEnd = result.fetchedAt + settings.cacheTtlMinutes * 60_000;
      const shareEnd = Date.parse(result.snapshot.verification.share_expires_at);
      entry = { origin: service.origin, token, storedAt, expiresAt: Math.min(ttlEnd, shareEnd), result };
    } else if (result.code === 'NOT_FOUND') {
      // Seen active before (or already known withdrawn): the founder revoked it, not a mistyped link.
      const seenActive =
        previous?.result.status === 'ready' || (previous?.result.status === 'error' && previous.result.withdrawn);
      if (seenActive) result = { ...result, withdrawn: true };
      entry = { origin: service.origin, token, storedAt, expiresAt: null, result };
    } else if (result.code === 'EXPIRED') {
      // The 410 body carries no date; an earlier snapshot of the same share does.
      const knownExpiry =
        previous?.result.status === 'ready' ? previous.result.snapshot.verification.share_expires_at : undefined;
      result = knownExpiry ? { ...result, expiredAt: knownExpiry } : result;
      entry = { origin: service.origin, token, storedAt, expiresAt: null, result };
    }
    if (entry) {
      try {
        await cacheFor(settings).put(entry);
      } catch {
        // A full or failing storage area costs a future fetch, not this answer.
      }
    }
    return result;
  }

  /** Waits for a budget token (foreground) or takes one only if the reserve stays (background). */
  type Gate = (origin: string, perMinute: number) => Promise<{ pausedUntil: number } | BudgetDeferral | null>;
  const waitForBudget: Gate = (origin, perMinute) => budget.acquire(origin, perMinute);
  const budgetWithReserve =
    (reserve: number): Gate =>
    async (origin, perMinute) => {
      const taken = await budget.tryAcquire(origin, perMinute, reserve);
      return 'granted' in taken ? null : { status: 'deferred', retryAt: taken.retryAt };
    };

  async function fetchAndStore(resolved: Resolved, useCache: boolean, gate: Gate): Promise<SnapshotResult | BudgetDeferral> {
    const { service, token, settings } = resolved;
    if (!(await deps.hasHostPermission(service.origin))) {
      return snapshotError(
        'FORBIDDEN_ORIGIN',
        `Compliance Lens has not been allowed to contact ${service.origin} yet. Grant access in the options page.`,
        { permissionRequired: true },
      );
    }
    const previous = await cacheFor(settings).get(service.origin, token);
    // A fetch that finished between this caller's cache read and now already answered it.
    if (useCache && previous && isFresh(previous)) return fromCache(previous);

    const passed = await gate(service.origin, settings.requestBudgetPerMinute);
    if (passed && 'status' in passed) return passed;
    if (passed) {
      return snapshotError('RATE_LIMITED', `The service asked Compliance Lens to slow down; it will try again after the pause.`, {
        retryAt: passed.pausedUntil,
      });
    }
    const result = await fetchSnapshot(buildSnapshotUrl(service, token), {
      ...http,
      verify: (response) => signatures.check(service.origin, response, token),
    });
    if (result.status === 'error' && result.code === 'RATE_LIMITED' && result.retryAt !== undefined) {
      await budget.pause(service.origin, result.retryAt);
    }
    return store(resolved, result, previous);
  }

  async function load(request: SnapshotRequest, useCache: boolean): Promise<SnapshotResult> {
    const resolved = await resolve(request);
    if ('status' in resolved) return resolved;
    if (useCache) {
      const hit = await readFresh(resolved);
      if (hit) return hit;
    }
    const outcome = await shared(resolved, () => fetchAndStore(resolved, useCache, waitForBudget));
    // Joined a background refresh that fetched nothing (its budget share was used up): fetch now.
    return outcome.status === 'deferred' ? load(request, useCache) : outcome;
  }

  /**
   * The running fetch of this link, or `start` as the new one. Checked and set with no await in
   * between, so concurrent callers share one job.
   */
  function shared(
    resolved: Resolved,
    start: () => Promise<SnapshotResult | BudgetDeferral>,
  ): Promise<SnapshotResult | BudgetDeferral> {
    const key = cacheKey(resolved.service.origin, resolved.token);
    const running = inFlight.get(key);
    if (running) return running;
    const job = start()
      .catch(() => snapshotError('NETWORK', 'The request failed unexpectedly.'))
      .finally(() => {
        if (inFlight.get(key) === job) inFlight.delete(key);
      });
    inFlight.set(key, job);
    return job;
  }

  return {
    getSnapshot: (request) => load(request, true),
    refresh: (request) => load(request, false),
    async refreshInBackground(request, { reserve }) {
      const resolved = await resolve(request);
      if ('status' in resolved) return resolved;
      return shared(resolved, () => fetchAndStore(resolved, false, budgetWithReserve(reserve)));
    },
    async peek(request) {
      const resolved = await resolve(request);
      if ('status' in resolved) return resolved;
      return readFresh(resolved);
    },
    async wouldFetch(request) {
      const resolved = await resolve(request);
      if ('status' in resolved) return false;
      if (inFlight.has(cacheKey(resolved.service.origin, resolved.token))) return false;
      if ((await readFresh(resolved)) !== null) return false;
      return (await budget.pausedUntil(resolved.service.origin)) === null;
    },
    async listCached() {
      const settings = await deps.getSettings();
      return cacheFor(settings).list();
    },
    async clearCache(area = 'all') {
      const cleared = await Promise.all([
        area === 'local' ? 0 : sessionCache.clear(),
        area === 'session' ? 0 : localCache.clear(),
      ]);
      return cleared[0] + cleared[1];
    },
  };
}
