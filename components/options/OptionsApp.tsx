import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { StoredLanguageProvider } from '../i18n';
import type { OptionsApi } from './api';
import { OptionsApiProvider } from './context';
import { OptionsPage } from './OptionsPage';

export function createOptionsQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Local storage and the background answer fast; a failure is shown, not hidden behind retries.
      queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 5_000 },
      mutations: { retry: false },
    },
  });
}

/** The whole options page with its providers; tests render it with a fake `api`. */
export function OptionsApp({ api, queryClient }: { api: OptionsApi; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createOptionsQueryClient());
  return (
    <QueryClientProvider client={client}>
      <OptionsApiProvider api={api}>
        <StoredLanguageProvider>
          <OptionsPage />
        </StoredLanguageProvider>
      </OptionsApiProvider>
    </QueryClientProvider>
  );
}
