import type { CardRoutes } from '@/lib/background/cards/card-routes';
import type { Watchlist } from '@/lib/background/watchlist/watchlist';

/** For handler tests that do not reach the watchlist: every call rejects. */
export function unusedWatchlist(): Watchlist {
  const unused = () => Promise.reject(new Error('not used by these tests'));
  return {
    list: unused,
    find: unused,
    watch: unused,
    unwatch: unused,
    history: unused,
    refresh: unused,
    refreshAll: unused,
    setMuted: unused,
    exportAll: unused,
    clear: unused,
    cadenceChanged: unused,
    tick: unused,
    reschedule: unused,
  };
}

/** For handler tests that do not reach the card: every call rejects. */
export function unusedCards(): CardRoutes {
  const unused = () => Promise.reject(new Error('not used by these tests'));
  return {
    open: unused,
    warm: unused,
    linksShown: unused,
    awaitCard: unused,
    move: unused,
    close: unused,
    relayEvent: unused,
    check: unused,
    forgetTab: unused,
  };
}
