import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { startWatchlist } from '@/lib/background/watchlist/start';
import { WATCH_ALARM } from '@/lib/background/watchlist/watchlist';
import { createWatchSettingsStore } from '@/lib/extension/watch-settings';
import { takeWatchlistFocus } from '@/lib/extension/watchlist-signals';
import { createHarness, flush, ORIGIN } from '../snapshot-service/helpers';
import { fixtureToken } from '@/test/fixtures/snapshot';

/** The wiring the background entrypoint does: listeners, settings changes, the alarm at start. */

const link = { origin: ORIGIN, token: fixtureToken(1) };

function start(signal = new AbortController().signal) {
  const harness = createHarness();
  const watchSettings = createWatchSettingsStore();
  const openTab = vi.fn(async (_url: string) => undefined);
  const watchlist = startWatchlist({
    signal,
    browser: {
      alarms: fakeBrowser.alarms,
      notifications: fakeBrowser.notifications,
      windowId: -2,
      openTab,
      sidePanelUrl: 'chrome-extension://id/sidepanel.html',
      iconUrl: 'chrome-extension://id/notification-icon.png',
      uiLanguage: () => 'fr-FR',
    },
    service: harness.service,
    watchSettings,
    getRequestBudget: async () => 30,
    isOnline: () => true,
  });
  return { ...harness, watchlist, watchSettings, openTab };
}

beforeEach(() => {
  fakeBrowser.reset();
  globalThis.indexedDB = new IDBFactory();
});

describe('startWatchlist', () => {
  it('a new cadence re-times the watches and the alarm; switching notifications does not', async () => {
    const { watchlist, watchSettings, service } = start();
    await service.getSnapshot(link);
    const watch = await watchlist.watch(link);
    const alarm = async () => (await fakeBrowser.alarms.get(WATCH_ALARM))?.scheduledTime;
    expect(await alarm()).toBe(watch.nextDueAt);

    await watchSettings.update({ notifications: false });
    await flush();
    expect((await watchlist.find(link))?.nextDueAt).toBe(watch.nextDueAt);

    await watchSettings.update({ cadence: 'manual' });
    await vi.waitFor(async () => expect((await watchlist.find(link))?.nextDueAt).toBeNull());
    await vi.waitFor(async () => expect(await alarm()).toBeUndefined());

    await watchSettings.update({ cadence: 'weekly' });
    await vi.waitFor(async () =>
      expect((await watchlist.find(link))?.nextDueAt).toBeGreaterThanOrEqual((watch.lastRefreshAt ?? 0) + 7 * 86_400_000),
    );
    await vi.waitFor(async () => expect(await alarm()).toBeDefined());
  });

  it('the alarm firing runs a round; a click on our notification opens the watchlist at that company (a tab: no side panel here)', async () => {
    const { watchlist, openTab, fetch } = start();
    const watch = await watchlist.watch(link);
    await fakeBrowser.alarms.onAlarm.trigger({ name: 'someone-else', scheduledTime: 0, persistAcrossSessions: false });
    await fakeBrowser.alarms.onAlarm.trigger({ name: WATCH_ALARM, scheduledTime: 0, persistAcrossSessions: false });
    await flush();
    // Not due yet: the round looked and fetched nothing.
    expect(fetch).not.toHaveBeenCalled();

    await fakeBrowser.notifications.onClicked.trigger(`compliance-lens-watchlist:${watch.id}`);
    await vi.waitFor(() => expect(openTab).toHaveBeenCalledWith('chrome-extension://id/sidepanel.html#watchlist'));
    expect((await takeWatchlistFocus())?.watchId).toBe(watch.id);
  });

  it('its alarm, notification-click and settings listeners are released when its lifetime ends', async () => {
    const lifetime = new AbortController();
    const { watchlist, watchSettings, service } = start(lifetime.signal);
    await service.getSnapshot(link);
    const watch = await watchlist.watch(link);
    expect([fakeBrowser.alarms.onAlarm.hasListeners(), fakeBrowser.notifications.onClicked.hasListeners()]).toEqual([true, true]);
    lifetime.abort();
    expect([fakeBrowser.alarms.onAlarm.hasListeners(), fakeBrowser.notifications.onClicked.hasListeners()]).toEqual([
      false,
      false,
    ]);
    // A new cadence no longer re-times the watches.
    await watchSettings.update({ cadence: 'manual' });
    await flush();
    expect((await watchlist.find(link))?.nextDueAt).toBe(watch.nextDueAt);
  });
});
