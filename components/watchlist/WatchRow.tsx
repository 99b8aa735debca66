import { useEffect, useId, useRef } from 'react';
import { formatDateTime, formatRelative } from '@/lib/core/format';
import { formatDelta } from '@/lib/core/watchlist/diff';
import type { WatchRecord } from '@/lib/core/watchlist/types';
import { sinceText } from '@/lib/core/vocabulary';
import { useI18n } from '../i18n';
import { rowNameProps } from '../row-name';
import { errorTitleKey } from '../SnapshotError';
import { focusRing } from '../styles';
import type { WatchlistApi } from './api';
import { BandBadge, ChangeValue, ScorePill } from './parts';
import { changeOf, weekChangeOf } from './rows';
import { Sparkline } from './Sparkline';
import { WatchDetail } from './WatchDetail';

/**
 * One watched company in the side panel: its figures, how they moved, its trend and state, and one
 * action, Details, where the rest lives (the history, Refresh, Mute, Stop watching).
 */
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
  const { t } = useI18n();
  const nameId = useId();
  const detailId = useId();
  const ref = useRef<HTMLElement>(null);
  const name = rowNameProps(watch.company ?? new URL(watch.origin).host);
  const company = name.children;
  const latest = watch.latest;
  const ended = watch.end !== null;
  const week = weekChangeOf(watch);

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
        className={`flex flex-col gap-1.5 rounded-lg border p-2.5 outline-none focus-visible:ring-2 focus-visible:ring-accent ${
          focused ? 'border-accent' : 'border-slate-200 dark:border-slate-800'
        } ${ended ? 'bg-slate-50 dark:bg-slate-900/60' : 'bg-white dark:bg-slate-950'}`}
      >
        {/* Name and figures on the left; the trend in one fixed place on the right, so rows compare. */}
        <div className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-3 gap-y-1.5">
          <h3
            id={nameId}
            data-testid="company-name"
            className="text-sm font-semibold break-words text-slate-900 dark:text-white"
            title={name.title}
          >
            {company}
          </h3>
          <span className="flex h-7 w-24 items-center justify-end">
            {latest && <Sparkline series={watch.series} muted={ended} />}
          </span>
          {latest ? (
            <div className="col-span-2 flex flex-wrap items-center gap-1.5">
              <ScorePill point={latest} ended={ended} />
              <BandBadge point={latest} ended={ended} />
            </div>
          ) : (
            <p className="col-span-2 text-xs text-slate-600 dark:text-slate-400">{t('watchlist.noFigures')}</p>
          )}
        </div>
        {/* Every row holds its change (a test hook DESIGN promises), an ended one's last too. */}
        {latest && (
          <p className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
            <ChangeValue change={changeOf(watch)} />
            <span className="text-xs text-slate-700 dark:text-slate-300">
              {week === null ? t('watchlist.change.weekNone') : t('watchlist.change.week', { delta: formatDelta(week) })}
            </span>
          </p>
        )}
        <RowStatus watch={watch} now={now} />
        <div>
          <button
            type="button"
            className={`inline-flex items-center gap-1 rounded-md border border-slate-300 px-2.5 py-1 text-xs font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800 ${focusRing}`}
            aria-expanded={expanded}
            aria-controls={detailId}
            onClick={onToggleDetails}
            aria-label={expanded ? t('watchlist.action.hideDetails') : t('watchlist.action.detailsFor', { company })}
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 16 16"
              className={`h-3 w-3 transition-transform motion-reduce:transition-none ${expanded ? 'rotate-180' : ''}`}
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M4 6l4 4 4-4" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            {expanded ? t('watchlist.action.hideDetails') : t('watchlist.action.details')}
          </button>
        </div>
        <div id={detailId} hidden={!expanded}>
          {expanded && <WatchDetail api={api} watch={watch} company={company} now={now} />}
        </div>
      </article>
    </li>
  );
}

/**
 * What is true of the watch now, once: ended (its figures the last known); or its last refresh failed
 * and when it is tried again; or when it was refreshed and will be next. Then when the link expires.
 */
function RowStatus({ watch, now }: { watch: WatchRecord; now: number }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const parts: { key: string; text: string; tone?: string }[] = [];
  if (watch.end) {
    parts.push({
      key: 'end',
      text: t(`watchlist.status.ended.${watch.end.code}`, { when: sinceText(i18n, watch.end.at, now) }),
      tone: 'font-medium text-slate-800 dark:text-slate-200',
    });
    if (watch.latest) parts.push({ key: 'last-known', text: t('watchlist.status.lastKnown') });
  } else {
    if (watch.lastError) {
      const reason = t(errorTitleKey(watch.lastError.code, watch.pointCount > 0));
      parts.push({
        key: 'error',
        text: watch.lastError.retryAt
          ? t('watchlist.status.retry', { reason, when: formatRelative(watch.lastError.retryAt, now, locale) })
          : t('watchlist.status.failed', { reason }),
        tone: 'font-medium text-amber-800 dark:text-amber-300',
      });
    } else if (watch.lastRefreshAt !== null) {
      parts.push({
        key: 'refreshed',
        text: t('watchlist.status.refreshed', { when: sinceText(i18n, watch.lastRefreshAt, now) }),
      });
    }
    // After a failure, the next try is the next refresh: said once.
    if (!watch.lastError?.retryAt) {
      parts.push({
        key: 'next',
        text:
          watch.nextDueAt === null
            ? t('watchlist.status.manual')
            : t('watchlist.status.next', { when: formatRelative(Math.max(watch.nextDueAt, now), now, locale) }),
      });
    }
    if (watch.latest)
      parts.push({
        key: 'expires',
        text: t('watchlist.status.expires', { when: formatRelative(Date.parse(watch.latest.expiresAt), now, locale) }),
      });
  }
  if (watch.muted) parts.push({ key: 'muted', text: t('watchlist.status.muted'), tone: 'font-medium' });
  // Absolute times in the title, in UTC as the API states them.
  const title = watch.lastRefreshAt === null ? undefined : formatDateTime(watch.lastRefreshAt, locale);
  return (
    <p className="text-[11px] text-slate-600 dark:text-slate-400" title={title}>
      {parts.map((part, index) => (
        <span key={part.key}>
          {index > 0 && ' · '}
          <span className={part.tone}>{part.text}</span>
        </span>
      ))}
    </p>
  );
}
