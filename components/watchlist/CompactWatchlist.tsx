import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { messageOf } from '@/lib/core/thrown';
import { describeCadence } from '@/lib/core/watchlist/describe';
import { askWithinGesture } from '../gesture';
import { useI18n } from '../i18n';
import { rowNameProps } from '../row-name';
import { focusRing, linkButtonClass } from '../styles';
import type { WatchlistApi } from './api';
import { useWatchlistApi } from './context';
import { sinceText } from '@/lib/core/vocabulary';
import { errorTitleKey } from '../SnapshotError';
import {
  BandBadge,
  ChangeValue,
  NOTICE_TONE,
  refreshReport,
  ScorePill,
  WatchDisclaimers,
  WatchlistHeader,
  WatchlistPlaceholder,
} from './parts';
import { useLiveWatchlist, useWatchlistActions, watchlistQueries } from './queries';
import { changeOf, refreshableCount, sortWatches } from './rows';
import { Sparkline } from './Sparkline';

/**
 * The popup's watchlist: one line per company (same test ids as the side panel's rows), "Refresh all
 * now" with its cost, and the way to the side panel for details and the other actions.
 */
export function CompactWatchlist({ now }: { now: number }) {
  const api = useWatchlistApi();
  return api ? <Compact api={api} now={now} /> : null;
}

function Compact({ api, now }: { api: WatchlistApi; now: number }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  useLiveWatchlist(api);
  const list = useQuery(watchlistQueries.list(api));
  const { refreshAll } = useWatchlistActions(api);
  const [failure, setFailure] = useState<string | null>(null);

  if (!list.isSuccess || list.data.watches.length === 0) return <WatchlistPlaceholder list={list} />;
  const cadence = describeCadence(i18n, list.data.settings);
  const watches = sortWatches(list.data.watches, { key: 'company', descending: false }, locale);
  const toRefresh = refreshableCount(watches);
  const report = refreshAll.data ? refreshReport(i18n, refreshAll.data) : null;
  const openPanel = (watchId: string | null) => {
    setFailure(null);
    askWithinGesture(() => api.openSidePanel(watchId)).catch((error: unknown) =>
      setFailure(t('watchlist.action.failed', { reason: messageOf(error) })),
    );
  };

  return (
    <div className="flex flex-col gap-3" data-testid="watchlist">
      <WatchlistHeader
        count={watches.length}
        cadence={cadence}
        toRefresh={toRefresh}
        pending={refreshAll.isPending}
        onRefreshAll={() => refreshAll.mutate()}
      >
        {report && (
          <p role="status" className={`text-xs font-medium ${NOTICE_TONE[report.tone]}`}>
            {report.text}
          </p>
        )}
      </WatchlistHeader>
      <ul aria-label={t('watchlist.heading')} className="flex flex-col gap-1.5" data-testid="watch-rows">
        {watches.map((watch) => {
          const name = rowNameProps(watch.company ?? new URL(watch.origin).host);
          const company = name.children;
          const ended = watch.end !== null;
          return (
            <li key={watch.id} data-testid="watch-row" data-watch-id={watch.id} data-status={watch.status}>
              <button
                type="button"
                onClick={() => openPanel(watch.id)}
                aria-label={t('watchlist.action.detailsFor', { company })}
                className={`grid w-full grid-cols-[minmax(0,1fr)_auto] items-start gap-x-2 gap-y-1 rounded-lg border border-slate-200 px-2.5 py-2 text-left hover:border-slate-400 dark:border-slate-800 dark:hover:border-slate-600 ${
                  ended ? 'bg-slate-50 dark:bg-slate-900/60' : 'bg-white dark:bg-slate-900'
                } ${focusRing}`}
              >
                <span
                  data-testid="company-name"
                  className="text-sm font-semibold break-words text-slate-900 dark:text-white"
                  title={name.title}
                >
                  {company}
                </span>
                {/* One size and place for every row's trend, so rows compare at a glance. */}
                <span className="flex h-7 w-16 items-center justify-end">
                  {watch.latest && <Sparkline series={watch.series} width={64} height={24} muted={ended} />}
                </span>
                {watch.latest ? (
                  <span className="col-span-2 flex flex-wrap items-center gap-1.5">
                    <ScorePill point={watch.latest} ended={ended} />
                    <BandBadge point={watch.latest} ended={ended} />
                  </span>
                ) : (
                  <span className="col-span-2 text-[11px] text-slate-600 dark:text-slate-400">{t('watchlist.noFigures')}</span>
                )}
                <span className="col-span-2 text-[11px] text-slate-600 dark:text-slate-400">
                  {watch.end ? (
                    <span className="font-medium text-slate-700 dark:text-slate-300">
                      {t(`watchlist.status.ended.${watch.end.code}`, { when: sinceText(i18n, watch.end.at, now) })}
                    </span>
                  ) : watch.lastError ? (
                    <span className="font-medium text-amber-800 dark:text-amber-300">
                      {t('watchlist.status.failed', { reason: t(errorTitleKey(watch.lastError.code, watch.pointCount > 0)) })}
                    </span>
                  ) : (
                    watch.latest && <ChangeValue change={changeOf(watch)} />
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <button type="button" className={`self-start text-xs ${linkButtonClass}`} onClick={() => openPanel(null)}>
        {t('watchlist.action.openPanel')}
      </button>
      <p role="alert" className="text-xs font-medium text-red-800 empty:hidden dark:text-red-300">
        {failure}
      </p>
      <WatchDisclaimers watches={watches} />
    </div>
  );
}
