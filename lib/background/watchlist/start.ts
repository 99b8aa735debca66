import { localeFor, resolveLanguage } from '../../core/i18n/language';
import { createTranslator } from '../../core/i18n/translator';
import { watchlistCatalogs } from '../../core/i18n/watchlist';
import { getLanguagePreference } from '../../extension/language-preference';
import { markWatchlistChanged, requestWatchlistFocus } from '../../extension/watchlist-signals';
import type { WatchSettings } from '../../core/watchlist/schedule';
import type { WatchSettingsStore } from '../../extension/watch-settings';
import { listenWhile, type BrowserEvent } from '../common';
import type { SnapshotService } from '../snapshot-service/service';
import { createNotifier, onNotificationClicked, type NotificationsLike, type OpenWatchlistDeps } from './notify';
import { deferredWatchStore } from './store';
import { createWatchlist, WATCH_ALARM, type AlarmsLike, type Watchlist } from './watchlist';

/** The browser APIs the watchlist uses, passed in by the background entrypoint. */
export interface WatchlistBrowser {
  alarms: AlarmsLike & { onAlarm: BrowserEvent<(alarm: { name: string }) => void> };
  notifications: NotificationsLike & { onClicked: BrowserEvent<(notificationId: string) => void> };
  /** Chrome's side panel; undefined on Firefox (see notify.ts). */
  sidePanel?: OpenWatchlistDeps['sidePanel'];
  windowId: number;
  openTab: (url: string) => Promise<unknown>;
  /** `runtime.getURL('/sidepanel.html')`, `runtime.getURL('/notification-icon.png')`. */
  sidePanelUrl: string;
  iconUrl: string;
  uiLanguage: () => string | undefined;
}

export interface StartWatchlistDeps {
  /** Its listeners are released when this aborts (the background's lifetime). */
  signal: AbortSignal;
  browser: WatchlistBrowser;
  service: SnapshotService;
  watchSettings: WatchSettingsStore;
  getRequestBudget: () => Promise<number>;
  isOnline: () => boolean;
}

/**
 * Wires the watchlist into the worker: its store (opened on first use), the alarm and notification
 * listeners (registered at once, as MV3 requires for events that wake the worker), and the alarm set
 * again from the stored due times each time the worker starts.
 */
export function startWatchlist({
  signal,
  browser,
  service,
  watchSettings,
  getRequestBudget,
  isOnline,
}: StartWatchlistDeps): Watchlist {
  const translator = async () => {
    const ui = browser.uiLanguage();
    const language = resolveLanguage(await getLanguagePreference(), ui);
    return createTranslator(watchlistCatalogs, language, localeFor(language, ui));
  };
  const watchlist = createWatchlist({
    store: deferredWatchStore(),
    service,
    getSettings: () => watchSettings.get(),
    getRequestBudget,
    alarms: browser.alarms,
    notify: createNotifier({ notifications: browser.notifications, iconUrl: browser.iconUrl, translator }),
    isOnline,
    changed: () => markWatchlistChanged(),
  });
  listenWhile(signal, browser.alarms.onAlarm, (alarm) => {
    if (alarm.name === WATCH_ALARM) void watchlist.tick();
  });
  listenWhile(signal, browser.notifications.onClicked, (notificationId) => {
    onNotificationClicked(notificationId, {
      ...(browser.sidePanel ? { sidePanel: browser.sidePanel } : {}),
      windowId: browser.windowId,
      openTab: browser.openTab,
      pageUrl: browser.sidePanelUrl,
      requestFocus: (watchId) => requestWatchlistFocus(watchId),
      clear: (id) => browser.notifications.clear(id),
    });
  });
  // Only a new cadence re-times the watches (switching notifications on or off leaves them be).
  const cadenceOf = (settings: WatchSettings) => `${settings.cadence}/${settings.intervalSeconds}`;
  let cadence: string | undefined;
  void watchSettings.get().then((settings) => (cadence ??= cadenceOf(settings)));
  const unwatch = watchSettings.watch((settings) => {
    if (cadenceOf(settings) === cadence) return;
    cadence = cadenceOf(settings);
    void watchlist.cadenceChanged().catch(() => undefined);
  });
  signal.addEventListener('abort', unwatch, { once: true });
  void watchlist.reschedule().catch(() => undefined);
  return watchlist;
}
