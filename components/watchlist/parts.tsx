import type { UseQueryResult } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { describeCadence } from '@/lib/core/watchlist/describe';
import { formatDelta } from '@/lib/core/watchlist/diff';
import type { WatchPoint, WatchRecord } from '@/lib/core/watchlist/types';
import { useI18n } from '../i18n';
import { Disclaimer } from '../SnapshotCard';
import { StatePanel } from '../StatePanel';
import { primaryButtonClass, secondaryButtonClass } from '../styles';
import { READINESS_LABEL_KEY, READINESS_TONE, RISK_BAND_KEY, RISK_TONE } from '../tones';
import type { WatchlistApi } from './api';
import { watchDisclaimers } from './rows';

/** Pieces shared by the side panel's watchlist and the popup's compact one (same test ids in both). */

type WatchlistQuery = UseQueryResult<Awaited<ReturnType<WatchlistApi['list']>>>;

/**
 * What a watchlist view shows while it has no rows to show: loading, a load failure with Try again, or
 * the empty list.
 */
export function WatchlistPlaceholder({ list }: { list: WatchlistQuery }) {
  const i18n = useI18n();
  const { t } = i18n;
  if (list.isPending) {
    return (
      <p role="status" className="text-xs text-slate-600 dark:text-slate-300">
        {t('watchlist.loading')}
      </p>
    );
  }
  if (list.isError) {
    return (
      <StatePanel tone="error" title={t('watchlist.heading')} detail={t('watchlist.loadError', { reason: list.error.message })}>
        <button type="button" className={secondaryButtonClass} onClick={() => void list.refetch()}>
          {t('pageLinks.retry')}
        </button>
      </StatePanel>
    );
  }
  const cadence = describeCadence(i18n, list.data.settings);
  return (
    <StatePanel testId="watchlist-empty" title={t('watchlist.empty.title')} detail={t('watchlist.empty.detail', { cadence })} />
  );
}

export function ScorePill({ point, compact = false }: { point: WatchPoint; compact?: boolean }) {
  const { t } = useI18n();
  return (
    <span
      className={`inline-flex shrink-0 flex-col items-center rounded-md px-1.5 py-0.5 leading-tight ring-1 ring-inset ${READINESS_TONE[point.readinessLabel]}`}
    >
      <span data-testid="readiness-score" className={`${compact ? 'text-sm' : 'text-base'} font-bold tabular-nums`}>
        {point.readinessScore}
      </span>
      <span className="text-[10px] font-medium whitespace-nowrap">{t(READINESS_LABEL_KEY[point.readinessLabel])}</span>
    </span>
  );
}

/** `wrap`: in a narrow row the band's name may take two lines rather than push the row wider. */
export function BandBadge({ point, wrap = false }: { point: WatchPoint; wrap?: boolean }) {
  const { t } = useI18n();
  return (
    <span
      data-testid="risk-band"
      className={`inline-block rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${wrap ? '' : 'whitespace-nowrap'} ${RISK_TONE[point.riskBand]}`}
    >
      {t(RISK_BAND_KEY[point.riskBand])}
    </span>
  );
}

const CHANGE_TONE = {
  up: 'text-emerald-800 dark:text-emerald-300',
  down: 'text-red-800 dark:text-red-300',
  flat: 'text-slate-600 dark:text-slate-300',
} as const;

/** The change since the previous refresh: "+6", "−3", "0", or "—" before a second refresh. */
export function ChangeValue({ change }: { change: number | null }) {
  const { t } = useI18n();
  const tone = change === null || change === 0 ? 'flat' : change > 0 ? 'up' : 'down';
  return (
    <span className="inline-flex items-baseline gap-1 text-xs">
      <span data-testid="watch-change" className={`font-semibold tabular-nums ${CHANGE_TONE[tone]}`}>
        {change === null ? '—' : formatDelta(change)}
      </span>
      <span className="sr-only">{change === null ? t('watchlist.change.first') : t('watchlist.change.previous')}</span>
    </span>
  );
}

/** The watched snapshots' own disclaimers, each in full, under a list that shows their figures. */
export function WatchDisclaimers({ watches }: { watches: readonly WatchRecord[] }) {
  const { t } = useI18n();
  const texts = watchDisclaimers(watches);
  if (texts.length === 0) return null;
  return (
    <section aria-label={t('pageLinks.disclaimers')} className="flex flex-col gap-1.5" data-testid="watch-disclaimers">
      {texts.map((text) => (
        <Disclaimer key={text} text={text} />
      ))}
    </section>
  );
}

export const smallButtonClass =
  'rounded border border-slate-300 px-2 py-0.5 text-[11px] font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 dark:focus-visible:outline-sky-400';

/**
 * What a watchlist says first: how many companies and how often they refresh, then "Refresh all now"
 * with its cost in views. `children` go under the hint (the popup's result line).
 */
export function WatchlistHeader({
  count,
  cadence,
  toRefresh,
  pending,
  onRefreshAll,
  children,
}: {
  count: number;
  cadence: string;
  toRefresh: number;
  pending: boolean;
  onRefreshAll: () => void;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  const hintId = useId();
  return (
    <>
      <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="watchlist-summary">
        {t('watchlist.summary', { count, cadence })}
      </p>
      <div className="flex flex-col gap-1">
        <button
          type="button"
          data-testid="watch-refresh-all"
          className={primaryButtonClass}
          aria-describedby={hintId}
          disabled={toRefresh === 0 || pending}
          onClick={onRefreshAll}
        >
          {pending ? t('watchlist.refreshing') : t('watchlist.refreshAll', { count: toRefresh })}
        </button>
        <p id={hintId} className="text-xs text-slate-600 dark:text-slate-400">
          {toRefresh === 0 ? t('watchlist.refreshAll.none') : t('watchlist.refreshAll.hint')}
        </p>
        {children}
      </div>
    </>
  );
}
