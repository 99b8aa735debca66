import { queryOptions, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PageLink } from '@/lib/protocol/page-links';
import { canonicalKeyOf } from '@/lib/core/links/templates';
import { serviceAt, type ServiceConfig } from '@/lib/core/services';
import { messageOf } from '@/lib/core/thrown';
import { snapshotError, type PeekResult, type SnapshotRequest, type SnapshotResult } from '@/lib/core/schemas/results';
import type { PageLinksApi, TargetTab } from './api';
import { usePageLinksApi } from './context';
import { toRow, type LinkRow } from './rows';

/** Query keys go from generic to specific, so `['page-links']` invalidates everything here. */
export const pageLinksKeys = {
  all: ['page-links'] as const,
  target: () => [...pageLinksKeys.all, 'target'] as const,
  scan: (tabId: number) => [...pageLinksKeys.all, 'scan', tabId] as const,
  settings: () => [...pageLinksKeys.all, 'settings'] as const,
  snapshots: () => [...pageLinksKeys.all, 'snapshot'] as const,
  snapshot: (request: SnapshotRequest) => [...pageLinksKeys.snapshots(), request.origin, request.token] as const,
};

export const pageLinksQueries = {
  target: (api: PageLinksApi) => queryOptions({ queryKey: pageLinksKeys.target(), queryFn: () => api.resolveTargetTab() }),
  scan: (api: PageLinksApi, tab: TargetTab) =>
    queryOptions({ queryKey: pageLinksKeys.scan(tab.tabId), queryFn: () => api.scanPage(tab) }),
  settings: (api: PageLinksApi) => queryOptions({ queryKey: pageLinksKeys.settings(), queryFn: () => api.getSettings() }),
  /**
   * A link's snapshot as far as the cache knows (a peek: free). Loading and refreshing write their
   * results here, so every view of the link shows the newest.
   */
  snapshot: (api: PageLinksApi, request: SnapshotRequest) =>
    queryOptions<PeekResult>({
      queryKey: pageLinksKeys.snapshot(request),
      queryFn: () => api.peekSnapshot(request),
      staleTime: Infinity,
    }),
};

const requestOf = (link: PageLink): SnapshotRequest => ({ origin: link.origin, token: link.token });

/**
 * Fetches snapshots on an explicit action (each may count a view) and stores each result where the
 * rows read it. `loading` holds the canonical keys still on their way.
 */
export function useSnapshotLoader() {
  const api = usePageLinksApi();
  const queryClient = useQueryClient();
  const [loading, setLoading] = useState<ReadonlySet<string>>(() => new Set());

  const load = useCallback(
    (links: readonly PageLink[], mode: 'get' | 'refresh' = 'get') => {
      if (links.length === 0) return;
      setLoading((previous) => new Set([...previous, ...links.map((link) => link.canonicalKey)]));
      for (const link of links) {
        const request = requestOf(link);
        const call = mode === 'refresh' ? api.refreshSnapshot(request) : api.getSnapshot(request);
        void call
          .catch((error: unknown): SnapshotResult => snapshotError('NETWORK', messageOf(error)))
          .then((result) => {
            queryClient.setQueryData(pageLinksKeys.snapshot(request), result);
            setLoading((previous) => {
              const next = new Set(previous);
              next.delete(link.canonicalKey);
              return next;
            });
          });
      }
    },
    [api, queryClient],
  );
  return { loading, load };
}

/**
 * The page's links, each once, named by its service's own origin: a token written on an alias of it
 * (`localhost` for `127.0.0.1`) is the same link (issue #33 item 14). In the page's order.
 */
export function oneRowPerLink(links: readonly PageLink[], services: readonly ServiceConfig[]): PageLink[] {
  const seen = new Set<string>();
  return links.flatMap((link) => {
    const origin = serviceAt(services, link.origin)?.origin ?? link.origin;
    const canonicalKey = canonicalKeyOf(origin, link.token);
    if (seen.has(canonicalKey)) return [];
    seen.add(canonicalKey);
    return [{ ...link, origin, canonicalKey }];
  });
}

/** The tab, what it offers, and one row per link (snapshot from the cache, or loading). */
export function usePageLinkRows() {
  const api = usePageLinksApi();
  const queryClient = useQueryClient();
  const target = useQuery(pageLinksQueries.target(api));
  const tab = target.data ?? null;
  const scan = useQuery({ ...pageLinksQueries.scan(api, tab ?? { tabId: -1 }), enabled: tab !== null });
  const settings = useQuery(pageLinksQueries.settings(api));
  const links = useMemo(
    () => (scan.data?.status === 'links' ? oneRowPerLink(scan.data.links, settings.data?.services ?? []) : []),
    [scan.data, settings.data],
  );
  const snapshots = useQueries({ queries: links.map((link) => pageLinksQueries.snapshot(api, requestOf(link))) });
  const loader = useSnapshotLoader();

  const rows: LinkRow[] = useMemo(
    () =>
      links.map((link, index) => {
        const query = snapshots[index];
        return toRow(link, query?.isError ? null : query?.data, loader.loading.has(link.canonicalKey));
      }),
    [links, snapshots, loader.loading],
  );

  // The content script reports a changed list: ask again (only for the tab shown).
  useEffect(
    () =>
      api.watchPageLinks((tabId) => {
        if (tabId === tab?.tabId) void queryClient.invalidateQueries({ queryKey: pageLinksKeys.scan(tabId) });
      }),
    [api, queryClient, tab?.tabId],
  );

  return { target, tab, scan, rows, loader };
}

/** The side panel follows the browser: another tab, or the same tab after it loaded a page. */
export function useFollowTabs() {
  const api = usePageLinksApi();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      api.watchTabs((event) => {
        if (event.kind === 'activated') void queryClient.invalidateQueries({ queryKey: pageLinksKeys.target() });
        else {
          void queryClient.invalidateQueries({ queryKey: pageLinksKeys.target() });
          void queryClient.invalidateQueries({ queryKey: pageLinksKeys.scan(event.tabId) });
        }
      }),
    [api, queryClient],
  );
}
