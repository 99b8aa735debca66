import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { formatDateTime, formatDayTime, formatPercent } from '@/lib/core/format';
import { SERVICE_TEXT_LANGUAGE } from '@/lib/core/display-text';
import { describeChange, gapTitle } from '@/lib/core/watchlist/describe';
import { diffPoints } from '@/lib/core/watchlist/diff';
import type { WatchChange, WatchRecord } from '@/lib/core/watchlist/types';
import { readinessLabelName, riskBandName } from '@/lib/core/vocabulary';
import { useI18n } from '../i18n';
import { destructiveButtonClass, focusRing, secondaryButtonClass } from '../styles';
import type { WatchlistApi } from './api';
import { HistoryChart } from './HistoryChart';
import { SaveCopyButton } from '../SignatureLine';
import { useWatchlistActions, watchlistQueries } from './queries';

/**
 * A watch's details: what changed at the last refresh, the readiness over time, every refresh kept,
 * newest first, with the view count the service reported each time (a founder watching their own link
 * sees its views grow), and the watch's other actions.
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
              <li key={index}>
                <ChangeLine text={describeChange(i18n, change, now)} change={change} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {watch.series.length > 1 && <HistoryChart series={watch.series} />}
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
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it may scroll sideways in a narrow panel: focusable, so the keyboard can scroll it (axe scrollable-region-focusable)
          tabIndex={0}
          aria-label={t('watchlist.detail.caption')}
          className={`@container overflow-x-auto rounded-md border border-slate-200 dark:border-slate-800 ${focusRing}`}
        >
          <table className="w-full border-collapse text-[11px]" aria-describedby={captionId} data-testid="watch-history">
            <caption className="sr-only">{t('watchlist.detail.caption')}</caption>
            <thead className="bg-slate-50 text-left text-slate-700 dark:bg-slate-900 dark:text-slate-200">
              <tr>
                <th scope="col" className="px-1.5 py-1 align-bottom font-semibold">
                  {t('watchlist.detail.when')}
                </th>
                <th scope="col" className="px-1.5 py-1 align-bottom font-semibold">
                  {t('vocab.readinessHeading')}
                </th>
                <th scope="col" className="px-1.5 py-1 align-bottom font-semibold">
                  {t('vocab.riskHeading')}
                </th>
                {/* In a narrow panel the checklist column goes: the row still fits without scrolling. */}
                <th scope="col" className="hidden px-1.5 py-1 align-bottom font-semibold @md:table-cell">
                  {t('watchlist.detail.checklist')}
                </th>
                <th scope="col" className="px-1.5 py-1 align-bottom font-semibold">
                  {t('watchlist.detail.views')}
                </th>
              </tr>
            </thead>
            <tbody className="text-slate-700 dark:text-slate-300">
              {points.map((point) => (
                <tr key={point.at} className="border-t border-slate-100 dark:border-slate-800/70">
                  <th scope="row" className="px-1.5 py-1 text-left font-normal whitespace-nowrap">
                    <time dateTime={new Date(point.at).toISOString()} title={formatDateTime(point.at, locale)}>
                      {formatDayTime(point.at, locale)}
                    </time>
                    <span className="block text-slate-600 dark:text-slate-400">
                      {t(`watchlist.detail.source.${point.source}`)}
                    </span>
                    {point.signature && (
                      <span
                        data-testid="watch-history-signature"
                        data-state={point.signature.state}
                        className={`block ${point.signature.state === 'invalid' ? 'font-semibold text-red-800 dark:text-red-300' : 'text-slate-600 dark:text-slate-400'}`}
                      >
                        {t(`snapshot.signatureState.${point.signature.state}`)}
                      </span>
                    )}
                  </th>
                  <td className="px-1.5 py-1">
                    <span className="font-semibold tabular-nums">{point.readinessScore}/100</span>
                    <span className="block text-slate-600 dark:text-slate-400">
                      {readinessLabelName(i18n, point.readinessLabel)}
                    </span>
                  </td>
                  <td className="px-1.5 py-1">
                    {riskBandName(i18n, point.riskBand)}
                    <span className="block whitespace-nowrap text-slate-500 tabular-nums dark:text-slate-400">
                      {t('watchlist.detail.fundraiseShort', { score: point.fundraiseScore })}
                    </span>
                  </td>
                  <td className="hidden px-1.5 py-1 whitespace-nowrap tabular-nums @md:table-cell">
                    {formatPercent(point.checklistPct, locale)}
                    <span className="block text-slate-600 dark:text-slate-400">
                      {t('watchlist.detail.gapsShort', { count: point.gaps.length })}
                    </span>
                  </td>
                  <td className="px-1.5 py-1 tabular-nums" data-testid="watch-history-views">
                    {number.format(point.viewCount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p id={captionId} className="text-[11px] text-slate-600 dark:text-slate-400">
        {t('watchlist.detail.viewsHint')}
      </p>
      <WatchActions api={api} watch={watch} company={company} />
    </section>
  );
}

/** Refresh (its cost said on it), Mute, and Stop watching with a destructive confirmation. */
function WatchActions({ api, watch, company }: { api: WatchlistApi; watch: WatchRecord; company: string }) {
  const { t } = useI18n();
  const actions = useWatchlistActions(api);
  const [confirming, setConfirming] = useState(false);
  const failure = actions.refresh.error ?? actions.setMuted.error ?? actions.unwatch.error;
  return (
    <div role="group" aria-label={t('watchlist.detail.actions', { company })} className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center gap-1.5">
        {watch.status === 'active' && (
          <button
            type="button"
            className={`text-xs ${secondaryButtonClass}`}
            disabled={actions.refresh.isPending}
            aria-label={t('watchlist.action.refreshFor', { company })}
            onClick={() => actions.refresh.mutate(watch.id)}
          >
            {actions.refresh.isPending ? t('watchlist.refreshing') : t('watchlist.action.refresh')}
          </button>
        )}
        <button
          type="button"
          className={`text-xs ${secondaryButtonClass}`}
          aria-pressed={watch.muted}
          aria-label={t(watch.muted ? 'watchlist.action.unmuteFor' : 'watchlist.action.muteFor', { company })}
          onClick={() => actions.setMuted.mutate({ id: watch.id, muted: !watch.muted })}
        >
          {t(watch.muted ? 'watchlist.action.unmute' : 'watchlist.action.mute')}
        </button>
        {watch.copy && (
          <SaveCopyButton
            copy={watch.copy}
            company={company}
            className={`text-xs ${secondaryButtonClass}`}
            ariaLabel={t('watchlist.action.saveCopyFor', { company })}
          />
        )}
        {!confirming && (
          <button
            type="button"
            className={`text-xs ${secondaryButtonClass}`}
            aria-label={t('watchlist.action.unwatchFor', { company })}
            onClick={() => setConfirming(true)}
          >
            {t('watchlist.action.unwatch')}
          </button>
        )}
      </div>
      {confirming && (
        <div
          role="group"
          aria-label={t('watchlist.action.unwatchQuestion', { company })}
          className="flex flex-wrap items-center gap-1.5 rounded-md border border-tone-red-border bg-tone-red-bg p-2"
        >
          <span className="text-xs font-medium text-tone-red-fg">{t('watchlist.action.unwatchQuestion', { company })}</span>
          <button
            type="button"
            className={`text-xs ${destructiveButtonClass}`}
            aria-label={t('watchlist.action.confirmUnwatchFor', { company })}
            onClick={() => actions.unwatch.mutate(watch.id)}
          >
            {t('watchlist.action.confirmUnwatch')}
          </button>
          <button type="button" className={`text-xs ${secondaryButtonClass}`} onClick={() => setConfirming(false)}>
            {t('watchlist.cancel')}
          </button>
        </div>
      )}
      <p role="alert" className="text-xs font-medium text-red-800 empty:hidden dark:text-red-300">
        {failure ? t('watchlist.action.failed', { reason: failure.message }) : null}
      </p>
    </div>
  );
}

/**
 * One change said in the reader's language; a gap's title inside it is the founder's words, marked
 * with their language (issue #27 item 8), so a French sentence does not read an English title as French.
 */
function ChangeLine({ text, change }: { text: string; change: WatchChange }) {
  const { language } = useI18n();
  const title = 'title' in change ? gapTitle(change.title) : null;
  const at = title === null || language === SERVICE_TEXT_LANGUAGE ? -1 : text.indexOf(title);
  if (title === null || at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <span lang={SERVICE_TEXT_LANGUAGE}>{title}</span>
      {text.slice(at + title.length)}
    </>
  );
}
