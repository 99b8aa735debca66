import { createContext, useContext, type ReactNode } from 'react';
import type { OptionsApi } from './api';

const OptionsApiContext = createContext<OptionsApi | null>(null);

export function OptionsApiProvider({ api, children }: { api: OptionsApi; children: ReactNode }) {
  return <OptionsApiContext.Provider value={api}>{children}</OptionsApiContext.Provider>;
}

export function useOptionsApi(): OptionsApi {
  const api = useContext(OptionsApiContext);
  if (!api) throw new Error('useOptionsApi needs an <OptionsApiProvider> above it.');
  return api;
}
