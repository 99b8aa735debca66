import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DEFAULT_WATCH_SETTINGS } from '@/lib/core/watchlist/schedule';
import { takeWatchlistFocus, requestWatchlistFocus } from '@/lib/extension/watchlist-signals';
import { createWatchSettingsStore, defineWatchSettingsItem } from '@/lib/extension/watch-settings';

beforeEach(() => fakeBrowser.reset());

describe('watch settings', () => {
  it('defaults to daily with notifications on', async () => {
    expect(await createWatchSettingsStore().get()).toEqual(DEFAULT_WATCH_SETTINGS);
  });

  it('writes valid values and refuses others, naming the field, without losing the stored ones', async () => {
    const store = createWatchSettingsStore();
    expect(await store.update({ cadence: 'weekly', notifications: false })).toMatchObject({
      cadence: 'weekly',
      notifications: false,
    });
    await expect(store.update({ intervalSeconds: 5 })).rejects.toThrow(/intervalSeconds/);
    expect(await store.get()).toMatchObject({ cadence: 'weekly', notifications: false });
  });

  it('reads a corrupt field as its default, keeping the rest', async () => {
    await fakeBrowser.storage.local.set({ watchSettings: { cadence: 'hourly', intervalSeconds: 45, notifications: false } });
    expect(await createWatchSettingsStore(defineWatchSettingsItem()).get()).toEqual({
      cadence: 'daily',
      intervalSeconds: 45,
      notifications: false,
    });
  });

  it('an interval set in storage (as end-to-end tests do) is what the background reads', async () => {
    await fakeBrowser.storage.local.set({ watchSettings: { cadence: 'interval', intervalSeconds: 30, notifications: true } });
    expect((await createWatchSettingsStore().get()).cadence).toBe('interval');
  });
});

describe('watchlist focus requests', () => {
  it('is read once, and not when stale', async () => {
    await requestWatchlistFocus('abc', 1_000);
    expect(await takeWatchlistFocus(2_000)).toEqual({ watchId: 'abc', at: 1_000 });
    expect(await takeWatchlistFocus(2_000)).toBeNull();
    await requestWatchlistFocus(null, 1_000);
    expect(await takeWatchlistFocus(1_000 + 61_000)).toBeNull();
  });
});
