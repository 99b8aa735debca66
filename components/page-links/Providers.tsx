import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { StoredLanguageProvider, useI18n } from '../i18n';
import type { PageLinksApi } from './api';
import { PageLinksApiProvider } from './context';

export function createPageLinksQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The background and the tab answer locally and fast: show a failure instead of retrying it.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** Keeps `<html lang>` and the document title in the chosen language. */
export function DocumentLanguage({ title }: { title: string }) {
  const { language } = useI18n();
  useEffect(() => {
    document.documentElement.lang = language;
    document.title = title;
  }, [language, title]);
  return null;
}

/** Providers shared by the popup and the side panel; tests render them with a fake `api`. */
export function PageLinksProviders({
  api,
  queryClient,
  children,
}: {
  api: PageLinksApi;
  queryClient?: QueryClient;
  children: ReactNode;
}) {
  const [client] = useState(() => queryClient ?? createPageLinksQueryClient());
  return (
    <QueryClientProvider client={client}>
      <PageLinksApiProvider api={api}>
        <StoredLanguageProvider>{children}</StoredLanguageProvider>
      </PageLinksApiProvider>
    </QueryClientProvider>
  );
}
