import { useId, type ReactNode } from 'react';
import { useI18n } from '../i18n';
import { rowNameProps } from '../row-name';
import { Spinner } from '../Spinner';
import { primaryButtonClass } from '../styles';
import { Disclaimer, SnapshotCard } from '../SnapshotCard';
import { SnapshotError, ERROR_TEXT } from '../SnapshotError';
import { READINESS_LABEL_KEY, READINESS_TONE, RISK_BAND_KEY, RISK_TONE } from '../tones';
import { distinctDisclaimers, unloadedLinks, type LinkRow } from './rows';
import { formatDateTime, formatRelative } from '@/lib/core/format';

/** The parts of one listed link, shared by the popup's list and the side panel's table. */

/** A row's name: the company, or "Share link 3" until its snapshot is loaded (cleaned, cut, whole in `title`). */
export function useRowName() {
  const { t } = useI18n();
  return (row: LinkRow, index: number): RowName => rowNameProps(row.company ?? t('pageLinks.unnamed', { number: index + 1 }));
}
export type RowName = ReturnType<typeof rowNameProps>;

/** Score and label; `stacked` puts the label under the score (narrow table columns). */
export function ReadinessPill({ row, stacked = false }: { row: LinkRow; stacked?: boolean }) {
  const { t } = useI18n();
  if (row.score === null || row.label === null) return null;
  return (
    <span
      className={`inline-flex rounded-md px-1.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${READINESS_TONE[row.label]} ${
        stacked ? 'flex-col items-center leading-tight' : 'items-baseline gap-1 whitespace-nowrap'
      }`}
    >
      <span className="tabular-nums">{row.score}</span>
      <span className={stacked ? 'text-[10px] font-medium whitespace-nowrap' : 'font-medium'}>
        {t(READINESS_LABEL_KEY[row.label])}
      </span>
    </span>
  );
}

export function BandPill({ row, wrap = false }: { row: LinkRow; wrap?: boolean }) {
  const { t } = useI18n();
  if (row.band === null) return null;
  return (
    <span
      className={`inline-block rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${wrap ? '' : 'whitespace-nowrap'} ${RISK_TONE[row.band]}`}
    >
      {t(RISK_BAND_KEY[row.band])}
    </span>
  );
}

export function Expiry({ row, now, wrap = false }: { row: LinkRow; now: number; wrap?: boolean }) {
  const { t, locale } = useI18n();
  if (row.expiresAt === null) return null;
  return (
    <time
      dateTime={new Date(row.expiresAt).toISOString()}
      title={t('pageLinks.expiresTitle', { date: formatDateTime(row.expiresAt, locale) })}
      className={wrap ? '' : 'whitespace-nowrap'}
    >
      {formatRelative(row.expiresAt, now, locale)}
    </time>
  );
}

/** What a row says when it has no snapshot to show: not loaded, loading, or the error's title. */
export function RowStatus({ row }: { row: LinkRow }) {
  const { t } = useI18n();
  if (row.loading) {
    return (
      <span className="inline-flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-300">
        <Spinner />
        {t('pageLinks.loadingRow')}
      </span>
    );
  }
  if (row.error) {
    return <span className="text-xs font-medium text-red-800 dark:text-red-300">{t(ERROR_TEXT[row.error.code].title)}</span>;
  }
  if (row.result === undefined)
    return <span className="text-xs text-slate-500 dark:text-slate-400">{t('pageLinks.peeking')}</span>;
  if (row.result === null) return <span className="text-xs text-slate-600 dark:text-slate-300">{t('pageLinks.notLoaded')}</span>;
  return null;
}

/** "Load 7 snapshots (counts 7 views)": the one explicit action that fetches the uncached links. */
export function LoadAllBar({ rows, onLoad }: { rows: readonly LinkRow[]; onLoad: () => void }) {
  const { t } = useI18n();
  const hintId = useId();
  const toLoad = unloadedLinks(rows).length;
  const inFlight = rows.filter((row) => row.loading).length;
  return (
    <div className="flex flex-col gap-1">
      <div role="status" className="text-xs text-slate-600 empty:hidden dark:text-slate-300">
        {inFlight > 0 ? t('pageLinks.loadingCount', { count: inFlight }) : toLoad === 0 ? t('pageLinks.allLoaded') : null}
      </div>
      {toLoad > 0 && (
        <>
          <button type="button" data-testid="load-all" className={primaryButtonClass} aria-describedby={hintId} onClick={onLoad}>
            {t('pageLinks.loadAll', { count: toLoad })}
          </button>
          <p id={hintId} className="text-xs text-slate-600 dark:text-slate-400">
            {t('pageLinks.loadAll.hint')}
          </p>
        </>
      )}
    </div>
  );
}

/** The snapshots' own disclaimers, each in full, under any list that shows snapshot data. */
export function Disclaimers({ rows }: { rows: readonly LinkRow[] }) {
  const { t } = useI18n();
  const texts = distinctDisclaimers(rows);
  if (texts.length === 0) return null;
  return (
    <section aria-label={t('pageLinks.disclaimers')} className="flex flex-col gap-1.5" data-testid="list-disclaimers">
      {texts.map((text) => (
        <Disclaimer key={text} text={text} />
      ))}
    </section>
  );
}

/**
 * The full snapshot of one link (SnapshotCard with Refresh), or its error, or an offer to load it.
 * `watchControl` (the watchlist's toggle) is given by the page that composes both features.
 */
export function SnapshotDetail({
  row,
  onLoad,
  onRefresh,
  now,
  watchControl,
}: {
  row: LinkRow;
  onLoad: () => void;
  onRefresh: () => void;
  now?: number;
  watchControl?: ReactNode;
}) {
  const { t } = useI18n();
  if (row.ready) {
    return (
      <>
        {watchControl}
        <SnapshotCard
          snapshot={row.ready.snapshot}
          serviceOrigin={row.link.origin}
          meta={row.ready.meta}
          fetchedAt={row.ready.fetchedAt}
          fromCache={row.ready.fromCache}
          apiVersionWarning={row.ready.apiVersionWarning}
          onRefresh={onRefresh}
          refreshing={row.loading}
          {...(now !== undefined ? { now } : {})}
        />
      </>
    );
  }
  if (row.loading) {
    return (
      <p role="status" className="flex items-center justify-center gap-2 py-8 text-sm text-slate-600 dark:text-slate-300">
        <Spinner />
        {t('detail.loading')}
      </p>
    );
  }
  if (row.error) {
    return (
      <SnapshotError
        code={row.error.code}
        message={row.error.message}
        retryAt={row.error.retryAt}
        expiredAt={row.error.expiredAt}
        onRetry={onRefresh}
        {...(now !== undefined ? { now } : {})}
      />
    );
  }
  return (
    <div className="flex flex-col items-start gap-2 rounded-lg border border-dashed border-slate-300 p-4 dark:border-slate-700">
      <p className="font-semibold text-slate-900 dark:text-white">{t('detail.notLoaded.title')}</p>
      <p className="text-xs text-slate-600 dark:text-slate-300">{t('detail.notLoaded.detail')}</p>
      <button type="button" className={primaryButtonClass} onClick={onLoad}>
        {t('detail.load')}
      </button>
    </div>
  );
}
