import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { formatDateTime, formatRelative } from '@/lib/core/format';
import { formatDelta } from '@/lib/core/watchlist/diff';
import type { WatchRecord } from '@/lib/core/watchlist/types';
import { useI18n } from '../i18n';
import { rowNameProps } from '../row-name';
import { ERROR_TEXT } from '../SnapshotError';
import type { WatchlistApi } from './api';
import { BandBadge, ChangeValue, ScorePill, smallButtonClass } from './parts';
import { useWatchlistActions } from './queries';
import { changeOf, weekChangeOf } from './rows';
import { Sparkline } from './Sparkline';
import { WatchDetail } from './WatchDetail';

/** One watched company in the side panel: figures, changes, trend, state, and its actions. */
export function WatchRow({
  api,
  watch,
  now,
  expanded,
  onToggleDetails,
  focused,
}: {
  api: WatchlistApi;
  watch: WatchRecord;
  now: number;
  expanded: boolean;
  onToggleDetails: () => void;
  /** A notification asked for this company: bring it into view and put focus on it. */
  focused: boolean;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const nameId = useId();
  const detailId = useId();
  const ref = useRef<HTMLElement>(null);
  const actions = useWatchlistActions(api);
  const [confirming, setConfirming] = useState(false);
  const name = rowNameProps(watch.company ?? new URL(watch.origin).host);
  const company = name.children;
  const latest = watch.latest;
  const week = weekChangeOf(watch);
  const failure = actions.refresh.error ?? actions.setMuted.error ?? actions.unwatch.error;

  useEffect(() => {
    if (!focused) return;
    ref.current?.scrollIntoView({ block: 'nearest' });
    ref.current?.focus();
  }, [focused]);

  return (
    <li data-testid="watch-row" data-watch-id={watch.id} data-status={watch.status}>
      <article
        ref={ref}
        tabIndex={-1}
        aria-labelledby={nameId}
        className={`flex flex-col gap-1.5 rounded-lg border p-2.5 outline-none focus-visible:ring-2 focus-visible:ring-sky-600 ${
          focused ? 'border-sky-500 dark:border-sky-400' : 'border-slate-200 dark:border-slate-800'
        } ${watch.status === 'ended' ? 'bg-slate-50 dark:bg-slate-900/60' : 'bg-white dark:bg-slate-950'}`}
      >
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h3
              id={nameId}
              data-testid="company-name"
              className="text-sm font-semibold break-words text-slate-900 dark:text-white"
              title={name.title}
            >
              {company}
            </h3>
            <RowStatus watch={watch} now={now} />
          </div>
          {latest ? (
            <ScorePill point={latest} />
          ) : (
            <span className="text-xs text-slate-500 dark:text-slate-400">{t('watchlist.noFigures')}</span>
          )}
        </div>
        {latest && (
          <div className="flex flex-wrap items-center gap-x-2.5 gap-y-1">
            <BandBadge point={latest} />
            <ChangeValue change={changeOf(watch)} />
            <span className="text-[11px] text-slate-600 dark:text-slate-400">
              {week === null ? t('watchlist.change.weekNone') : t('watchlist.change.week', { delta: formatDelta(week) })}
            </span>
            <span className="ml-auto">
              <Sparkline series={watch.series} />
            </span>
          </div>
        )}
        <div className="flex flex-wrap items-center gap-1.5">
          <button
            type="button"
            className={smallButtonClass}
            aria-expanded={expanded}
            aria-controls={detailId}
            onClick={onToggleDetails}
            aria-label={expanded ? t('watchlist.action.hideDetails') : t('watchlist.action.detailsFor', { company })}
          >
            {expanded ? t('watchlist.action.hideDetails') : t('watchlist.action.details')}
          </button>
          <button
            type="button"
            className={smallButtonClass}
            disabled={watch.status === 'ended' || actions.refresh.isPending}
            aria-label={t('watchlist.action.refreshFor', { company })}
            title={t('watchlist.action.refreshFor', { company })}
            onClick={() => actions.refresh.mutate(watch.id)}
          >
            {actions.refresh.isPending ? t('watchlist.refreshing') : t('watchlist.action.refresh')}
          </button>
          <button
            type="button"
            className={smallButtonClass}
            aria-pressed={watch.muted}
            aria-label={t(watch.muted ? 'watchlist.action.unmuteFor' : 'watchlist.action.muteFor', { company })}
            onClick={() => actions.setMuted.mutate({ id: watch.id, muted: !watch.muted })}
          >
            {t(watch.muted ? 'watchlist.action.unmute' : 'watchlist.action.mute')}
          </button>
          {confirming ? (
            <>
              <button
                type="button"
                className={`${smallButtonClass} border-red-300 text-red-800 dark:border-red-800 dark:text-red-300`}
                aria-label={t('watchlist.action.confirmUnwatchFor', { company })}
                onClick={() => actions.unwatch.mutate(watch.id)}
              >
                {t('watchlist.action.confirmUnwatch')}
              </button>
              <button type="button" className={smallButtonClass} onClick={() => setConfirming(false)}>
                {t('watchlist.cancel')}
              </button>
            </>
          ) : (
            <button
              type="button"
              className={smallButtonClass}
              aria-label={t('watchlist.action.unwatchFor', { company })}
              onClick={() => setConfirming(true)}
            >
              {t('watchlist.action.unwatch')}
            </button>
          )}
        </div>
        <p role="alert" className="text-xs font-medium text-red-800 empty:hidden dark:text-red-300">
          {failure ? t('watchlist.action.failed', { reason: failure.message }) : null}
        </p>
        <div id={detailId} hidden={!expanded}>
          {expanded && <WatchDetail api={api} watch={watch} company={company} now={now} />}
        </div>
      </article>
    </li>
  );
}

/** Ended, failing, muted, or when it was refreshed and will be next; and when the link expires. */
function RowStatus({ watch, now }: { watch: WatchRecord; now: number }) {
  const { t, locale } = useI18n();
  const parts: ReactNode[] = [];
  if (watch.end) {
    parts.push(
      <span key="end" className="font-medium text-red-800 dark:text-red-300">
        {t(`watchlist.status.ended.${watch.end.code}`, { when: formatRelative(watch.end.at, now, locale) })}
      </span>,
    );
  } else {
    if (watch.lastError) {
      parts.push(
        <span key="error" className="text-amber-800 dark:text-amber-300">
          {t('watchlist.status.retry', {
            reason: t(ERROR_TEXT[watch.lastError.code].title),
            when: watch.lastError.retryAt ? formatRelative(watch.lastError.retryAt, now, locale) : '—',
          })}
        </span>,
      );
    } else if (watch.lastRefreshAt !== null) {
      parts.push(
        <span key="refreshed">
          {t('watchlist.status.refreshed', { when: formatRelative(watch.lastRefreshAt, now, locale) })}
        </span>,
      );
    }
    parts.push(
      <span key="next">
        {watch.nextDueAt === null
          ? t('watchlist.status.manual')
          : t('watchlist.status.next', { when: formatRelative(watch.nextDueAt, now, locale) })}
      </span>,
    );
    if (watch.latest)
      parts.push(
        <span key="expires">
          {t('watchlist.status.expires', { when: formatRelative(Date.parse(watch.latest.expiresAt), now, locale) })}
        </span>,
      );
  }
  if (watch.muted)
    parts.push(
      <span key="muted" className="font-medium">
        {t('watchlist.status.muted')}
      </span>,
    );
  // Absolute times in the title, in UTC as the API states them.
  const title = watch.lastRefreshAt === null ? undefined : formatDateTime(watch.lastRefreshAt, locale);
  return (
    <p className="text-[11px] text-slate-600 dark:text-slate-400" title={title}>
      {parts.map((part, index) => (
        <span key={index}>
          {index > 0 && ' · '}
          {part}
        </span>
      ))}
    </p>
  );
}
