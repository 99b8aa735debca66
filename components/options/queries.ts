import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserSettings } from '@/lib/core/schemas/settings';
import type { OptionsApi } from './api';
import { useOptionsApi } from './context';

/** Query keys go from generic to specific, so `['options']` invalidates the whole page. */
export const optionsKeys = {
  all: ['options'] as const,
  settings: () => [...optionsKeys.all, 'settings'] as const,
  hostAccessAll: () => [...optionsKeys.all, 'host-access'] as const,
  hostAccess: (pattern: string) => [...optionsKeys.hostAccessAll(), pattern] as const,
  cacheCount: () => [...optionsKeys.all, 'cache', 'count'] as const,
  watchSettings: () => [...optionsKeys.all, 'watch-settings'] as const,
};

export const optionsQueries = {
  settings: (api: OptionsApi) => queryOptions({ queryKey: optionsKeys.settings(), queryFn: () => api.loadSettings() }),
  hostAccess: (api: OptionsApi, pattern: string) =>
    queryOptions({ queryKey: optionsKeys.hostAccess(pattern), queryFn: () => api.hasHostAccess(pattern) }),
  cacheCount: (api: OptionsApi) => queryOptions({ queryKey: optionsKeys.cacheCount(), queryFn: () => api.countCached() }),
  watchSettings: (api: OptionsApi) =>
    queryOptions({ queryKey: optionsKeys.watchSettings(), queryFn: () => api.loadWatchSettings() }),
};

/** Saves part of the user's settings and refreshes what depends on them. */
export function useUpdateSettings() {
  const api = useOptionsApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<UserSettings>) => api.updateUserSettings(patch),
    onSettled: () => queryClient.invalidateQueries({ queryKey: optionsKeys.settings() }),
  });
}
