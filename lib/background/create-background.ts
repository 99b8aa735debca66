import { defineExtensionMessaging } from '@webext-core/messaging';
import type { WxtBrowser } from 'wxt/browser';
import { badgeTextFor } from '../core/i18n/badge';
import { changesPageSettings } from '../core/storage-keys';
import { resolveLanguage } from '../core/i18n/language';
import { getLinkRecognizer } from '../core/links';
import { spellingsOf, spellOutAliases } from '../core/services';
import { createSettingsStore, createWatchSettingsStore, getLanguagePreference, hasServicePermission } from '../extension';
import { cardMessenger, pagesMessenger, watchPageLinks, type ContentProtocolMap } from '../protocol';
import { createBadgeFrames, withBadgeUpdates } from './frames/badge-frames';
import { createCardRoutes, type PushToFrame } from './cards/card-routes';
import { listenWhile, type BrowserEvent } from './common';
import { startContentRegistration } from './content-scripts/content-registration';
import { startAnnotatorInFrame, startCardPresenterInFrame } from './frames/frame-start';
import { createHoverAllowance } from './cards/hover-allowance';
import { createLinkFrames } from './frames/link-frames';
import { createLinkFramesLocator, scriptingReports } from './frames/link-frames-locator';
import { registerMessageHandlers } from './messaging/messages';
import { createPageSettingsCopy } from './content-scripts/page-settings-copy';
import { createSnapshotService } from './snapshot-service';
import type { FetchLike } from './snapshot-service/http';
import { startWatchlist } from './watchlist/start';

/** The browser APIs the background uses: WXT's `browser`, or a fake of it in tests. */
export type BackgroundBrowser = Pick<
  WxtBrowser,
  'alarms' | 'i18n' | 'notifications' | 'runtime' | 'scripting' | 'storage' | 'tabs' | 'windows'
> & { sidePanel?: WxtBrowser['sidePanel'] | undefined };

export interface BackgroundOptions {
  fetch: FetchLike;
  isOnline: () => boolean;
}

export interface Background {
  /** Unregisters every message handler and listener this call added (tests; a worker never stops itself). */
  stop(): void;
}

/**
 * The background service worker, wired: the snapshot service (the only code that fetches), the card
 * routes, the frames' look, the watchlist, the runtime registrations, and the message handlers that
 * call them. Listeners that wake the worker are added at once, as MV3 requires.
 */
export function createBackground(browser: BackgroundBrowser, options: BackgroundOptions): Background {
  // One lifetime for everything this call registers: stop() ends it.
  const lifetime = new AbortController();
  const { signal } = lifetime;
  const onStop = (release: () => void) => signal.addEventListener('abort', release, { once: true });
  const listen = <Listener>(event: BrowserEvent<Listener>, listener: Listener) => listenWhile(signal, event, listener);
  const uiLanguage = () => browser.i18n.getUILanguage();
  const settings = createSettingsStore({ signal });
  // The content scripts' settings, where an annotator starting with the page reads them; rewritten
  // whenever what they are merged from changes, and once the policy is read.
  const getBadgeText = async () => badgeTextFor(await getLanguagePreference(), uiLanguage());
  // What the copy is made from, and what `getPageSettings` answers from.
  const contentSettingsSources = { getPageSettings: () => settings.getPageSettings(), getBadgeText };
  const pageSettingsCopy = createPageSettingsCopy(contentSettingsSources, browser.storage.local);
  void pageSettingsCopy.refresh();
  listen(browser.storage.onChanged, (changes: object, area: string) => {
    if (changesPageSettings(changes, area)) void pageSettingsCopy.refresh();
  });
  // Start the slow first read of the administrator policy now, not on the first hover. The onStartup
  // listener makes the browser start this worker when it starts, so the read is done before the
  // first mail page asks for settings (it took ~2.6 s in Chromium).
  const warmPolicy = () => void settings.getEffectiveSettings().then(() => pageSettingsCopy.refresh());
  warmPolicy();
  listen(browser.runtime.onStartup, warmPolicy);
  const contentMessenger = defineExtensionMessaging<ContentProtocolMap>();
  const push: PushToFrame = (type, data, frame) => contentMessenger.sendMessage(type, data, frame);
  const badgeFrames = createBadgeFrames(browser.storage.session);
  const snapshots = createSnapshotService({
    fetch: options.fetch,
    // Not waiting for the browser's first policy read when an earlier session's stands in (issue #33 item 10).
    getSettings: () => settings.getFetchSettings(),
    hasHostPermission: hasServicePermission,
    sessionArea: browser.storage.session,
    localArea: browser.storage.local,
  });
  // Every fetch, whoever asked for it, reaches every badge of its link.
  const service = withBadgeUpdates(snapshots, {
    frames: badgeFrames,
    push,
    words: getBadgeText,
    spellings: async (origin) => spellingsOf((await settings.getFetchSettings()).services, origin),
  });
  const hoverAllowance = createHoverAllowance({ area: browser.storage.session });
  const cards = createCardRoutes({
    area: browser.storage.session,
    service,
    // Its fetches are the ones `openCard` shares, which tell the badges; the card does not wait for them.
    cardPageService: snapshots,
    hoverAllowance,
    push,
    language: async () => resolveLanguage(await getLanguagePreference(), uiLanguage()),
    // From the settings content scripts get (not waiting for the browser's first policy read): only the
    // fetch itself waits for the policy, so a card can show that it loads meanwhile.
    canonicalOrigin: async (origin) => spellingsOf((await settings.getPageSettings()).services, origin)[0] ?? origin,
  });
  const linkFrames = createLinkFrames(browser.storage.session);
  // Frames that report share links, so the popup and side panel ask them too.
  onStop(watchPageLinks((tabId, frameId) => void linkFrames.add(tabId, frameId)));
  const watchSettings = createWatchSettingsStore();
  const watchlist = startWatchlist({
    signal,
    browser: {
      alarms: browser.alarms,
      notifications: browser.notifications,
      // Firefox has no sidePanel (its sidebar cannot be opened from a notification click): a tab instead.
      ...(browser.sidePanel ? { sidePanel: browser.sidePanel } : {}),
      windowId: browser.windows.WINDOW_ID_CURRENT,
      openTab: (url) => browser.tabs.create({ url }),
      sidePanelUrl: browser.runtime.getURL('/sidepanel.html'),
      iconUrl: browser.runtime.getURL('/notification-icon.png'),
      uiLanguage,
    },
    service,
    watchSettings,
    getRequestBudget: async () => (await settings.getEffectiveSettings()).requestBudgetPerMinute,
    isOnline: options.isOnline,
  });
  const linkFramesLocator = createLinkFramesLocator({
    ...scriptingReports(browser.scripting),
    getRecognizer: async () => getLinkRecognizer(spellOutAliases((await settings.getPageSettings()).services)),
    startAnnotator: (frame) => startAnnotatorInFrame(browser.scripting, frame),
  });

  onStop(
    registerMessageHandlers(
      {
        service,
        getSettings: () => settings.getEffectiveSettings(),
        ...contentSettingsSources,
        cards,
        badgeFrames,
        linkFrames,
        linkFramesLocator,
        loadCardPresenter: (frame) => startCardPresenterInFrame(browser.scripting, frame),
        watchlist,
        getWatchSettings: () => watchSettings.get(),
        // Not `new URL(…).origin`: outside a browser (tests) a chrome-extension: URL has the origin "null".
        extensionOrigin: browser.runtime.getURL('/').replace(/\/$/, ''),
      },
      { content: contentMessenger, pages: pagesMessenger, card: cardMessenger },
    ),
  );
  listen(browser.tabs.onRemoved, (tabId: number) => {
    void cards.forgetTab(tabId);
    void hoverAllowance.forget(tabId);
    void linkFrames.forget(tabId);
    void badgeFrames.forgetTab(tabId);
    // Not on a move to another address: a page can change its address at will (history.pushState).
    linkFramesLocator.forget(tabId);
  });
  // A new page in the tab: the frames of the old one are gone.
  listen(browser.tabs.onUpdated, (tabId: number, change: { url?: string }) => {
    if (change.url === undefined) return;
    void linkFrames.forget(tabId);
    void badgeFrames.forgetTab(tabId);
  });
  // The annotator on the user's extra sites (enabledSites), registered at runtime.
  const registration = startContentRegistration({ scripting: browser.scripting, settings });
  onStop(() => registration.stop());
  // Snapshot data is confidential: turning persistence off removes what was kept on disk.
  onStop(
    settings.watch((next) => {
      if (!next.persistCache) void service.clearCache('local');
    }),
  );
  return { stop: () => lifetime.abort() };
}
