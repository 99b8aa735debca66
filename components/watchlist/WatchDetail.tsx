import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { formatDateTime, formatDayTime, formatPercent } from '@/lib/core/format';
import { describeChange } from '@/lib/core/watchlist/describe';
import { diffPoints } from '@/lib/core/watchlist/diff';
import type { WatchRecord } from '@/lib/core/watchlist/types';
import { useI18n } from '../i18n';
import { focusRing } from '../styles';
import { READINESS_LABEL_KEY, RISK_BAND_KEY } from '../tones';
import type { WatchlistApi } from './api';
import { watchlistQueries } from './queries';
import { Sparkline } from './Sparkline';

/**
 * A watch's details: what changed at the last refresh, and every refresh kept, newest first, with the
 * view count the service reported each time (a founder watching their own link sees its views grow).
 */
export function WatchDetail({
  api,
  watch,
  company,
  now,
}: {
  api: WatchlistApi;
  watch: WatchRecord;
  company: string;
  now: number;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const captionId = useId();
  const history = useQuery(watchlistQueries.history(api, watch.id));
  const changes = watch.latest ? diffPoints(watch.previous, watch.latest) : [];
  const points = [...(history.data?.points ?? [])].reverse();
  const number = new Intl.NumberFormat(locale);

  return (
    <section
      aria-label={t('watchlist.detail.heading', { company })}
      className="mt-1 flex flex-col gap-2 border-t border-slate-200 pt-2 dark:border-slate-800"
    >
      <div>
        <h4 className="text-[11px] font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
          {t('watchlist.detail.changes')}
        </h4>
        {watch.previous === null || changes.length === 0 ? (
          <p className="text-xs text-slate-600 dark:text-slate-300">
            {watch.previous === null ? t('watchlist.change.first') : t('watchlist.detail.noChanges')}
          </p>
        ) : (
          <ul className="list-disc pl-4 text-xs text-slate-700 dark:text-slate-200" data-testid="watch-changes">
            {changes.map((change, index) => (
              <li key={index}>{describeChange(i18n, change, now)}</li>
            ))}
          </ul>
        )}
      </div>
      {watch.series.length > 1 && <Sparkline series={watch.series} width={280} height={56} />}
      {history.isPending ? (
        <p role="status" className="text-xs text-slate-600 dark:text-slate-300">
          {t('watchlist.detail.loading')}
        </p>
      ) : history.isError ? (
        <p role="alert" className="text-xs text-red-800 dark:text-red-300">
          {t('watchlist.loadError', { reason: history.error.message })}
        </p>
      ) : (
        <div
          role="region"
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it scrolls sideways in a narrow panel: focusable, so the keyboard can scroll it (axe scrollable-region-focusable)
          tabIndex={0}
          aria-label={t('watchlist.detail.caption')}
          className={`overflow-x-auto rounded-md border border-slate-200 dark:border-slate-800 ${focusRing}`}
        >
          <table className="w-full border-collapse text-[11px]" aria-describedby={captionId} data-testid="watch-history">
            <caption className="sr-only">{t('watchlist.detail.caption')}</caption>
            <thead className="bg-slate-50 text-left text-slate-700 dark:bg-slate-900 dark:text-slate-200">
              <tr>
                {(['when', 'readiness', 'band', 'checklist', 'views'] as const).map((column) => (
                  <th key={column} scope="col" className="px-1 py-1 align-bottom font-semibold">
                    {t(`watchlist.detail.${column}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="text-slate-700 dark:text-slate-300">
              {points.map((point) => (
                <tr key={point.at} className="border-t border-slate-100 dark:border-slate-800/70">
                  <th scope="row" className="px-1 py-1 text-left font-normal whitespace-nowrap">
                    <time dateTime={new Date(point.at).toISOString()} title={formatDateTime(point.at, locale)}>
                      {formatDayTime(point.at, locale)}
                    </time>
                    <span className="block text-slate-500 dark:text-slate-400">
                      {t(`watchlist.detail.source.${point.source}`)}
                    </span>
                  </th>
                  <td className="px-1 py-1">
                    <span className="font-semibold tabular-nums">{point.readinessScore}</span>
                    <span className="block text-slate-500 dark:text-slate-400">
                      {t(READINESS_LABEL_KEY[point.readinessLabel])}
                    </span>
                  </td>
                  <td className="px-1 py-1">
                    {t(RISK_BAND_KEY[point.riskBand])}
                    <span className="block whitespace-nowrap text-slate-500 tabular-nums dark:text-slate-400">
                      {t('watchlist.detail.fundraiseShort', { score: point.fundraiseScore })}
                    </span>
                  </td>
                  <td className="px-1 py-1 whitespace-nowrap tabular-nums">
                    {formatPercent(point.checklistPct, locale)}
                    <span className="block text-slate-500 dark:text-slate-400">
                      {t('watchlist.detail.gapsShort', { count: point.gaps.length })}
                    </span>
                  </td>
                  <td className="px-1 py-1 tabular-nums" data-testid="watch-history-views">
                    {number.format(point.viewCount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p id={captionId} className="text-[11px] text-slate-500 dark:text-slate-400">
        {t('watchlist.detail.viewsHint')}
      </p>
    </section>
  );
}
