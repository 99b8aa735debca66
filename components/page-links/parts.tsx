import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import type { AppKey } from '@/lib/core/i18n';
import { formatDateTime, formatRelative } from '@/lib/core/format';
import type { SnapshotErrorCode } from '@/lib/core/schemas/results';
import { useI18n } from '../i18n';
import { focusRing, primaryButtonClass, secondaryButtonClass } from '../options/ui';
import { Disclaimer, SnapshotCard } from '../SnapshotCard';
import { SnapshotError } from '../SnapshotError';
import { READINESS_LABEL_KEY, READINESS_TONE, RISK_BAND_KEY, RISK_TONE } from '../tones';
import { hostOf, type TargetTab } from './api';
import { usePageLinksApi } from './context';
import { pageLinksKeys, pageLinksQueries, type usePageLinkRows } from './queries';
import { distinctDisclaimers, unloadedLinks, type LinkRow } from './rows';
import { askWithinGesture } from '../gesture';
import { WatchToggle } from '../watchlist/WatchToggle';

/** Shared pieces of the popup and the side panel. */

export { focusRing, primaryButtonClass, secondaryButtonClass };

export const linkButtonClass = `rounded font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300 ${focusRing}`;

export const ERROR_TITLE_KEY: Readonly<Record<SnapshotErrorCode, AppKey>> = {
  NOT_FOUND: 'error.notFound.title',
  EXPIRED: 'error.expired.title',
  RATE_LIMITED: 'error.rateLimited.title',
  NETWORK: 'error.network.title',
  TIMEOUT: 'error.timeout.title',
  INVALID_RESPONSE: 'error.invalidResponse.title',
  FORBIDDEN_ORIGIN: 'error.forbiddenOrigin.title',
};

/** A short name for a row: the company, or "Share link 3" until its snapshot is loaded. */
export function useRowName() {
  const { t } = useI18n();
  return (row: LinkRow, index: number) => row.company ?? t('pageLinks.unnamed', { number: index + 1 });
}

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
    return <span className="text-xs font-medium text-red-800 dark:text-red-300">{t(ERROR_TITLE_KEY[row.error.code])}</span>;
  }
  if (row.result === undefined)
    return <span className="text-xs text-slate-500 dark:text-slate-400">{t('pageLinks.peeking')}</span>;
  if (row.result === null) return <span className="text-xs text-slate-600 dark:text-slate-300">{t('pageLinks.notLoaded')}</span>;
  return null;
}

export function Spinner() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5 animate-spin motion-reduce:animate-none" fill="none">
      <circle cx="8" cy="8" r="6" stroke="currentColor" strokeOpacity="0.25" strokeWidth="2" />
      <path d="M14 8a6 6 0 0 0-6-6" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
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

/** The full snapshot of one link (SnapshotCard with Refresh), or its error, or an offer to load it. */
export function SnapshotDetail({
  row,
  onLoad,
  onRefresh,
  now,
}: {
  row: LinkRow;
  onLoad: () => void;
  onRefresh: () => void;
  now?: number;
}) {
  const { t } = useI18n();
  if (row.ready) {
    return (
      <>
        <WatchToggle request={row.link} />
        <SnapshotCard
          snapshot={row.ready.snapshot}
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

type Tone = 'neutral' | 'warning' | 'error';

const TONE_CLASS: Readonly<Record<Tone, string>> = {
  neutral: 'border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900',
  warning: 'border-amber-200 bg-amber-50 dark:border-amber-900 dark:bg-amber-950/60',
  error: 'border-red-200 bg-red-50 dark:border-red-900 dark:bg-red-950/60',
};

function StateIcon({ tone }: { tone: Tone }) {
  const color =
    tone === 'error'
      ? 'text-red-700 dark:text-red-300'
      : tone === 'warning'
        ? 'text-amber-700 dark:text-amber-300'
        : 'text-slate-500 dark:text-slate-400';
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={`h-6 w-6 shrink-0 ${color}`}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
    >
      {tone === 'neutral' ? (
        <>
          <circle cx="11" cy="11" r="6.5" />
          <path d="M16 16l4.5 4.5" strokeLinecap="round" />
        </>
      ) : (
        <>
          <path d="M12 3.5 21.5 20h-19L12 3.5Z" strokeLinejoin="round" />
          <path d="M12 10v4.5M12 17.2v.1" strokeLinecap="round" />
        </>
      )}
    </svg>
  );
}

/** A designed state (empty, not scannable, error…): icon, title, explanation, and what to do next. */
export function StatePanel({
  tone = 'neutral',
  title,
  detail,
  children,
  testId,
}: {
  tone?: Tone;
  title: string;
  detail: ReactNode;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <div
      data-testid={testId}
      role={tone === 'error' ? 'alert' : undefined}
      className={`flex gap-3 rounded-xl border p-4 ${TONE_CLASS[tone]}`}
    >
      <StateIcon tone={tone} />
      <div className="flex min-w-0 flex-col gap-1">
        <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h2>
        <div className="text-xs text-slate-700 dark:text-slate-300">{detail}</div>
        {children && <div className="mt-2 flex flex-wrap items-center gap-2">{children}</div>}
      </div>
    </div>
  );
}

export function LoadingState({ rowCount = 3 }: { rowCount?: number }) {
  const { t } = useI18n();
  return (
    <div role="status" data-testid="page-links-loading" className="flex flex-col gap-2">
      <span className="text-xs text-slate-600 dark:text-slate-300">{t('pageLinks.loading')}</span>
      {Array.from({ length: rowCount }, (_, index) => (
        <div
          key={index}
          aria-hidden="true"
          className="flex animate-pulse items-center gap-3 rounded-lg border border-slate-200 p-3 motion-reduce:animate-none dark:border-slate-800"
        >
          <div className="h-3 w-1/2 rounded bg-slate-200 dark:bg-slate-800" />
          <div className="ml-auto h-5 w-14 rounded bg-slate-100 dark:bg-slate-800/70" />
        </div>
      ))}
    </div>
  );
}

type ActionNotice = { tone: 'success' | 'error'; text: string } | null;

/**
 * For a web page the annotator does not run on: scan it once (`activeTab`), or enable the site for
 * good (host permission asked in the click, then saved in `enabledSites`).
 */
export function NotRunningState({
  tab,
  host,
  enableLocked,
}: {
  tab: TargetTab;
  host: string | undefined;
  enableLocked: boolean;
}) {
  const { t } = useI18n();
  const api = usePageLinksApi();
  const [busy, setBusy] = useState<'scan' | 'enable' | null>(null);
  const [notice, setNotice] = useState<ActionNotice>(null);
  const rescan = useRescan(tab);
  const reason = (error: unknown) =>
    t('pageLinks.actionFailed', { reason: error instanceof Error ? error.message : String(error) });

  async function scan() {
    setBusy('scan');
    setNotice(null);
    try {
      await api.injectAnnotator(tab.tabId);
      await rescan();
    } catch (error) {
      setNotice({ tone: 'error', text: reason(error) });
    } finally {
      setBusy(null);
    }
  }

  async function finishEnable(site: string, access: Promise<boolean>) {
    try {
      if (!(await access)) {
        setNotice({ tone: 'error', text: t('pageLinks.enableDenied', { host: site }) });
        return;
      }
      await api.enableSite(site);
      // The registration covers the next page loads; this one is scanned now.
      await api.injectAnnotator(tab.tabId);
      setNotice({ tone: 'success', text: t('pageLinks.enabled', { host: site }) });
      await rescan();
    } catch (error) {
      setNotice({ tone: 'error', text: reason(error) });
    } finally {
      setBusy(null);
    }
  }

  function enable(site: string) {
    setNotice(null);
    const access = askWithinGesture(() => api.requestSiteAccess(site));
    setBusy('enable');
    void finishEnable(site, access);
  }

  return (
    <StatePanel
      tone="warning"
      testId="page-not-running"
      title={t('pageLinks.notRunning.title')}
      detail={
        <>
          <p>{host ? t('pageLinks.notRunning.detail', { host }) : t('pageLinks.notRunning.detailNoHost')}</p>
          <p className="mt-1 text-slate-600 dark:text-slate-400">{t('pageLinks.scanHint')}</p>
          {host && enableLocked && <p className="mt-1">{t('pageLinks.enableLocked')}</p>}
          <div role="status" aria-live="polite" className="empty:hidden">
            {busy === 'enable' && <p className="mt-1">{t('pageLinks.enabling')}</p>}
            {notice && (
              <p
                className={`mt-1 font-medium ${notice.tone === 'error' ? 'text-red-800 dark:text-red-300' : 'text-emerald-800 dark:text-emerald-300'}`}
              >
                {notice.text}
              </p>
            )}
          </div>
        </>
      }
    >
      <button type="button" className={primaryButtonClass} disabled={busy !== null} onClick={() => void scan()}>
        {busy === 'scan' ? t('pageLinks.scanning') : t('pageLinks.scan')}
      </button>
      {host && !enableLocked && (
        <button type="button" className={secondaryButtonClass} disabled={busy !== null} onClick={() => enable(host)}>
          {t('pageLinks.enable', { host })}
        </button>
      )}
    </StatePanel>
  );
}

/** Asks the tab again for its links. */
export function useRescan(tab: TargetTab | null) {
  const queryClient = useQueryClient();
  return async () => {
    if (tab) await queryClient.invalidateQueries({ queryKey: pageLinksKeys.scan(tab.tabId) });
  };
}

/**
 * Everything but the list itself: loading, no tab, not scannable, not running, error, empty. Renders
 * `children` (the list or table) only when the page has links.
 */
/** The product mark in the popup and side panel headers. */
export function BrandMark() {
  return (
    <span
      aria-hidden="true"
      className="flex h-7 w-7 shrink-0 items-center justify-center rounded-md bg-sky-700 text-xs font-bold text-white dark:bg-sky-400 dark:text-slate-950"
    >
      CL
    </span>
  );
}

/** The page-level states (no tab, not scannable, scanning, …) around a surface's list of links. */
export function PageStates({
  pageLinks,
  children,
}: {
  pageLinks: Pick<ReturnType<typeof usePageLinkRows>, 'target' | 'tab' | 'scan'>;
  children: ReactNode;
}) {
  const { target, tab, scan: scanQuery } = pageLinks;
  const { t, locale } = useI18n();
  const api = usePageLinksApi();
  const settings = useQuery(pageLinksQueries.settings(api));
  const targetPending = target.isPending;
  const scan = scanQuery.data;
  const scanPending = tab !== null && scanQuery.isPending;
  const scanError = target.isError || scanQuery.isError;
  const services = settings.data?.services.map((service) => service.name);
  const enableLocked = settings.data?.locked.enabledSites ?? false;
  const onRetry = () => void (target.isError ? target.refetch() : scanQuery.refetch());
  if (targetPending) return <LoadingState />;
  if (!tab) {
    return <StatePanel testId="page-no-tab" title={t('pageLinks.noTab.title')} detail={t('pageLinks.noTab.detail')} />;
  }
  if (scanPending) return <LoadingState />;
  if (scanError || !scan) {
    return (
      <StatePanel tone="error" testId="page-error" title={t('pageLinks.error.title')} detail={t('pageLinks.error.detail')}>
        <button type="button" className={secondaryButtonClass} onClick={onRetry}>
          {t('pageLinks.retry')}
        </button>
      </StatePanel>
    );
  }
  if (scan.status === 'not-scannable') {
    return (
      <StatePanel
        testId="page-not-scannable"
        title={t('pageLinks.notScannable.title')}
        detail={t('pageLinks.notScannable.detail')}
      />
    );
  }
  if (scan.status === 'no-access') {
    return (
      <StatePanel testId="page-no-access" title={t('pageLinks.noAccess.title')} detail={t('pageLinks.noAccess.detail')}>
        <button type="button" className={linkButtonClass} onClick={() => void api.openOptionsPage()}>
          {t('popup.settingsTitle')}
        </button>
      </StatePanel>
    );
  }
  if (scan.status === 'not-running') {
    return <NotRunningState tab={tab} host={scan.host ?? hostOf(tab.url)} enableLocked={enableLocked} />;
  }
  if (scan.links.length === 0) {
    const names =
      services && services.length > 0
        ? new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(services)
        : t('pageLinks.empty.noServices');
    return (
      <StatePanel
        testId="page-empty"
        title={t('pageLinks.empty.title')}
        detail={t('pageLinks.empty.detail', { services: names })}
      >
        <button type="button" className={linkButtonClass} onClick={() => void api.openOptionsPage()}>
          {t('popup.settingsTitle')}
        </button>
      </StatePanel>
    );
  }
  return <>{children}</>;
}
