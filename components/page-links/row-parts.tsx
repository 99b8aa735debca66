import { useId, type ReactNode } from 'react';
import { formatDateTime, formatRelative } from '@/lib/core/format';
import type { SnapshotErrorCode } from '@/lib/core/schemas/results';
import { ReadinessFigure, RiskFigure } from '../figures';
import { useI18n } from '../i18n';
import { rowNameProps } from '../row-name';
import { ServiceDisclaimer } from '../ServiceText';
import { Spinner } from '../Spinner';
import { primaryButtonClass, secondaryButtonClass } from '../styles';
import { SnapshotCard } from '../SnapshotCard';
import { errorTitleKey, SnapshotError } from '../SnapshotError';
import { hostOf } from './api';
import { distinctDisclaimers, loadProgress, tokenStub, type LinkRow } from './rows';

/** The parts of one listed link, shared by the popup's list and the side panel's table. */

export type RowName = ReturnType<typeof rowNameProps>;

/**
 * A row's name, by what the reader knows (issue #33 item 12): the company once its snapshot is known,
 * else the words the page shows for the link ("Series A data room") when they are words, else the
 * service and the start of the token ("127.0.0.1:8787 share link · u9c_Kx…"). Cleaned, and whole in
 * `title` (a row may cut it with an ellipsis).
 */
export function useRowName() {
  const { t } = useI18n();
  return (row: LinkRow): RowName => {
    const unnamed = () =>
      t(row.link.kind === 'api' ? 'pageLinks.unnamedApi' : 'pageLinks.unnamed', {
        host: hostOf(row.link.origin, true) ?? row.link.origin,
        token: tokenStub(row.link.token),
      });
    const name = rowNameProps(row.company ?? row.linkText ?? unnamed());
    return { ...name, title: name.title ?? name.children };
  };
}

/** The link's own words under a company's name ("“Series A data room”"), when they say something else. */
export function LinkText({ row }: { row: LinkRow }) {
  const { t } = useI18n();
  if (row.linkText === null || row.company === null || row.linkText === row.company) return null;
  const name = rowNameProps(row.linkText);
  return (
    <span className="truncate text-[11px] text-slate-600 dark:text-slate-400" title={name.title ?? name.children}>
      {t('pageLinks.linkText', { text: name.children })}
    </span>
  );
}

/** "Readiness 82/100 · Good Standing" and "Fundraising risk: Low", once the snapshot is known. */
export function RowFigures({ row }: { row: LinkRow }) {
  if (row.score === null || row.label === null || row.band === null) return null;
  return (
    <span data-testid="row-figures" className="flex flex-wrap items-center gap-1.5">
      <SignatureFails row={row} />
      <ReadinessFigure score={row.score} label={row.label} />
      <RiskFigure band={row.band} />
    </span>
  );
}

/** Said before a row's figures when the service's key did not sign them (issue #36), as the card does. */
export function SignatureFails({ row }: { row: LinkRow }) {
  const { t } = useI18n();
  if (row.ready?.signature?.state !== 'invalid') return null;
  return (
    <span data-testid="row-signature-invalid" className="basis-full text-xs font-semibold text-red-800 dark:text-red-300">
      {t('pageLinks.signatureFails')}
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
    return (
      <span className="text-xs font-medium text-red-800 dark:text-red-300">
        {t(errorTitleKey(row.error.code, row.error.withdrawn))}
      </span>
    );
  }
  if (row.result === undefined)
    return <span className="text-xs text-slate-600 dark:text-slate-400">{t('pageLinks.peeking')}</span>;
  if (row.result === null) return <span className="text-xs text-slate-600 dark:text-slate-300">{t('pageLinks.notLoaded')}</span>;
  return null;
}

/** Failures worth another try (the service may answer now); a revoked, expired or unconfigured link will not. */
const RETRYABLE: ReadonlySet<SnapshotErrorCode> = new Set(['NETWORK', 'TIMEOUT', 'RATE_LIMITED', 'INVALID_RESPONSE']);

/** Rows whose load failed in a way another try may fix. */
export function retryableRows(rows: readonly LinkRow[]): LinkRow[] {
  return rows.filter((row) => row.error !== null && !row.loading && RETRYABLE.has(row.error.code));
}

/**
 * Where the page's snapshots stand, said truly ("Every snapshot on this page is loaded" only when
 * every one is), and the one explicit action that fetches: "Load 7 snapshots (counts 7 views)", or
 * another try for those that failed.
 */
export function LoadAllBar({
  rows,
  onLoad,
  onRetry,
}: {
  rows: readonly LinkRow[];
  onLoad: () => void;
  /** Tries the rows of `retryableRows` again. */
  onRetry: () => void;
}) {
  const { t } = useI18n();
  const hintId = useId();
  const { ready, failed, toLoad, inFlight } = loadProgress(rows);
  const retry = retryableRows(rows).length;
  const status =
    inFlight > 0
      ? { tone: 'neutral', text: t('pageLinks.loadingCount', { count: inFlight }) }
      : failed > 0
        ? {
            tone: 'warning',
            text: [ready > 0 ? t('pageLinks.loadedCount', { count: ready }) : null, t('pageLinks.failedCount', { count: failed })]
              .filter((part) => part !== null)
              .join(' · '),
          }
        : toLoad === 0 && ready > 0
          ? { tone: 'neutral', text: t('pageLinks.allLoaded') }
          : null;
  return (
    <div className="flex flex-col gap-1.5">
      <div
        role="status"
        className={`text-xs empty:hidden ${status?.tone === 'warning' ? 'font-medium text-amber-800 dark:text-amber-300' : 'text-slate-600 dark:text-slate-300'}`}
      >
        {status?.text}
      </div>
      {toLoad > 0 && (
        <button
          type="button"
          data-testid="load-all"
          className={`${primaryButtonClass} sm:self-start`}
          aria-describedby={hintId}
          onClick={onLoad}
        >
          {t('pageLinks.loadAll', { count: toLoad })}
        </button>
      )}
      {retry > 0 && inFlight === 0 && (
        <button
          type="button"
          data-testid="retry-failed"
          className={`${toLoad > 0 ? secondaryButtonClass : primaryButtonClass} sm:self-start`}
          aria-describedby={hintId}
          onClick={onRetry}
        >
          {t('pageLinks.retryFailed', { count: retry })}
        </button>
      )}
      {(toLoad > 0 || retry > 0) && (
        <p id={hintId} className="text-xs text-slate-600 dark:text-slate-400">
          {t('pageLinks.loadAll.hint')}
        </p>
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
        <ServiceDisclaimer key={text} text={text} />
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
          signature={row.ready.signature}
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
        technical={row.error}
        retryAt={row.error.retryAt}
        expiredAt={row.error.expiredAt}
        withdrawn={row.error.withdrawn}
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
