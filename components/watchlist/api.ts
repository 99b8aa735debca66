import { browser } from 'wxt/browser';
import type { SnapshotRequest } from '@/lib/core/schemas/results';
import type { WatchSettings } from '@/lib/core/watchlist/schedule';
import type { WatchChange, WatchPoint, WatchRecord } from '@/lib/core/watchlist/types';
import {
  requestWatchlistFocus,
  takeWatchlistFocus,
  watchWatchlistChanges,
  watchWatchlistFocus,
  type WatchlistFocus,
} from '@/lib/extension/watchlist-signals';
import { backgroundClient } from '@/lib/protocol/pages';

/**
 * Everything the watch toggle and the watchlist views read and do, behind one interface so component
 * tests can swap the background for a fake. The browser implementation speaks the pages protocol.
 */
export interface WatchlistApi {
  getWatch: (request: SnapshotRequest) => Promise<{ watch: WatchRecord | null; settings: WatchSettings }>;
  watch: (request: SnapshotRequest) => Promise<WatchRecord>;
  unwatch: (id: string) => Promise<{ removed: boolean }>;
  list: () => Promise<{ watches: WatchRecord[]; unreadable: number; settings: WatchSettings }>;
  history: (id: string) => Promise<{ watch: WatchRecord; points: WatchPoint[] }>;
  exportAll: () => Promise<{ watches: { watch: WatchRecord; points: WatchPoint[] }[] }>;
  /** One view. */
  refresh: (id: string) => Promise<{ watch: WatchRecord; changes: WatchChange[] }>;
  /** One view per active watch. */
  refreshAll: () => Promise<{ refreshed: number; ended: number; failed: number }>;
  setMuted: (id: string, muted: boolean) => Promise<WatchRecord>;
  clear: () => Promise<{ removed: number }>;
  /** Calls `onChange` when the background changed the watchlist (e.g. a scheduled refresh). */
  watchChanges: (onChange: () => void) => () => void;
  /** A company a notification click asked to show (read once), and later such requests. */
  takeFocus: () => Promise<WatchlistFocus | null>;
  watchFocus: (onRequest: () => void) => () => void;
  /**
   * Opens the side panel at the watchlist (from the popup). Calls the browser before anything is
   * awaited: call it synchronously from a click, browsers only allow it during a user gesture.
   */
  openSidePanel: (watchId: string | null) => Promise<void>;
}

let shared: WatchlistApi | undefined;

/** One browser implementation per page (for surfaces whose entrypoint does not pass one: the hover card). */
export function browserWatchlistApi(): WatchlistApi {
  return (shared ??= createBrowserWatchlistApi());
}

export function createBrowserWatchlistApi(): WatchlistApi {
  return {
    getWatch: (request) => backgroundClient.getWatch(request),
    watch: (request) => backgroundClient.watchLink(request),
    unwatch: (id) => backgroundClient.unwatchLink({ id }),
    list: () => backgroundClient.listWatches(),
    history: (id) => backgroundClient.getWatchHistory({ id }),
    exportAll: () => backgroundClient.exportWatchlist(),
    refresh: (id) => backgroundClient.refreshWatch({ id }),
    refreshAll: () => backgroundClient.refreshAllWatches(),
    setMuted: (id, muted) => backgroundClient.setWatchMuted({ id, muted }),
    clear: () => backgroundClient.clearWatchlist(),
    watchChanges: watchWatchlistChanges,
    takeFocus: () => takeWatchlistFocus(),
    watchFocus: watchWatchlistFocus,
    async openSidePanel(watchId) {
      const opened = import.meta.env.FIREFOX
        ? openFirefoxSidebar()
        : browser.sidePanel.open({ windowId: browser.windows.WINDOW_ID_CURRENT });
      await requestWatchlistFocus(watchId);
      await opened;
    },
  };
}

/** Firefox's `sidebarAction.open()`, which the Chrome types WXT ships do not describe. */
function openFirefoxSidebar(): Promise<unknown> {
  const sidebar: unknown = Reflect.get(browser, 'sidebarAction');
  if (typeof sidebar !== 'object' || sidebar === null || !('open' in sidebar) || typeof sidebar.open !== 'function') {
    return Promise.reject(new Error('No sidebar in this browser.'));
  }
  return Promise.resolve<unknown>(sidebar.open.call(sidebar));
}
