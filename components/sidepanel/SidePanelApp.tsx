import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n';
import { useNow } from '../useNow';
import { hostOf, type PageLinksApi } from '../page-links/api';
import { usePageLinksApi } from '../page-links/context';
import { BrandMark } from '../BrandMark';
import { SettingsButton } from '../SettingsButton';
import { DocumentLanguage, PageLinksProviders } from '../page-links/Providers';
import { pageLinksQueries, useFollowTabs } from '../page-links/queries';
import { ViewTabs } from '../ViewTabs';
import type { WatchlistApi } from '../watchlist/api';
import { WatchlistApiProvider } from '../watchlist/context';
import { WatchlistView } from '../watchlist/WatchlistView';
import { downloadText } from '../download';
import { PageLinksPanel } from './PageLinksPanel';

export const SIDE_PANEL_VIEWS = ['page', 'watchlist'] as const;
export type SidePanelView = (typeof SIDE_PANEL_VIEWS)[number];

export interface SidePanelAppProps {
  api: PageLinksApi;
  /** The watchlist; without it the Watchlist view says nothing can be shown. */
  watchlist?: WatchlistApi;
  queryClient?: QueryClient;
  /** Fixed "now" for tests and screenshots. */
  now?: number;
  /** The view shown first (`sidepanel.html#watchlist` opens the watchlist). */
  initialView?: SidePanelView;
  /** Where an export goes (a download by default; tests capture it). */
  saveFile?: (fileName: string, text: string) => void;
}

/** The side panel (Chrome side panel, Firefox sidebar) with its providers. */
export function SidePanelApp({ api, watchlist, queryClient, now, initialView, saveFile }: SidePanelAppProps) {
  const panel = (
    <SidePanel now={now} initialView={initialView ?? 'page'} saveFile={saveFile ?? downloadText} watchlist={watchlist ?? null} />
  );
  return (
    <PageLinksProviders api={api} {...(queryClient ? { queryClient } : {})}>
      {watchlist ? <WatchlistApiProvider api={watchlist}>{panel}</WatchlistApiProvider> : panel}
    </PageLinksProviders>
  );
}

function SidePanel({
  now,
  initialView,
  saveFile,
  watchlist,
}: {
  now: number | undefined;
  initialView: SidePanelView;
  saveFile: (fileName: string, text: string) => void;
  watchlist: WatchlistApi | null;
}) {
  const { t } = useI18n();
  const api = usePageLinksApi();
  useFollowTabs();
  const tab = useQuery(pageLinksQueries.target(api)).data ?? null;
  const [view, setView] = useState<SidePanelView>(initialView);
  const [focusId, setFocusId] = useState<string | null>(null);
  const currentNow = useNow(now);

  // A notification click asks for the watchlist at one company: now (the click opened this page) or later.
  useEffect(() => {
    if (!watchlist) return;
    const take = () =>
      void watchlist.takeFocus().then((focus) => {
        if (!focus) return;
        setView('watchlist');
        setFocusId(focus.watchId);
      });
    take();
    return watchlist.watchFocus(take);
  }, [watchlist]);

  const pageName = tab?.title ?? hostOf(tab?.url) ?? t('panel.unknownPage');

  return (
    <div className="flex min-h-screen flex-col bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
      <DocumentLanguage title={t('panel.title')} />
      <header className="flex items-center gap-2 border-b border-slate-200 px-3 py-2.5 dark:border-slate-800">
        <BrandMark />
        <div className="min-w-0">
          <h1 className="text-sm font-semibold">{t('snapshot.card.brand')}</h1>
          <p className="truncate text-xs text-slate-600 dark:text-slate-400" data-testid="panel-page">
            <span className="sr-only">{t('panel.pageLabel')}: </span>
            {pageName}
          </p>
        </div>
        <SettingsButton onOpen={() => void api.openOptionsPage()} />
      </header>
      <ViewTabs
        label={t('popup.tabs.label')}
        current={view}
        onChange={setView}
        tabs={[
          { id: 'page', label: t('popup.tabs.page'), testId: 'page-links-tab' },
          { id: 'watchlist', label: t('watchlist.tab'), testId: 'watchlist-tab' },
        ]}
      />
      <main className="flex flex-col gap-3 px-3 py-3">
        {SIDE_PANEL_VIEWS.map((id) => (
          <div
            key={id}
            id={`panel-${id}`}
            role="tabpanel"
            aria-labelledby={`tab-${id}`}
            hidden={view !== id}
            className="flex flex-col gap-3"
          >
            {id === 'page' ? (
              <PageLinksPanel now={now} saveFile={saveFile} />
            ) : (
              watchlist &&
              view === 'watchlist' && <WatchlistView api={watchlist} now={currentNow} saveFile={saveFile} focusId={focusId} />
            )}
          </div>
        ))}
      </main>
    </div>
  );
}
