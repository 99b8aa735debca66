import { describe, expect, it } from 'vitest';
import { createCardBindings } from '@/lib/background/card-binding';
import { createHoverAllowance } from '@/lib/background/hover-allowance';
import { createLinkFrames } from '@/lib/background/link-frames';
import {
  createCardHandlers,
  createContentHandlers,
  createPagesHandlers,
  type MessageHandlerDeps,
} from '@/lib/background/messages';
import type { SnapshotService } from '@/lib/background/snapshot-service';
import type { StorageAreaAdapter } from '@/lib/background/snapshot-service/storage-area';
import { HOVER_FETCHES_PER_MINUTE, MAX_PEEK_BATCH } from '@/lib/core/limits';
import { isRecord } from '@/lib/core/guards';
import { snapshotResultSchema, type SnapshotResult } from '@/lib/core/schemas/results';
import { buildSnapshot, FIXTURE_TOKEN } from '@/test/fixtures/snapshot';
import { unusedWatchlist } from './watchlist/stubs';

interface Push {
  type: string;
  data: unknown;
  tabId: number;
  frameId: number;
}

describe('card binding in the background', () => {
  function memoryArea(): StorageAreaAdapter & { data: Record<string, unknown> } {
    const data: Record<string, unknown> = {};
    return {
      data,
      async get(keys) {
        return Object.fromEntries(keys.filter((key) => key in data).map((key) => [key, data[key]]));
      },
      async set(items) {
        Object.assign(data, items);
      },
      async remove(keys) {
        for (const key of keys) delete data[key];
      },
    };
  }
  const extensionOrigin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
  const contentScript = (tabId: number) => ({ tab: { id: tabId }, frameId: 0, url: 'https://mail.google.com/mail/u/0/' });
  const cardPage = (tabId: number) => ({ tab: { id: tabId }, frameId: 7, url: `${extensionOrigin}/card.html` });
  const request = { origin: 'https://comply.example', token: FIXTURE_TOKEN };

  /** The background's handlers over a memory area and a service that only peeks. */
  function handlers(
    peek: SnapshotService['peek'] = async () => null,
    binding: { claimWithinMs?: number; now?: () => number } = {},
    /** Frames of the tab where nothing answers a push (no content script there, or the frame is gone). */
    silentFrames: number[] = [],
    /** How long a push takes to arrive (resolves when it has). */
    transit: (push: Push) => Promise<void> = async () => undefined,
  ) {
    const unused = () => Promise.reject(new Error('not used by these tests'));
    const service: SnapshotService = {
      peek,
      getSnapshot: unused,
      refresh: unused,
      refreshInBackground: unused,
      listCached: unused,
      clearCache: unused,
    };
    const pushes: Push[] = [];
    const area = memoryArea();
    const deps: MessageHandlerDeps = {
      service,
      getSettings: unused,
      getPageSettings: unused,
      getBadgeText: unused,
      cardBindings: createCardBindings({ area, ...binding }),
      hoverAllowance: createHoverAllowance({ area, ...(binding.now ? { now: binding.now } : {}) }),
      linkFrames: createLinkFrames(area),
      linkFramesLocator: { locate: unused },
      async tellFrame(type, data, frame) {
        await transit({ type, data, ...frame });
        pushes.push({ type, data, ...frame });
        if (silentFrames.includes(frame.frameId))
          throw new Error('Could not establish connection. Receiving end does not exist.');
      },
      watchlist: unusedWatchlist(),
      getWatchSettings: unused,
      extensionOrigin,
    };
    const replaced = () =>
      pushes.filter((push) => push.type === 'cardReplaced').map(({ tabId, frameId }) => ({ tabId, frameId }));
    return { ...createContentHandlers(deps), ...createPagesHandlers(deps), ...createCardHandlers(deps), pushes, replaced };
  }
  const readySnapshot = () => ({
    status: 'ready',
    snapshot: buildSnapshot({ scores: { readiness_score: 95, fundraise_score: 90 } }),
    meta: { token_status: 'active', view_count: 3 },
    fetchedAt: 1,
    fromCache: true,
  });
  const NONCE = 'a'.repeat(32);
  const OTHER_NONCE = 'b'.repeat(32);
  const open = (nonce = NONCE, intent: 'hover' | 'keyboard' | 'click' = 'keyboard') => ({ ...request, nonce, intent });

  it('answers the card page that claims with the nonce of its own tab, once; nothing for other tabs or nonces', async () => {
    const background = handlers();
    expect(await background.openCard(open(), contentScript(5))).toEqual({ fetch: true, inTop: false });
    expect(await background.claimCard({ nonce: NONCE }, cardPage(6))).toBeNull(); // another tab
    expect(await background.claimCard({ nonce: OTHER_NONCE }, cardPage(5))).toBeNull(); // a guess
    expect(await background.claimCard({ nonce: NONCE }, cardPage(5))).toEqual({ request, fetch: true });
    // Security finding 1: a second card page in the tab (one the page framed itself) gets nothing.
    expect(await background.claimCard({ nonce: NONCE }, cardPage(5))).toBeNull();
  });

  it('a copy of the card page framed before the real one claims nothing without the nonce (finding 1)', async () => {
    const background = handlers();
    await background.openCard(open(), contentScript(5));
    await expect(background.claimCard({ nonce: '' }, cardPage(5))).rejects.toThrow(/Malformed/);
    expect(await background.claimCard({ nonce: OTHER_NONCE }, cardPage(5))).toBeNull();
    expect(await background.claimCard({ nonce: NONCE }, cardPage(5))).toEqual({ request, fetch: true }); // the real card still can
  });

  it('closing a card forgets its binding, but not a newer card of the same tab', async () => {
    const background = handlers();
    await background.openCard(open(NONCE), contentScript(5));
    await background.openCard(open(OTHER_NONCE), contentScript(5));
    await background.closeCard({ nonce: NONCE }, contentScript(5)); // the old card's late close
    expect(await background.claimCard({ nonce: OTHER_NONCE }, cardPage(5))).toEqual({ request, fetch: true });
    await background.openCard(open(NONCE), contentScript(5));
    await background.closeCard({ nonce: NONCE }, contentScript(5));
    expect(await background.claimCard({ nonce: NONCE }, cardPage(5))).toBeNull();
  });

  it('one card per tab: a frame opening its card tells the frame whose card it replaces', async () => {
    const background = handlers();
    await background.openCard(open(NONCE), { ...contentScript(5), frameId: 0 });
    await background.openCard(open(OTHER_NONCE), { ...contentScript(5), frameId: 3 });
    await background.openCard(open(NONCE), { ...contentScript(5), frameId: 3 }); // the same frame again: nobody to tell
    expect(background.replaced()).toEqual([{ tabId: 5, frameId: 0 }]);
  });

  it("hover fetches an uncached link only within the tab's allowance; keys, clicks and cached links always (finding 6)", async () => {
    let cached = false;
    const background = handlers(async () => (cached ? snapshotResultSchema.parse(readySnapshot()) : null));
    const hovers: boolean[] = [];
    for (let i = 0; i < HOVER_FETCHES_PER_MINUTE + 2; i += 1)
      hovers.push((await background.openCard(open(NONCE, 'hover'), contentScript(5))).fetch);
    expect(hovers.filter(Boolean)).toHaveLength(HOVER_FETCHES_PER_MINUTE);
    expect(hovers.slice(-2)).toEqual([false, false]);
    expect(await background.openCard(open(NONCE, 'hover'), contentScript(6))).toEqual({ fetch: true, inTop: false }); // another tab
    expect(await background.openCard(open(NONCE, 'click'), contentScript(5))).toEqual({ fetch: true, inTop: false });
    expect(await background.openCard(open(NONCE, 'keyboard'), contentScript(5))).toEqual({ fetch: true, inTop: false });
    cached = true;
    expect(await background.openCard(open(NONCE, 'hover'), contentScript(5))).toEqual({ fetch: true, inTop: false });
    // The card page learns it too.
    cached = false;
    await background.openCard(open(OTHER_NONCE, 'hover'), contentScript(5));
    expect(await background.claimCard({ nonce: OTHER_NONCE }, cardPage(5))).toEqual({ request, fetch: false });
  });

  it('hovers arriving at once from several frames of a tab share one allowance', async () => {
    const background = handlers();
    const answers = await Promise.all(
      Array.from({ length: HOVER_FETCHES_PER_MINUTE + 5 }, (_, frameId) =>
        background.openCard(open(NONCE, 'hover'), { ...contentScript(5), frameId }),
      ),
    );
    expect(answers.filter((answer) => answer.fetch)).toHaveLength(HOVER_FETCHES_PER_MINUTE);
  });

  it('the hover allowance frees up as the minute passes', async () => {
    let now = 0;
    const background = handlers(async () => null, { now: () => now });
    for (let i = 0; i < HOVER_FETCHES_PER_MINUTE; i += 1) await background.openCard(open(NONCE, 'hover'), contentScript(5));
    expect(await background.openCard(open(NONCE, 'hover'), contentScript(5))).toEqual({ fetch: false, inTop: false });
    now = 60_001;
    expect(await background.openCard(open(NONCE, 'hover'), contentScript(5))).toEqual({ fetch: true, inTop: false });
  });

  it('refuses openCard from extension pages and claimCard from content scripts', async () => {
    const background = handlers();
    await expect(background.openCard(open(), cardPage(5))).rejects.toThrow(/content script/);
    await expect(background.claimCard({ nonce: NONCE }, contentScript(5))).rejects.toThrow(/extension page/);
  });

  it('rejects malformed requests, tokens of the wrong shape, bad nonces and unknown intents', async () => {
    const background = handlers();
    await expect(background.openCard({ origin: 'https://comply.example' }, contentScript(5))).rejects.toThrow(/Malformed/);
    await expect(background.openCard({ ...open(), token: '../../etc' }, contentScript(5))).rejects.toThrow(/token/);
    await expect(background.openCard({ ...open(), nonce: 'short' }, contentScript(5))).rejects.toThrow(/nonce/);
    await expect(background.openCard({ ...open(), intent: 'script' }, contentScript(5))).rejects.toThrow(/intent/);
  });

  it('peeks at many links in one message, answering null for ones the service refuses', async () => {
    const seen: string[] = [];
    const background = handlers(async (r) => {
      seen.push(r.token);
      if (r.origin !== request.origin) throw new Error('not configured');
      return null;
    });
    const answers = await background.peekBadges(
      [request, { origin: 'https://evil.example', token: FIXTURE_TOKEN }],
      contentScript(5),
    );
    expect(answers).toEqual([null, null]);
    expect(seen).toHaveLength(2);
    await expect(
      background.peekBadges(
        Array.from({ length: MAX_PEEK_BATCH + 1 }, () => request),
        contentScript(5),
      ),
    ).rejects.toThrow(/Malformed/);
  });

  it('content scripts get badge summaries; full cached snapshots only go to extension pages', async () => {
    const cached: SnapshotResult = snapshotResultSchema.parse(readySnapshot());
    const background = handlers(async () => cached);
    expect(await background.peekBadges([request], contentScript(5))).toEqual([
      { state: 'ready', score: 95, label: 'Regulator Ready', band: 'investor_ready' },
    ]);
    await expect(background.peekSnapshots([request], contentScript(5))).rejects.toThrow(/extension page/);
    expect(await background.peekSnapshots([request], { url: `${extensionOrigin}/popup.html` })).toEqual([cached]);
  });

  it('a binding not claimed in time is not handed out later', async () => {
    let now = 0;
    const background = handlers(async () => null, { claimWithinMs: 1000, now: () => now });
    await background.openCard(open(), contentScript(5));
    now = 2000;
    expect(await background.claimCard({ nonce: NONCE }, cardPage(5))).toBeNull();
  });
  describe('a card the top frame draws for a subframe', () => {
    const KEY = 'c'.repeat(32);
    const inTopFrame = {
      key: KEY,
      hops: 0,
      rect: { left: 10, top: 20, right: 30, bottom: 36 },
      viewport: { width: 300, height: 150 },
    };
    const fromFrame = (frameId: number, tabId = 5) => ({ ...contentScript(tabId), frameId });
    const openInTop = (nonce = NONCE, intent: 'hover' | 'keyboard' | 'click' = 'click') => ({
      ...open(nonce, intent),
      inTopFrame,
    });
    const pushesOf = (background: ReturnType<typeof handlers>, type: string) =>
      background.pushes.filter((push) => push.type === type);

    it('a subframe asking for it: the top frame is told to draw it (focus for a key), and its card page claims the link', async () => {
      const background = handlers();
      expect(await background.openCard(openInTop(NONCE, 'keyboard'), fromFrame(3))).toEqual({ fetch: true, inTop: true });
      expect(pushesOf(background, 'showHostedCard')).toEqual([
        { type: 'showHostedCard', data: { ...inTopFrame, nonce: NONCE, focus: true }, tabId: 5, frameId: 0 },
      ]);
      expect(await background.claimCard({ nonce: NONCE }, cardPage(5))).toEqual({ request, fetch: true });
      await background.openCard(openInTop(OTHER_NONCE, 'hover'), fromFrame(3));
      expect(pushesOf(background, 'showHostedCard')[1]?.data).toMatchObject({ nonce: OTHER_NONCE, focus: false });
    });

    it('cards bound one after the other reach the top frame in that order, however long each push takes', async () => {
      let arrive = () => {};
      const slow = new Promise<void>((resolve) => (arrive = resolve));
      const background = handlers(
        async () => null,
        {},
        [],
        (push) => (push.type === 'showHostedCard' && isRecord(push.data) && push.data.nonce === NONCE ? slow : Promise.resolve()),
      );
      const first = background.openCard(openInTop(NONCE), fromFrame(3));
      const second = background.openCard(openInTop(OTHER_NONCE), fromFrame(4));
      await new Promise((resolve) => setTimeout(resolve, 10));
      arrive();
      await Promise.all([first, second]);
      expect(pushesOf(background, 'showHostedCard').map((push) => isRecord(push.data) && push.data.nonce)).toEqual([
        NONCE,
        OTHER_NONCE,
      ]);
      expect(pushesOf(background, 'removeHostedCard').map((push) => push.data)).toEqual([{ nonce: NONCE }]);
    });

    it('the top frame draws its own card: its request to be drawn in the top frame is not passed on', async () => {
      const background = handlers();
      expect(await background.openCard(openInTop(), fromFrame(0))).toEqual({ fetch: true, inTop: false });
      expect(background.pushes).toEqual([]);
    });

    it('a top frame without the relay (nothing answers): the frame draws the card itself', async () => {
      const background = handlers(async () => null, {}, [0]);
      expect(await background.openCard(openInTop(), fromFrame(3))).toEqual({ fetch: true, inTop: false });
      expect(await background.claimCard({ nonce: NONCE }, cardPage(5))).toEqual({ request, fetch: true });
    });

    it('moves reach the top frame only from the frame whose card it is, for that card', async () => {
      const background = handlers();
      await background.openCard(openInTop(), fromFrame(3));
      const rect = { left: 1, top: 2, right: 3, bottom: 4 };
      await background.moveCard({ nonce: NONCE, rect }, fromFrame(3));
      await background.moveCard({ nonce: NONCE, rect }, fromFrame(4)); // another frame
      await background.moveCard({ nonce: OTHER_NONCE, rect }, fromFrame(3)); // not the card drawn
      await background.moveCard({ nonce: NONCE, rect }, fromFrame(3, 6)); // another tab
      expect(pushesOf(background, 'moveHostedCard')).toEqual([
        { type: 'moveHostedCard', data: { nonce: NONCE, rect }, tabId: 5, frameId: 0 },
      ]);
      await expect(
        background.moveCard({ nonce: NONCE, rect: { ...rect, left: Number.POSITIVE_INFINITY } }, fromFrame(3)),
      ).rejects.toThrow(/Malformed/);
      await expect(background.moveCard({ nonce: NONCE, rect: { ...rect, left: 2e6 } }, fromFrame(3))).rejects.toThrow(
        /Malformed/,
      );
    });

    it('what the card does goes to its frame, only from the top frame and for the card drawn now', async () => {
      const background = handlers();
      await background.openCard(openInTop(), fromFrame(3));
      await background.hostedCardEvent({ nonce: NONCE, event: 'enter' }, fromFrame(0));
      await background.hostedCardEvent({ nonce: OTHER_NONCE, event: 'dismiss' }, fromFrame(0));
      await expect(background.hostedCardEvent({ nonce: NONCE, event: 'dismiss' }, fromFrame(3))).rejects.toThrow(/top frame/);
      await expect(background.hostedCardEvent({ nonce: NONCE, event: 'open' }, fromFrame(0))).rejects.toThrow(/Malformed/);
      expect(pushesOf(background, 'cardEvent')).toEqual([
        { type: 'cardEvent', data: { nonce: NONCE, event: 'enter' }, tabId: 5, frameId: 3 },
      ]);
    });

    it('a card whose frame is gone is forgotten, and the top frame removes it', async () => {
      const background = handlers(async () => null, {}, [3]);
      await background.openCard(openInTop(), fromFrame(3));
      await background.hostedCardEvent({ nonce: NONCE, event: 'leave' }, fromFrame(0));
      expect(pushesOf(background, 'removeHostedCard')).toEqual([
        { type: 'removeHostedCard', data: { nonce: NONCE }, tabId: 5, frameId: 0 },
      ]);
      expect(await background.claimCard({ nonce: NONCE }, cardPage(5))).toBeNull();
    });

    it('closing it, or another card replacing it, has the top frame remove it', async () => {
      const background = handlers();
      await background.openCard(openInTop(NONCE), fromFrame(3));
      await background.closeCard({ nonce: NONCE }, fromFrame(3));
      await background.openCard(openInTop(OTHER_NONCE), fromFrame(3));
      await background.openCard(open(NONCE), fromFrame(0)); // the top frame's own card
      await background.closeCard({ nonce: OTHER_NONCE }, fromFrame(3)); // late: nothing more to remove
      expect(pushesOf(background, 'removeHostedCard').map((push) => push.data)).toEqual([
        { nonce: NONCE },
        { nonce: OTHER_NONCE },
      ]);
      expect(background.replaced()).toEqual([{ tabId: 5, frameId: 3 }]);
    });

    it('rejects a request to be drawn in the top frame that is malformed', async () => {
      const background = handlers();
      const bad = (change: object) => ({ ...open(), inTopFrame: { ...inTopFrame, ...change } });
      for (const change of [
        { key: 'x' },
        { hops: -1 },
        { hops: 1.5 },
        { hops: 33 },
        { rect: { left: 0, top: 0, right: 0 } },
        { viewport: { width: -1, height: 1 } },
        { viewport: { width: 1, height: 1, name: 'body' } },
        { focus: true },
      ]) {
        await expect(background.openCard(bad(change), fromFrame(3)), JSON.stringify(change)).rejects.toThrow(/Malformed/);
      }
      expect(background.pushes).toEqual([]);
    });
  });
});
