import type { UseQueryResult } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { describeCadence } from '@/lib/core/watchlist/describe';
import { formatDelta } from '@/lib/core/watchlist/diff';
import type { WatchPoint, WatchRecord } from '@/lib/core/watchlist/types';
import type { AppTranslator } from '@/lib/core/i18n';
import { ReadinessFigure, RiskFigure } from '../figures';
import { useI18n } from '../i18n';
import { ServiceDisclaimer } from '../ServiceText';
import { StatePanel } from '../StatePanel';
import { primaryButtonClass, secondaryButtonClass } from '../styles';
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

/** "Readiness 82/100 · Good Standing", grey once the watch has ended (figures no longer current). */
export function ScorePill({ point, ended = false }: { point: WatchPoint; ended?: boolean }) {
  return (
    <ReadinessFigure score={point.readinessScore} label={point.readinessLabel} muted={ended} scoreTestId="readiness-score" />
  );
}

/** "Fundraising risk: Low", grey once the watch has ended. */
export function BandBadge({ point, ended = false }: { point: WatchPoint; ended?: boolean }) {
  return <RiskFigure band={point.riskBand} muted={ended} testId="risk-band" />;
}

const CHANGE_TONE = {
  up: 'text-emerald-800 dark:text-emerald-300',
  down: 'text-red-800 dark:text-red-300',
  flat: 'text-slate-700 dark:text-slate-300',
} as const;

/** The change since the previous refresh, with what it is: "+6 since the previous refresh"; "—" before a second one. */
export function ChangeValue({ change }: { change: number | null }) {
  const { t } = useI18n();
  const tone = change === null || change === 0 ? 'flat' : change > 0 ? 'up' : 'down';
  return (
    <span className="inline-flex items-baseline gap-1 text-xs text-slate-700 dark:text-slate-300">
      <span data-testid="watch-change" className={`font-semibold tabular-nums ${CHANGE_TONE[tone]}`}>
        {change === null ? '—' : formatDelta(change)}
      </span>
      <span>{change === null ? t('watchlist.change.none') : t('watchlist.change.previous')}</span>
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
        <ServiceDisclaimer key={text} text={text} />
      ))}
    </section>
  );
}

/** How a "Refresh all now" went, said truly: a round where every refresh failed is not a success. */
export function refreshReport(
  { t }: AppTranslator,
  report: { refreshed: number; ended: number; failed: number },
): { tone: 'success' | 'warning' | 'error'; text: string } {
  const parts = [
    report.refreshed > 0 ? t('watchlist.report.refreshed', { count: report.refreshed }) : null,
    report.ended > 0 ? t('watchlist.report.ended', { count: report.ended }) : null,
    report.failed > 0 ? t('watchlist.report.failed', { count: report.failed }) : null,
  ].filter((part): part is string => part !== null);
  const text = parts.length === 0 ? t('watchlist.report.none') : `${parts.join(' · ')}.`;
  const tone = report.failed === 0 ? 'success' : report.refreshed === 0 ? 'error' : 'warning';
  return { tone, text };
}

export const NOTICE_TONE = {
  success: 'text-emerald-800 dark:text-emerald-300',
  warning: 'text-amber-800 dark:text-amber-300',
  error: 'text-red-800 dark:text-red-300',
} as const;

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
          className={`${primaryButtonClass} sm:self-start`}
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
