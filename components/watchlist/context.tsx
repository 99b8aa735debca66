import { createContext, useContext, type ReactNode } from 'react';
import type { WatchlistApi } from './api';

/** null: no watchlist here (a surface rendered without one, e.g. in older tests): watch controls hide. */
const WatchlistApiContext = createContext<WatchlistApi | null>(null);

export function WatchlistApiProvider({ api, children }: { api: WatchlistApi; children: ReactNode }) {
  return <WatchlistApiContext.Provider value={api}>{children}</WatchlistApiContext.Provider>;
}

export function useWatchlistApi(): WatchlistApi | null {
  return useContext(WatchlistApiContext);
}
