import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createBadgeFrames } from '@/lib/background/frames/badge-frames';
import { createLinkFrames } from '@/lib/background/frames/link-frames';
import { createPagesHandlers } from '@/lib/background/messaging/messages';
import { ForbiddenSenderError, InvalidMessageError } from '@/lib/background/messaging/serve';
import { pagesProtocol } from '@/lib/protocol/pages';
import { link, watchlistHarness, type WatchlistHarness } from './helpers';
import { unusedCards } from './stubs';

const EXTENSION_ORIGIN = 'chrome-extension://test-extension-id';
const sidePanel = { id: 'test-extension-id', url: `${EXTENSION_ORIGIN}/sidepanel.html` };
const cardInTab = { id: 'test-extension-id', url: `${EXTENSION_ORIGIN}/card.html`, tab: { id: 4 }, frameId: 3 };
const contentScript = { id: 'test-extension-id', url: 'https://mail.example.com/', tab: { id: 4 }, frameId: 0 };
const UNKNOWN_ID = '00000000-0000-4000-8000-999999999999';

let h: WatchlistHarness;
let pages: ReturnType<typeof createPagesHandlers>;
beforeEach(async () => {
  fakeBrowser.reset();
  h = await watchlistHarness();
  pages = createPagesHandlers({
    service: h.service,
    getSettings: () => Promise.reject(new Error('unused')),
    getPageSettings: () => Promise.reject(new Error('unused')),
    getBadgeText: () => Promise.reject(new Error('unused')),
    cards: unusedCards(),
    badgeFrames: createBadgeFrames(fakeBrowser.storage.session),
    linkFrames: createLinkFrames(fakeBrowser.storage.session),
    linkFramesLocator: { locate: () => Promise.reject(new Error('unused')), forget: () => undefined },
    loadCardPresenter: () => Promise.reject(new Error('unused')),
    watchlist: h.watchlist,
    getWatchSettings: async () => h.settings,
    extensionOrigin: EXTENSION_ORIGIN,
  });
});
afterEach(() => h.store.close());

describe('watchlist messages', () => {
  it('a page watches a link it shows (from the card too), lists it, refreshes it, mutes it, exports and unwatches it', async () => {
    await h.service.getSnapshot(link(1));

    const watched = pagesProtocol.watchLink.output.parse(await pages.watchLink(link(1), cardInTab));
    expect(pagesProtocol.getWatch.output.parse(await pages.getWatch(link(1), sidePanel))).toEqual({
      watch: watched,
      settings: h.settings,
    });
    expect(pagesProtocol.getWatch.output.parse(await pages.getWatch(link(2), sidePanel)).watch).toBeNull();
    expect(pagesProtocol.listWatches.output.parse(await pages.listWatches(undefined, sidePanel))).toEqual({
      watches: [watched],
      unreadable: 0,
      settings: h.settings,
    });

    h.answers.set(link(1).token, { readiness: 80 });
    await h.clock.advance(60_000);
    const refreshed = pagesProtocol.refreshWatch.output.parse(await pages.refreshWatch({ id: watched.id }, sidePanel));
    expect(refreshed.changes.map((change) => change.kind)).toEqual(['label', 'readiness']);
    await h.clock.advance(60_000);
    expect(pagesProtocol.refreshAllWatches.output.parse(await pages.refreshAllWatches(undefined, sidePanel))).toEqual({
      refreshed: 1,
      ended: 0,
      failed: 0,
    });
    expect(
      pagesProtocol.setWatchMuted.output.parse(await pages.setWatchMuted({ id: watched.id, muted: true }, sidePanel)).muted,
    ).toBe(true);
    const history = pagesProtocol.getWatchHistory.output.parse(await pages.getWatchHistory({ id: watched.id }, sidePanel));
    expect(history.points.map((point) => point.source)).toEqual(['watch', 'user', 'user']);
    const exported = pagesProtocol.exportWatchlist.output.parse(await pages.exportWatchlist(undefined, sidePanel));
    expect(exported.watches[0]?.points).toEqual(history.points);

    expect(await pages.unwatchLink({ id: watched.id }, sidePanel)).toEqual({ removed: true });
    expect(await pages.clearWatchlist(undefined, sidePanel)).toEqual({ removed: 0 });
    // Three fetches in all: the hover, the refresh and "refresh all". Watching cost none.
    expect(h.fetchesOf(1)).toBe(3);
  });

  const malformed: [keyof typeof pagesProtocol, unknown][] = [
    ['watchLink', { origin: link(1).origin }],
    ['watchLink', 'http://localhost:8787/share/x'],
    ['getWatch', null],
    ['unwatchLink', { id: 'not-a-watch-id' }],
    ['unwatchLink', { id: UNKNOWN_ID, extra: true }],
    ['refreshWatch', { id: 42 }],
    ['getWatchHistory', {}],
    ['setWatchMuted', { id: UNKNOWN_ID, muted: 'yes' }],
    ['listWatches', { all: true }],
    ['clearWatchlist', { confirm: true }],
    ['refreshAllWatches', []],
  ];
  it.each(malformed)('%s refuses %j with InvalidMessageError and does nothing', async (type, data) => {
    const handler = pages[type] as (data: unknown, sender: unknown) => Promise<unknown>;
    await expect(handler(data, sidePanel)).rejects.toBeInstanceOf(InvalidMessageError);
    expect(h.fetch).not.toHaveBeenCalled();
    expect((await h.watchlist.list()).records).toEqual([]);
  });

  it.each(['watchLink', 'getWatch', 'listWatches', 'refreshAllWatches', 'clearWatchlist', 'exportWatchlist'] as const)(
    '%s is for extension pages only: a content script gets ForbiddenSenderError',
    async (type) => {
      const handler = pages[type] as (data: unknown, sender: unknown) => Promise<unknown>;
      const input = type === 'watchLink' || type === 'getWatch' ? link(1) : undefined;
      await expect(handler(input, contentScript)).rejects.toBeInstanceOf(ForbiddenSenderError);
      expect(h.fetch).not.toHaveBeenCalled();
    },
  );

  it('an id that is not in the watchlist gets a clear error', async () => {
    await expect(pages.refreshWatch({ id: UNKNOWN_ID }, sidePanel)).rejects.toThrow(/not in the watchlist/);
    await expect(pages.setWatchMuted({ id: UNKNOWN_ID, muted: true }, sidePanel)).rejects.toThrow(/not in the watchlist/);
    expect(await pages.unwatchLink({ id: UNKNOWN_ID }, sidePanel)).toEqual({ removed: false });
  });
});
