import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../i18n';
import type { PageLinksApi } from '../page-links/api';
import { usePageLinksApi } from '../page-links/context';
import { BrandMark } from '../BrandMark';
import { SettingsButton } from '../SettingsButton';
import { DocumentLanguage, PageLinksProviders } from '../page-links/Providers';
import { useNow } from '../useNow';
import { ViewTabs } from '../ViewTabs';
import type { WatchlistApi } from '../watchlist/api';
import { CompactWatchlist } from '../watchlist/CompactWatchlist';
import { WatchlistApiProvider } from '../watchlist/context';
import { FounderPreview } from './FounderPreview';
import { PageLinksList } from './PageLinksList';

export interface PopupAppProps {
  api: PageLinksApi;
  /** The watchlist; without it there is no Watchlist view and no watch toggle. */
  watchlist?: WatchlistApi;
  queryClient?: QueryClient;
  /** Fixed "now" for tests and screenshots. */
  now?: number;
}

/** The whole popup with its providers; tests render it with a fake `api`. */
export function PopupApp({ api, watchlist, queryClient, now }: PopupAppProps) {
  const page = <PopupPage {...(now !== undefined ? { now } : {})} withWatchlist={watchlist !== undefined} />;
  return (
    <PageLinksProviders api={api} {...(queryClient ? { queryClient } : {})}>
      {watchlist ? <WatchlistApiProvider api={watchlist}>{page}</WatchlistApiProvider> : page}
    </PageLinksProviders>
  );
}

type View = 'page' | 'watchlist' | 'preview';

export function PopupPage({ now, withWatchlist = false }: { now?: number; withWatchlist?: boolean }) {
  const { t } = useI18n();
  const api = usePageLinksApi();
  const [view, setView] = useState<View>('page');
  const currentNow = useNow(now);
  const views: View[] = withWatchlist ? ['page', 'watchlist', 'preview'] : ['page', 'preview'];
  const label: Record<View, string> = {
    page: t('popup.tabs.page'),
    watchlist: t('watchlist.tab'),
    preview: t('popup.tabs.preview'),
  };

  return (
    // 400 px in the toolbar; opened in a wide tab, a centred column rather than a stretched one.
    <div className="mx-auto flex w-[400px] max-w-full flex-col bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
      <DocumentLanguage title={t('snapshot.card.brand')} />
      <header className="flex items-center gap-2 border-b border-slate-200 px-4 py-2.5 dark:border-slate-800">
        <BrandMark />
        <h1 className="text-sm font-semibold">{t('snapshot.card.brand')}</h1>
        <SettingsButton onOpen={() => void api.openOptionsPage()} />
      </header>
      <ViewTabs
        label={t('popup.tabs.label')}
        current={view}
        onChange={setView}
        tabs={views.map((id) => ({ id, label: label[id], ...(id === 'watchlist' ? { testId: 'watchlist-tab' } : {}) }))}
      />
      <main>
        {views.map((id) => (
          <div
            key={id}
            id={`panel-${id}`}
            role="tabpanel"
            aria-labelledby={`tab-${id}`}
            hidden={view !== id}
            className="px-4 py-3"
          >
            {/* The page's list and the preview stay mounted: switching keeps the selection and a pasted link. */}
            {id === 'page' ? (
              <PageLinksList {...(now !== undefined ? { now } : {})} />
            ) : id === 'watchlist' ? (
              view === 'watchlist' && <CompactWatchlist now={currentNow} />
            ) : (
              <FounderPreview {...(now !== undefined ? { now } : {})} />
            )}
          </div>
        ))}
      </main>
    </div>
  );
}
