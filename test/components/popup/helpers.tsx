import { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import type { PageLinksApi, PageScan, TargetTab } from '@/components/page-links/api';
import type { PageLink } from '@/lib/protocol/page-links';
import { DEFAULT_USER_SETTINGS, mergeSettings, type EffectiveSettings } from '@/lib/core/schemas/settings';
import type { PeekResult, SnapshotRequest, SnapshotResult } from '@/lib/core/schemas/results';
import { buildSnapshot, FIXTURE_NOW, fixtureToken } from '../../fixtures/snapshot';

export const SERVICE_ORIGIN = 'http://localhost:8787';

export function pageLink(index: number, kind: 'api' | 'share' = 'share'): PageLink {
  const token = fixtureToken(index);
  return { origin: SERVICE_ORIGIN, token, kind, canonicalKey: `${SERVICE_ORIGIN}|${token}` };
}

/** A ready result for a company (the snapshot fixture, renamed and rescored). */
export function readyResult(company: string, readiness = 68, fundraise = 57, expiresInMs = 7 * 24 * 3600_000): SnapshotResult {
  const snapshot = buildSnapshot({
    company: { name: company },
    scores: { readiness_score: readiness, fundraise_score: fundraise },
    expiresInMs,
  });
  return {
    status: 'ready',
    snapshot,
    meta: { token_status: 'active', view_count: 3 },
    fetchedAt: FIXTURE_NOW - 60_000,
    fromCache: true,
  };
}

export interface FakeApiOptions {
  tab?: TargetTab | null;
  scan?: PageScan | (() => Promise<PageScan>);
  /** Cached results by token (peek answers); others peek as null. */
  cached?: Record<string, PeekResult>;
  /** What a fetch answers, by token. */
  fetched?: Record<string, SnapshotResult>;
  settings?: EffectiveSettings;
}

export type FakeApi = ReturnType<typeof fakeApi>;

export function fakeApi(options: FakeApiOptions = {}) {
  const pageListeners = new Set<(tabId: number) => void>();
  const tabListeners = new Set<Parameters<PageLinksApi['watchTabs']>[0]>();
  const answer = (request: SnapshotRequest): SnapshotResult =>
    options.fetched?.[request.token] ?? { status: 'error', code: 'NOT_FOUND', message: 'unknown token' };
  const api = {
    resolveTargetTab: vi.fn(async (): Promise<TargetTab | null> =>
      options.tab === undefined ? { tabId: 7, url: 'https://crm.example.com/deals', title: 'Deals' } : options.tab,
    ),
    scanPage: vi.fn(async (): Promise<PageScan> => {
      const scan = options.scan ?? { status: 'links', links: [] };
      return typeof scan === 'function' ? scan() : scan;
    }),
    watchPageLinks: vi.fn((onChange: (tabId: number) => void) => {
      pageListeners.add(onChange);
      return () => pageListeners.delete(onChange);
    }),
    watchTabs: vi.fn((onChange: Parameters<PageLinksApi['watchTabs']>[0]) => {
      tabListeners.add(onChange);
      return () => tabListeners.delete(onChange);
    }),
    peekSnapshot: vi.fn(async (request: SnapshotRequest): Promise<PeekResult> => options.cached?.[request.token] ?? null),
    getSnapshot: vi.fn(async (request: SnapshotRequest): Promise<SnapshotResult> => answer(request)),
    refreshSnapshot: vi.fn(async (request: SnapshotRequest): Promise<SnapshotResult> => ({
      ...answer(request),
      fromCache: false,
    })),
    getSettings: vi.fn(async () => options.settings ?? mergeSettings(DEFAULT_USER_SETTINGS, {})),
    injectAnnotator: vi.fn(async (_tabId: number) => undefined),
    requestSiteAccess: vi.fn((_host: string): Promise<boolean> => Promise.resolve(true)),
    enableSite: vi.fn(async (_host: string) => undefined),
    openOptionsPage: vi.fn(async () => undefined),
    emitPageLinksChanged: (tabId: number) => pageListeners.forEach((listener) => listener(tabId)),
    emitTabActivated: () => tabListeners.forEach((listener) => listener({ kind: 'activated' })),
  } satisfies PageLinksApi & Record<string, unknown>;
  return api;
}

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}
