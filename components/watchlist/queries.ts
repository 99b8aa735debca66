import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { SnapshotRequest } from '@/lib/core/schemas/results';
import type { WatchlistApi } from './api';

/** Query keys go from generic to specific: `['watchlist']` refreshes everything shown of the watchlist. */
export const watchlistKeys = {
  all: ['watchlist'] as const,
  list: () => [...watchlistKeys.all, 'list'] as const,
  link: (request: SnapshotRequest) => [...watchlistKeys.all, 'link', request.origin, request.token] as const,
  history: (id: string) => [...watchlistKeys.all, 'history', id] as const,
};

export const watchlistQueries = {
  list: (api: WatchlistApi) => queryOptions({ queryKey: watchlistKeys.list(), queryFn: () => api.list() }),
  link: (api: WatchlistApi, request: SnapshotRequest) =>
    queryOptions({ queryKey: watchlistKeys.link(request), queryFn: () => api.getWatch(request) }),
  history: (api: WatchlistApi, id: string) =>
    queryOptions({ queryKey: watchlistKeys.history(id), queryFn: () => api.history(id) }),
};

/** Reads the watchlist again whenever the background (or another page) changed it. */
export function useLiveWatchlist(api: WatchlistApi | null): void {
  const queryClient = useQueryClient();
  useEffect(
    () => api?.watchChanges(() => void queryClient.invalidateQueries({ queryKey: watchlistKeys.all })),
    [api, queryClient],
  );
}

/** The actions on the watchlist; each reads the watchlist again when it is done, success or not. */
export function useWatchlistActions(api: WatchlistApi) {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: watchlistKeys.all });
  return {
    watch: useMutation({ mutationFn: (request: SnapshotRequest) => api.watch(request), onSettled }),
    unwatch: useMutation({ mutationFn: (id: string) => api.unwatch(id), onSettled }),
    refresh: useMutation({ mutationFn: (id: string) => api.refresh(id), onSettled }),
    refreshAll: useMutation({ mutationFn: () => api.refreshAll(), onSettled }),
    setMuted: useMutation({ mutationFn: ({ id, muted }: { id: string; muted: boolean }) => api.setMuted(id, muted), onSettled }),
    clear: useMutation({ mutationFn: () => api.clear(), onSettled }),
  };
}

/** A failure's reason for a sentence; the watchlist's own "full" error gets its translated text. */
export function isWatchlistFull(error: unknown): boolean {
  return error instanceof Error && error.name === 'WatchlistFullError';
}
