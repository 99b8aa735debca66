import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { WATCHLIST_LIMITS } from '@/lib/core/limits';
import { messageOf } from '@/lib/core/thrown';
import { describeCadence } from '@/lib/core/watchlist/describe';
import { useI18n } from '../i18n';
import { dangerButtonClass, destructiveButtonClass, focusRing, secondaryButtonClass } from '../styles';
import type { WatchlistApi } from './api';
import { NOTICE_TONE, refreshReport, WatchDisclaimers, WatchlistHeader, WatchlistPlaceholder } from './parts';
import { useLiveWatchlist, useWatchlistActions, watchlistQueries } from './queries';
import { refreshableCount, sortWatches, WATCH_SORT_KEYS, type WatchSort } from './rows';
import { watchlistFileName, watchlistToCsv, watchlistToJson } from './export';
import { WatchRow } from './WatchRow';

type Notice = { tone: keyof typeof NOTICE_TONE; text: string } | null;

/**
 * The side panel's watchlist: every watched company, sortable, with "Refresh all now" (its cost in
 * views stated on the button), export (CSV and JSON, no tokens) and delete-all. `focusId` is the
 * company a notification asked for.
 */
export function WatchlistView({
  api,
  now,
  saveFile,
  focusId,
}: {
  api: WatchlistApi;
  now: number;
  saveFile: (fileName: string, text: string) => void;
  focusId: string | null;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const sortId = useId();
  useLiveWatchlist(api);
  const list = useQuery(watchlistQueries.list(api));
  const actions = useWatchlistActions(api);
  const [sort, setSort] = useState<WatchSort>({ key: 'company', descending: false });
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(focusId ? [focusId] : []));
  const [confirmClear, setConfirmClear] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const watches = useMemo(() => sortWatches(list.data?.watches ?? [], sort, locale), [list.data, sort, locale]);
  const toRefresh = refreshableCount(watches);

  if (!list.isSuccess || list.data.watches.length === 0) return <WatchlistPlaceholder list={list} />;
  const cadence = describeCadence(i18n, list.data.settings);

  async function exportAs(kind: 'csv' | 'json') {
    setNotice(null);
    try {
      const { watches: all } = await api.exportAll();
      const ordered = watches.flatMap((watch) => all.filter((entry) => entry.watch.id === watch.id));
      saveFile(
        watchlistFileName(i18n, now, kind),
        kind === 'csv' ? watchlistToCsv(i18n, ordered) : watchlistToJson(ordered, now),
      );
      setNotice({ tone: 'success', text: t('watchlist.exported') });
    } catch (error) {
      setNotice({
        tone: 'error',
        text: t('watchlist.action.failed', { reason: messageOf(error) }),
      });
    }
  }

  function refreshAll() {
    setNotice(null);
    actions.refreshAll.mutate(undefined, {
      onSuccess: (report) => setNotice(refreshReport(i18n, report)),
      onError: (error) => setNotice({ tone: 'error', text: t('watchlist.action.failed', { reason: error.message }) }),
    });
  }

  function clearAll() {
    setConfirmClear(false);
    actions.clear.mutate(undefined, {
      onSuccess: ({ removed }) => setNotice({ tone: 'success', text: t('watchlist.deleted', { count: removed }) }),
      onError: (error) => setNotice({ tone: 'error', text: t('watchlist.action.failed', { reason: error.message }) }),
    });
  }

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div className="flex flex-col gap-3" data-testid="watchlist">
      <WatchlistHeader
        count={watches.length}
        cadence={cadence}
        toRefresh={toRefresh}
        pending={actions.refreshAll.isPending}
        onRefreshAll={refreshAll}
      />
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          data-testid="watch-export-csv"
          className={secondaryButtonClass}
          title={t('watchlist.exportTitle')}
          onClick={() => void exportAs('csv')}
        >
          {t('watchlist.exportCsv')}
        </button>
        <button
          type="button"
          data-testid="watch-export-json"
          className={secondaryButtonClass}
          title={t('watchlist.exportTitle')}
          onClick={() => void exportAs('json')}
        >
          {t('watchlist.exportJson')}
        </button>
        {!confirmClear && (
          <button type="button" className={`${dangerButtonClass} ml-auto`} onClick={() => setConfirmClear(true)}>
            {t('watchlist.deleteAll')}
          </button>
        )}
      </div>
      {confirmClear && (
        <div
          className="flex flex-col gap-2 rounded-lg border border-tone-red-border bg-tone-red-bg p-3"
          role="group"
          aria-label={t('watchlist.deleteAll.question')}
        >
          <p className="text-sm font-medium text-tone-red-fg">{t('watchlist.deleteAll.question')}</p>
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" className={destructiveButtonClass} onClick={clearAll}>
              {t('watchlist.deleteAll.confirm')}
            </button>
            <button type="button" className={secondaryButtonClass} onClick={() => setConfirmClear(false)}>
              {t('watchlist.cancel')}
            </button>
          </div>
        </div>
      )}
      <div role="status" aria-live="polite" className="empty:hidden">
        {notice && <p className={`text-xs font-medium ${NOTICE_TONE[notice.tone]}`}>{notice.text}</p>}
      </div>
      <div className="flex items-center gap-2 text-xs">
        <label htmlFor={sortId} className="text-slate-600 dark:text-slate-300">
          {t('watchlist.sort.label')}
        </label>
        <select
          id={sortId}
          value={sort.key}
          data-testid="watch-sort"
          onChange={(event) => {
            const key = WATCH_SORT_KEYS.find((candidate) => candidate === event.target.value);
            if (key) setSort((current) => ({ ...current, key }));
          }}
          className={`rounded-md border border-slate-300 bg-white px-1.5 py-1 text-xs text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 ${focusRing}`}
        >
          {WATCH_SORT_KEYS.map((key) => (
            <option key={key} value={key}>
              {t(`watchlist.sort.${key}`)}
            </option>
          ))}
        </select>
        <button
          type="button"
          aria-pressed={sort.descending}
          data-testid="watch-sort-direction"
          className={`rounded-md border border-slate-300 px-1.5 py-1 text-xs font-medium text-slate-700 dark:border-slate-600 dark:text-slate-200 ${focusRing}`}
          onClick={() => setSort((current) => ({ ...current, descending: !current.descending }))}
        >
          <span aria-hidden="true">{sort.descending ? '↓' : '↑'}</span>{' '}
          {t(sort.descending ? 'watchlist.sort.descending' : 'watchlist.sort.ascending')}
        </button>
      </div>
      <ul aria-label={t('watchlist.heading')} className="flex flex-col gap-2" data-testid="watch-rows">
        {watches.map((watch) => (
          <WatchRow
            key={watch.id}
            api={api}
            watch={watch}
            now={now}
            expanded={expanded.has(watch.id)}
            onToggleDetails={() => toggle(watch.id)}
            focused={watch.id === focusId}
          />
        ))}
      </ul>
      {list.data.unreadable > 0 && (
        <p className="text-xs text-amber-800 dark:text-amber-300">{t('watchlist.unreadable', { count: list.data.unreadable })}</p>
      )}
      <p className="text-[11px] text-slate-500 dark:text-slate-400">
        {t('watchlist.options.storage', { points: WATCHLIST_LIMITS.maxPointsPerWatch, watches: WATCHLIST_LIMITS.maxWatches })}
      </p>
      <WatchDisclaimers watches={watches} />
    </div>
  );
}
