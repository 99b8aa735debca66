import { createContext, useContext, type ReactNode } from 'react';
import type { PageLinksApi } from './api';

const PageLinksApiContext = createContext<PageLinksApi | null>(null);

export function PageLinksApiProvider({ api, children }: { api: PageLinksApi; children: ReactNode }) {
  return <PageLinksApiContext.Provider value={api}>{children}</PageLinksApiContext.Provider>;
}

export function usePageLinksApi(): PageLinksApi {
  const api = useContext(PageLinksApiContext);
  if (!api) throw new Error('usePageLinksApi needs a <PageLinksApiProvider> above it.');
  return api;
}
