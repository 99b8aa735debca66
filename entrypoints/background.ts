import { defineExtensionMessaging } from '@webext-core/messaging';
import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import {
  createCardBindings,
  createHoverAllowance,
  createLinkFrames,
  createLinkFramesLocator,
  scriptingReports,
  createSnapshotService,
  registerMessageHandlers,
  startAnnotatorInFrame,
  startContentRegistration,
  startWatchlist,
} from '@/lib/background';
import { badgeTextFor } from '@/lib/core/i18n/badge';
import { getLinkRecognizer } from '@/lib/core/links';
import { createSettingsStore, createWatchSettingsStore, getLanguagePreference, hasServicePermission } from '@/lib/extension';
import { cardMessenger, pagesMessenger, watchPageLinks, type ContentProtocolMap } from '@/lib/protocol';

// Wiring only: the logic lives in lib/background (snapshot service, watchlist, handlers, registration).
export default defineBackground(() => {
  const settings = createSettingsStore();
  // Start the slow first read of the administrator policy now, not on the first hover. The onStartup
  // listener makes the browser start this worker when it starts, so the read is done before the
  // first mail page asks for settings (it took ~2.6 s in Chromium).
  const warmPolicy = () => void settings.getEffectiveSettings();
  warmPolicy();
  browser.runtime.onStartup.addListener(warmPolicy);
  const service = createSnapshotService({
    fetch: (input, init) => fetch(input, init),
    getSettings: () => settings.getEffectiveSettings(),
    hasHostPermission: hasServicePermission,
    sessionArea: browser.storage.session,
    localArea: browser.storage.local,
  });
  const cardBindings = createCardBindings({ area: browser.storage.session });
  const hoverAllowance = createHoverAllowance({ area: browser.storage.session });
  const contentMessenger = defineExtensionMessaging<ContentProtocolMap>();
  const linkFrames = createLinkFrames(browser.storage.session);
  // Frames that report share links, so the popup and side panel ask them too.
  watchPageLinks((tabId, frameId) => void linkFrames.add(tabId, frameId));
  const watchSettings = createWatchSettingsStore();
  const watchlist = startWatchlist({
    browser: {
      alarms: browser.alarms,
      notifications: browser.notifications,
      // Firefox has no sidePanel (its sidebar cannot be opened from a notification click): a tab instead.
      ...(import.meta.env.FIREFOX ? {} : { sidePanel: browser.sidePanel }),
      windowId: browser.windows.WINDOW_ID_CURRENT,
      openTab: (url) => browser.tabs.create({ url }),
      sidePanelUrl: browser.runtime.getURL('/sidepanel.html'),
      iconUrl: browser.runtime.getURL('/notification-icon.png'),
      uiLanguage: () => browser.i18n.getUILanguage(),
    },
    service,
    watchSettings,
    getRequestBudget: async () => (await settings.getEffectiveSettings()).requestBudgetPerMinute,
    isOnline: () => navigator.onLine,
  });

  const linkFramesLocator = createLinkFramesLocator({
    ...scriptingReports(browser.scripting),
    getRecognizer: async () => getLinkRecognizer((await settings.getPageSettings()).services),
    startAnnotator: (frame) => startAnnotatorInFrame(browser.scripting, frame),
  });

  registerMessageHandlers(
    {
      service,
      getSettings: () => settings.getEffectiveSettings(),
      getPageSettings: () => settings.getPageSettings(),
      getBadgeText: async () => badgeTextFor(await getLanguagePreference(), browser.i18n.getUILanguage()),
      cardBindings,
      hoverAllowance,
      linkFrames,
      linkFramesLocator,
      tellFrame: (type, data, frame) => contentMessenger.sendMessage(type, data, frame),
      watchlist,
      getWatchSettings: () => watchSettings.get(),
      extensionOrigin: new URL(browser.runtime.getURL('/')).origin,
    },
    { content: contentMessenger, pages: pagesMessenger, card: cardMessenger },
  );
  browser.tabs.onRemoved.addListener((tabId) => {
    void cardBindings.close(tabId);
    void hoverAllowance.forget(tabId);
    void linkFrames.forget(tabId);
  });
  // A new page in the tab: the frames of the old one are gone.
  browser.tabs.onUpdated.addListener((tabId, change) => {
    if (change.url !== undefined) void linkFrames.forget(tabId);
  });
  // The annotator on the user's extra sites (enabledSites), registered at runtime.
  startContentRegistration({ scripting: browser.scripting, settings });
  // Snapshot data is confidential: turning persistence off removes what was kept on disk.
  settings.watch((next) => {
    if (!next.persistCache) void service.clearCache('local');
  });
});
