import type { QueryClient } from '@tanstack/react-query';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useI18n } from '../i18n';
import type { PageLinksApi } from '../page-links/api';
import { usePageLinksApi } from '../page-links/context';
import { BrandMark } from '../BrandMark';
import { focusRing } from '../styles';
import { DocumentLanguage, PageLinksProviders } from '../page-links/Providers';
import { FounderPreview } from './FounderPreview';
import { PageLinksList } from './PageLinksList';

export interface PopupAppProps {
  api: PageLinksApi;
  queryClient?: QueryClient;
  /** Fixed "now" for tests and screenshots. */
  now?: number;
}

/** The whole popup with its providers; tests render it with a fake `api`. */
export function PopupApp({ api, queryClient, now }: PopupAppProps) {
  return (
    <PageLinksProviders api={api} {...(queryClient ? { queryClient } : {})}>
      <PopupPage {...(now !== undefined ? { now } : {})} />
    </PageLinksProviders>
  );
}

const VIEWS = ['page', 'preview'] as const;
type View = (typeof VIEWS)[number];

export function PopupPage({ now }: { now?: number }) {
  const { t } = useI18n();
  const api = usePageLinksApi();
  const [view, setView] = useState<View>('page');
  const tabRefs = useRef<Partial<Record<View, HTMLButtonElement | null>>>({});

  // WAI-ARIA tabs: arrow keys move between tabs, Home/End to the ends.
  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const index = VIEWS.indexOf(view);
    const next =
      event.key === 'ArrowRight'
        ? VIEWS[(index + 1) % VIEWS.length]
        : event.key === 'ArrowLeft'
          ? VIEWS[(index - 1 + VIEWS.length) % VIEWS.length]
          : event.key === 'Home'
            ? VIEWS[0]
            : event.key === 'End'
              ? VIEWS[VIEWS.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    setView(next);
    tabRefs.current[next]?.focus();
  }

  const label: Record<View, string> = { page: t('popup.tabs.page'), preview: t('popup.tabs.preview') };

  return (
    <div className="flex w-[400px] max-w-full flex-col bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
      <DocumentLanguage title={t('snapshot.card.brand')} />
      <header className="flex items-center gap-2 border-b border-slate-200 px-4 py-2.5 dark:border-slate-800">
        <BrandMark />
        <h1 className="text-sm font-semibold">{t('snapshot.card.brand')}</h1>
        <button
          type="button"
          onClick={() => void api.openOptionsPage()}
          title={t('popup.settingsTitle')}
          className={`ml-auto inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800 ${focusRing}`}
        >
          <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="1.5">
            <circle cx="8" cy="8" r="2.2" />
            <path
              d="M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4"
              strokeLinecap="round"
            />
          </svg>
          {t('popup.settings')}
        </button>
      </header>
      <div
        role="tablist"
        aria-label={t('popup.tabs.label')}
        className="flex gap-1 border-b border-slate-200 px-3 dark:border-slate-800"
      >
        {VIEWS.map((id) => (
          <button
            key={id}
            ref={(element) => {
              tabRefs.current[id] = element;
            }}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-selected={view === id}
            aria-controls={`panel-${id}`}
            tabIndex={view === id ? 0 : -1}
            onClick={() => setView(id)}
            onKeyDown={onTabKeyDown}
            className={`-mb-px border-b-2 px-2.5 py-2 text-sm font-medium ${focusRing} ${
              view === id
                ? 'border-sky-700 text-sky-800 dark:border-sky-400 dark:text-sky-300'
                : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'
            }`}
          >
            {label[id]}
          </button>
        ))}
      </div>
      <main>
        {VIEWS.map((id) => (
          <div
            key={id}
            id={`panel-${id}`}
            role="tabpanel"
            aria-labelledby={`tab-${id}`}
            hidden={view !== id}
            className="px-4 py-3"
          >
            {/* Both stay mounted: switching tabs keeps the list, the selection and a pasted link. */}
            {id === 'page' ? (
              <PageLinksList {...(now !== undefined ? { now } : {})} />
            ) : (
              <FounderPreview {...(now !== undefined ? { now } : {})} />
            )}
          </div>
        ))}
      </main>
    </div>
  );
}
