import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { messageOf } from '@/lib/core/thrown';
import { askWithinGesture } from '../gesture';
import { useI18n } from '../i18n';
import { StatePanel } from '../StatePanel';
import { linkButtonClass, primaryButtonClass, secondaryButtonClass } from '../styles';
import { hostOf, type TargetTab } from './api';
import { usePageLinksApi } from './context';
import { pageLinksKeys, pageLinksQueries, type usePageLinkRows } from './queries';

/** The page-level states of the popup and the side panel: loading, no tab, not running, error, empty. */

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
  const reason = (error: unknown) => t('pageLinks.actionFailed', { reason: messageOf(error) });

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
    // Until the settings are read, say nothing about them: "no services yet" would be untrue.
    const detail =
      services === undefined
        ? t('pageLinks.empty.detailUnknownServices')
        : t('pageLinks.empty.detail', {
            services:
              services.length > 0
                ? new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(services)
                : t('pageLinks.empty.noServices'),
          });
    return (
      <StatePanel testId="page-empty" title={t('pageLinks.empty.title')} detail={detail}>
        <button type="button" className={linkButtonClass} onClick={() => void api.openOptionsPage()}>
          {t('popup.settingsTitle')}
        </button>
      </StatePanel>
    );
  }
  return <>{children}</>;
}
