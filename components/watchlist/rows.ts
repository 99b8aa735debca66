import { changeSincePrevious, changeSinceWeekBefore } from '@/lib/core/watchlist/diff';
import type { WatchRecord } from '@/lib/core/watchlist/types';

/** Sorting and derived values of watchlist rows: framework-free, so they are testable on their own. */

export const WATCH_SORT_KEYS = ['company', 'readiness', 'change', 'refreshed'] as const;
export type WatchSortKey = (typeof WATCH_SORT_KEYS)[number];
export interface WatchSort {
  key: WatchSortKey;
  descending: boolean;
}

export const changeOf = (watch: WatchRecord) => changeSincePrevious(watch.previous, watch.latest);
export const weekChangeOf = (watch: WatchRecord) => changeSinceWeekBefore(watch.series);

function valueOf(watch: WatchRecord, key: WatchSortKey): string | number | null {
  switch (key) {
    case 'company':
      return watch.company;
    case 'readiness':
      return watch.latest?.readinessScore ?? null;
    case 'change':
      return changeOf(watch);
    case 'refreshed':
      return watch.lastRefreshAt;
  }
}

/** Sorted copy. Watches without the value always go last, whatever the direction; ties keep the given order. */
export function sortWatches(watches: readonly WatchRecord[], sort: WatchSort, locale: string): WatchRecord[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const sign = sort.descending ? -1 : 1;
  return watches
    .map((watch, index) => ({ watch, index, value: valueOf(watch, sort.key) }))
    .sort((a, b) => {
      if ((a.value === null) !== (b.value === null)) return a.value === null ? 1 : -1;
      if (a.value === null || b.value === null) return a.index - b.index;
      const order =
        typeof a.value === 'string' && typeof b.value === 'string'
          ? collator.compare(a.value, b.value)
          : Number(a.value) - Number(b.value);
      return sign * order || a.index - b.index;
    })
    .map(({ watch }) => watch);
}

/** The watches a "Refresh all now" refreshes (and so the views it costs). */
export function refreshableCount(watches: readonly WatchRecord[]): number {
  return watches.filter((watch) => watch.status === 'active').length;
}

/** The latest snapshots' disclaimers, each once, in full (shown with the figures). */
export function watchDisclaimers(watches: readonly WatchRecord[]): string[] {
  return [...new Set(watches.flatMap((watch) => (watch.disclaimer ? [watch.disclaimer] : [])))];
}
