import { describe, expect, it, vi } from 'vitest';
import { createCardRoutes, type CardRoutesDeps, type PushToFrame } from '@/lib/background/cards/card-routes';
import type { StorageAreaAdapter } from '@/lib/background/common/storage-area';
import { createHoverAllowance, HOVER_FETCHES_KEY_PREFIX, HOVER_FETCHES_PER_MINUTE } from '@/lib/background/cards/hover-allowance';
import { createBadgeFrames, withBadgeUpdates } from '@/lib/background/frames/badge-frames';
import { createLinkFrames } from '@/lib/background/frames/link-frames';
import {
  createCardHandlers,
  createContentHandlers,
  createPagesHandlers,
  type MessageHandlerDeps,
} from '@/lib/background/messaging/messages';
import type { SnapshotService } from '@/lib/background/snapshot-service';
import { badgeFace } from '@/lib/core/badge-face';
import { awaitDrawnCard, claimOfDrawn } from '@/lib/protocol/card';
import { isRecord } from '@/lib/core/guards';
import { badgeTextFor } from '@/lib/core/i18n/badge';
import { MAX_PEEK_BATCH } from '@/lib/core/limits';
import { snapshotResultSchema, type SnapshotResult } from '@/lib/core/schemas/results';
import { buildSnapshot, FIXTURE_TOKEN, fixtureToken } from '@/test/fixtures/snapshot';
import { unusedWatchlist } from '../watchlist/stubs';

/**
 * The life of a tab's hover card (lib/background/cards/card-routes.ts), through the message handlers
 * that call it: which card page may claim which link, what it is answered with, what may be fetched,
 * and what each frame is told.
 */

interface Push {
  type: string;
  data: unknown;
  tabId: number;
  frameId: number;
}

/** A storage area in memory that counts its reads. */
function memoryArea(): StorageAreaAdapter & { data: Record<string, unknown>; reads: number } {
  const data: Record<string, unknown> = {};
  const area = {
    data,
    reads: 0,
    async get(keys: string[]) {
      area.reads += 1;
      return Object.fromEntries(keys.filter((key) => key in data).map((key) => [key, structuredClone(data[key])]));
    },
    async set(items: Record<string, unknown>) {
      Object.assign(data, structuredClone(items));
    },
    async remove(keys: string[]) {
      for (const key of keys) delete data[key];
    },
  };
  return area;
}

const extensionOrigin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
const contentScript = (tabId: number, frameId = 0) => ({ tab: { id: tabId }, frameId, url: 'https://mail.google.com/mail/u/0/' });
const cardPage = (tabId: number) => ({ tab: { id: tabId }, frameId: 7, url: `${extensionOrigin}/card.html` });
const request = { origin: 'https://comply.example', token: FIXTURE_TOKEN };
const READY: SnapshotResult = snapshotResultSchema.parse({
  status: 'ready',
  snapshot: buildSnapshot({ scores: { readiness_score: 95, fundraise_score: 90 } }),
  meta: { token_status: 'active', view_count: 3 },
  fetchedAt: 1,
  fromCache: false,
});
const BADGE_WORDS = badgeTextFor('en', undefined);
/** What a content script is sent for the snapshot READY: its badge, worded. */
const READY_BADGE = badgeFace({ state: 'ready', score: 95, label: 'Regulator Ready', band: 'investor_ready' }, BADGE_WORDS);
const NONCE = 'a'.repeat(32);
const OTHER_NONCE = 'b'.repeat(32);
const KEY = 'c'.repeat(32);
/** Where a card goes: the top frame's own links give their box in its viewport; a subframe's, with the key it posted. */
const OWN_ANCHOR = {
  hops: 0,
  rect: { left: 10, top: 20, right: 30, bottom: 36 },
  viewport: { width: 1280, height: 800 },
  at: { x: 20, y: 28 },
};
const FRAME_ANCHOR = { ...OWN_ANCHOR, key: KEY, viewport: { width: 300, height: 150 } };
const open = (nonce = NONCE, intent: 'hover' | 'keyboard' | 'click' = 'keyboard', token = FIXTURE_TOKEN, seen = true) => ({
  ...request,
  token,
  nonce,
  intent,
  seen,
  anchor: OWN_ANCHOR,
});
/** A subframe's card. */
const openInFrame = (nonce = NONCE, intent: 'hover' | 'keyboard' | 'click' = 'click') => ({
  ...open(nonce, intent),
  anchor: FRAME_ANCHOR,
});

interface Options {
  /** What the cache holds for the link (null: nothing). */
  cached?: () => SnapshotResult | null;
  routes?: Partial<Pick<CardRoutesDeps, 'claimWithinMs' | 'aheadWaitMs' | 'aheadClaimWaitMs' | 'now'>>;
  /** Frames of the tab where nothing answers a push (no content script there, or the frame is gone). */
  silentFrames?: number[];
  /** How long a push takes to arrive (resolves when it has). */
  transit?: (push: Push) => Promise<void>;
  area?: ReturnType<typeof memoryArea>;
  /** The top frame's verdict on the frames around a link (`showCard`'s answer); default: seen. */
  hostAnswer?: () => unknown;
  /** Resolves when a network fetch answers (default: at once). */
  fetchDone?: () => Promise<void>;
  /** Resolves when the service can look at its cache (default: at once; a new profile's first policy read takes seconds). */
  serviceReady?: Promise<void>;
}

/** The background's handlers over a memory area and a service whose fetches are counted. */
function handlers(options: Options = {}) {
  const unused = () => Promise.reject(new Error('not used by these tests'));
  /** Tokens fetched over the network; a fetched snapshot is cached, as the real service does. */
  const fetched: string[] = [];
  /** Fetches not answered yet, shared by every asker (as the real service coalesces them). */
  const inFlight = new Map<string, Promise<SnapshotResult>>();
  const forgotten = new Set<string>();
  const cachedOnly = (token: string) => fetched.includes(token) && !inFlight.has(token) && !forgotten.has(token);
  const service: SnapshotService = {
    peek: async (asked) => {
      await options.serviceReady;
      return options.cached?.() ?? (cachedOnly(asked.token) ? { ...READY, fromCache: true } : null);
    },
    getSnapshot: async (asked) => {
      if (options.cached?.() || cachedOnly(asked.token)) return { ...READY, fromCache: true };
      const pending = inFlight.get(asked.token);
      if (pending) return pending;
      fetched.push(asked.token);
      forgotten.delete(asked.token);
      const fetching = (async () => {
        await options.fetchDone?.();
        inFlight.delete(asked.token);
        return { ...READY }; // one result per fetch, shared by its askers (as the real service's)
      })();
      inFlight.set(asked.token, fetching);
      return fetching;
    },
    refresh: async () => READY,
    refreshInBackground: unused,
    wouldFetch: async (asked) => !options.cached?.() && !cachedOnly(asked.token) && !inFlight.has(asked.token),
    listCached: unused,
    clearCache: unused,
  };
  const pushes: Push[] = [];
  const area = options.area ?? memoryArea();
  const now = options.routes?.now;
  const push: PushToFrame = async (type, data, frame) => {
    await (options.transit ?? (async () => undefined))({ type, data, ...frame });
    pushes.push({ type, data, ...frame });
    if (options.silentFrames?.includes(frame.frameId))
      throw new Error('Could not establish connection. Receiving end does not exist.');
    return type === 'showCard' ? (options.hostAnswer?.() ?? { ok: true, seen: true }) : { ok: true };
  };
  // As the background wires it: every fetch tells the badges of its link (badgeChanged).
  const badgeFrames = createBadgeFrames(area);
  const announcing = withBadgeUpdates(service, { frames: badgeFrames, push, words: async () => BADGE_WORDS });
  const cards = createCardRoutes({
    area,
    service: announcing,
    cardPageService: service,
    hoverAllowance: createHoverAllowance({ area, ...(now ? { now } : {}) }),
    language: async () => 'fr',
    // A card page's wait for a card never drawn lasts this long: short here, so that tests of refused pages are quick.
    aheadWaitMs: 50,
    push,
    ...options.routes,
  });
  const deps: MessageHandlerDeps = {
    service: announcing,
    getSettings: unused,
    getPageSettings: unused,
    getBadgeText: async () => BADGE_WORDS,
    cards,
    badgeFrames,
    linkFrames: createLinkFrames(area),
    linkFramesLocator: { locate: unused, forget: () => undefined },
    loadCardPresenter: () => Promise.reject(new Error('unused')),
    watchlist: unusedWatchlist(),
    getWatchSettings: unused,
    extensionOrigin,
  };
  const pushesOf = (type: string) => pushes.filter((push) => push.type === type);
  const cardHandlers = createCardHandlers(deps);
  return {
    ...createContentHandlers(deps),
    ...createPagesHandlers(deps),
    ...cardHandlers,
    /** What the card page framed with `nonce` shows, got the one way every card page gets it (null: nothing). */
    pageCard: ({ nonce }: { nonce: string }, sender: ReturnType<typeof cardPage>) =>
      claimOfDrawn(awaitDrawnCard(nonce, (input) => cardHandlers.awaitCard(input, sender))),
    cards,
    area,
    pushes,
    pushesOf,
    /** The badges `badgeChanged` told frame `frameId` of tab `tabId`, in order. */
    badgesTo: (tabId: number, frameId: number) =>
      pushesOf('badgeChanged')
        .filter((sent) => sent.tabId === tabId && sent.frameId === frameId)
        .map((sent) => isRecord(sent.data) && sent.data.badge),
    fetched,
    /** The link's answer is no longer cached (an error is never kept): the next gesture fetches it again. */
    forgetCached: (token: string) => forgotten.add(token),
  };
}

describe('every card page waits for its card by nonce, loaded ahead or not (one path, issue #35 item 1)', () => {
  it('with the nonce of its own tab, once, and gets the snapshot itself; nothing for other tabs or nonces', async () => {
    const background = handlers();
    expect(await background.openCard(open(), contentScript(5))).toEqual({ shown: true });
    expect(await background.pageCard({ nonce: NONCE }, cardPage(6))).toBeNull(); // another tab: nothing opened there
    expect(await background.pageCard({ nonce: OTHER_NONCE }, cardPage(5))).toBeNull(); // a guess
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toEqual({
      request,
      result: { ...READY, fromCache: true },
      language: 'fr',
    });
    // Security finding 1: a second card page in the tab (one the page framed itself) gets nothing.
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toBeNull();
    // One fetch for the badge and the card together.
    expect(background.fetched).toEqual([FIXTURE_TOKEN]);
  });

  it('a card is drawn before the service can look at its cache (a new profile waits seconds for its first policy read)', async () => {
    let ready = () => undefined as void;
    const background = handlers({ serviceReady: new Promise<void>((resolve) => (ready = resolve)) });
    const opened = background.openCard(open(), contentScript(5));
    await vi.waitFor(() => expect(background.pushesOf('showCard')).toHaveLength(1));
    // Nothing fetched yet: the card page shows that it loads until the service can answer.
    expect(background.fetched).toEqual([]);
    const claim = background.pageCard({ nonce: NONCE }, cardPage(5));
    ready();
    expect(await opened).toEqual({ shown: true });
    expect(await claim).toMatchObject({ request, result: { status: 'ready' }, language: 'fr' });
    expect(background.fetched).toEqual([FIXTURE_TOKEN]);
  });

  it('a claim that arrives before its card is opened waits for it (the card page may load first)', async () => {
    const background = handlers({ routes: { aheadWaitMs: 5000 } });
    const claim = background.pageCard({ nonce: NONCE }, cardPage(5));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await background.openCard(open(), contentScript(5));
    expect(await claim).toMatchObject({ request, language: 'fr' });
  });

  it('a claim for a card never opened gets nothing once its wait is over, and a page cannot pile up waiting claims', async () => {
    vi.useFakeTimers();
    try {
      const background = handlers(); // a claim waits 50 ms here
      let answered = false;
      const lone = background.pageCard({ nonce: OTHER_NONCE }, cardPage(5)).finally(() => (answered = true));
      await vi.advanceTimersByTimeAsync(49);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(answered).toBe(true);
      expect(await lone).toBeNull();

      const waiting = Array.from({ length: 6 }, (_, index) =>
        background.pageCard({ nonce: index.toString(16).repeat(32) }, cardPage(5)),
      );
      // The oldest two are answered at once (nothing) to make room; the rest when their wait is over.
      const settled: number[] = [];
      waiting.forEach((claim, index) => void claim.then(() => settled.push(index)));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled.sort()).toEqual([0, 1]);
      await vi.advanceTimersByTimeAsync(49);
      expect(settled.sort()).toEqual([0, 1]);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled.sort()).toEqual([0, 1, 2, 3, 4, 5]);
      expect(await Promise.all(waiting)).toEqual([null, null, null, null, null, null]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a copy of the card page framed before the real one claims nothing without the nonce (finding 1)', async () => {
    const background = handlers();
    await background.openCard(open(), contentScript(5));
    expect(await background.pageCard({ nonce: '' }, cardPage(5))).toBeNull(); // a copy's name is empty: it asks nothing
    await expect(background.awaitCard({ nonce: '' }, cardPage(5))).rejects.toThrow(/Malformed/);
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toMatchObject({ request }); // the real card still can
  });

  it('a card not claimed in time is not handed out later', async () => {
    let now = 0;
    const background = handlers({ routes: { claimWithinMs: 1000, now: () => now } });
    await background.openCard(open(), contentScript(5));
    now = 2000;
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toBeNull();
  });

  it('closing a card forgets it, but a late close of an older card leaves the newer one', async () => {
    const background = handlers();
    await background.openCard(open(NONCE), contentScript(5));
    await background.openCard(open(OTHER_NONCE), contentScript(5));
    await background.closeCard({ nonce: NONCE }, contentScript(5)); // the old card's late close
    expect(await background.pageCard({ nonce: OTHER_NONCE }, cardPage(5))).toMatchObject({ request });
    await background.openCard(open(NONCE), contentScript(5));
    await background.closeCard({ nonce: NONCE }, contentScript(5, 3)); // not the frame whose card it is
    await background.closeCard({ nonce: NONCE }, contentScript(5));
    expect(await handlers({ area: background.area }).pageCard({ nonce: NONCE }, cardPage(5))).toBeNull();
  });

  it('a closed tab takes its card and its waiting claims with it', async () => {
    const background = handlers();
    const waiting = background.pageCard({ nonce: OTHER_NONCE }, cardPage(5));
    await background.openCard(open(), contentScript(5));
    await background.cards.forgetTab(5);
    expect(await waiting).toBeNull();
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toBeNull();
    expect(Object.keys(background.area.data).filter((key) => key.startsWith('cardRoute:'))).toEqual([]);
  });
});

describe('what may be fetched', () => {
  it("every gesture fetches an uncached link only within the tab's allowance; cached links always (finding 6, issue #26 item 1)", async () => {
    const background = handlers();
    const intents = ['hover', 'click', 'keyboard'] as const;
    for (let i = 0; i < HOVER_FETCHES_PER_MINUTE + 3; i += 1)
      await background.openCard(open(NONCE, intents[i % 3], fixtureToken(i)), contentScript(5));
    expect(background.fetched).toHaveLength(HOVER_FETCHES_PER_MINUTE);
    // Neither fetched nor cached beyond the allowance: nothing for those badges.
    expect(background.badgesTo(5, 0)).toHaveLength(HOVER_FETCHES_PER_MINUTE);
    await background.openCard(open(NONCE, 'click', fixtureToken(20)), contentScript(6)); // another tab has its own
    expect(background.fetched).toHaveLength(HOVER_FETCHES_PER_MINUTE + 1);
    // Beyond the allowance the card page learns it may not fetch: it gets nothing to show, and offers to load.
    const uncached = fixtureToken(23);
    await background.openCard(open(OTHER_NONCE, 'keyboard', uncached), contentScript(5));
    expect(await background.pageCard({ nonce: OTHER_NONCE }, cardPage(5))).toEqual({
      request: { ...request, token: uncached },
      result: null,
      language: 'fr',
      unloaded: 'allowance',
    });
    // A cached link costs nothing, and is shown (its badge shows it already: nothing to tell).
    const told = background.badgesTo(5, 0).length;
    expect(await background.openCard(open(NONCE, 'hover', fixtureToken(0)), contentScript(5))).toEqual({ shown: true });
    expect(background.fetched).toHaveLength(HOVER_FETCHES_PER_MINUTE + 1);
    expect(background.badgesTo(5, 0)).toHaveLength(told);
  });

  it('the allowance counts the fetches gestures made, each link once: gestures again on one link, or on a link already on its way, spend nothing more (issue #33 item 15)', async () => {
    let answer = () => {};
    const background = handlers({ fetchDone: () => new Promise<void>((resolve) => (answer = resolve)) });
    // A link fetched and on its way: a click on its badge while it loads joins that fetch.
    const slow = background.openCard(open(NONCE, 'hover', fixtureToken(0)), contentScript(5));
    await vi.waitFor(() => expect(background.fetched).toEqual([fixtureToken(0)]));
    const joined = background.openCard(open(OTHER_NONCE, 'click', fixtureToken(0)), contentScript(5));
    answer();
    await Promise.all([slow, joined]);
    // Nine more links: the tenth fetch of the minute. The same links again are not new fetches.
    const fetchOf = async (token: string) => {
      const before = background.fetched.length;
      const opening = background.openCard(open(NONCE, 'hover', token), contentScript(5));
      await vi.waitFor(() => expect(background.fetched.slice(before)).toEqual([token]));
      answer();
      return opening;
    };
    for (let i = 1; i < HOVER_FETCHES_PER_MINUTE; i += 1) await fetchOf(fixtureToken(i));
    const spent = async () => {
      const stored: unknown = (await background.area.get([`${HOVER_FETCHES_KEY_PREFIX}5`]))[`${HOVER_FETCHES_KEY_PREFIX}5`];
      return Array.isArray(stored) ? stored.length : 0;
    };
    expect(await spent()).toBe(HOVER_FETCHES_PER_MINUTE);
    expect(background.fetched).toHaveLength(HOVER_FETCHES_PER_MINUTE);
    // The allowance is spent: a new link gets Load; a link fetched this minute (its answer was not
    // kept, say the service was down) may be asked again without spending more.
    await background.openCard(open(NONCE, 'hover', fixtureToken(30)), contentScript(5));
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toMatchObject({ result: null, unloaded: 'allowance' });
    background.forgetCached(fixtureToken(3));
    await fetchOf(fixtureToken(3));
    expect(background.fetched.filter((token) => token === fixtureToken(3))).toHaveLength(2);
    expect(await spent()).toBe(HOVER_FETCHES_PER_MINUTE);
  });

  it('a gesture its frame did not see fetches nothing and takes nothing of the allowance; the card offers Load (issue #26 item 1)', async () => {
    const background = handlers();
    for (const intent of ['hover', 'click', 'keyboard'] as const) {
      for (let i = 0; i < HOVER_FETCHES_PER_MINUTE; i += 1) {
        expect(await background.openCard(open(NONCE, intent, fixtureToken(i), false), contentScript(5))).toEqual({ shown: true });
      }
    }
    expect(background.fetched).toEqual([]);
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toMatchObject({ result: null, unloaded: 'unseen' });
    // The allowance is whole: a seen click fetches.
    await background.openCard(open(OTHER_NONCE, 'click', fixtureToken(40)), contentScript(5));
    expect(background.fetched).toEqual([fixtureToken(40)]);
  });

  it.each([
    ['frames around the link not seen', { ok: true, seen: false }],
    ['an answer without a verdict (an older relay)', { ok: true }],
    ['a malformed answer', 'yes'],
  ])("the top frame's verdict counts too: %s, nothing is fetched (issue #26 item 2)", async (_case, answer) => {
    const background = handlers({ hostAnswer: () => answer });
    expect(await background.openCard(openInFrame(NONCE, 'hover'), contentScript(5, 3))).toEqual({ shown: true });
    expect(await background.openCard(openInFrame(OTHER_NONCE, 'click'), contentScript(5, 3))).toEqual({ shown: true });
    expect(background.fetched).toEqual([]);
    expect(background.pushesOf('badgeChanged')).toEqual([]);
    expect(await background.pageCard({ nonce: OTHER_NONCE }, cardPage(5))).toMatchObject({ result: null });
  });

  it('a claim that arrives while the top frame is still judging waits for the verdict', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const verdict = new Promise((resolve) => (answer = resolve));
    const background = handlers({ hostAnswer: () => verdict });
    const opening = background.openCard(openInFrame(NONCE, 'click'), contentScript(5, 3));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const claim = background.pageCard({ nonce: NONCE }, cardPage(5));
    await new Promise((resolve) => setTimeout(resolve, 0));
    answer({ ok: true, seen: true });
    expect(await claim).toMatchObject({ result: { status: 'ready' } });
    expect(await opening).toEqual({ shown: true });
    expect(background.fetched).toEqual([FIXTURE_TOKEN]);
  });

  it('hovers arriving at once from several frames of a tab share one allowance', async () => {
    const background = handlers();
    await Promise.all(
      Array.from({ length: HOVER_FETCHES_PER_MINUTE + 5 }, (_, frameId) =>
        background.openCard({ ...open(NONCE, 'hover', fixtureToken(frameId)), anchor: FRAME_ANCHOR }, contentScript(5, frameId)),
      ),
    );
    expect(background.fetched).toHaveLength(HOVER_FETCHES_PER_MINUTE);
  });

  it('the hover allowance frees up as the minute passes', async () => {
    let now = 0;
    const background = handlers({ routes: { now: () => now } });
    for (let i = 0; i < HOVER_FETCHES_PER_MINUTE; i += 1)
      await background.openCard(open(NONCE, 'hover', fixtureToken(i)), contentScript(5));
    await background.openCard(open(NONCE, 'hover', fixtureToken(50)), contentScript(5));
    expect(background.fetched).not.toContain(fixtureToken(50));
    now = 60_001;
    await background.openCard(open(NONCE, 'hover', fixtureToken(50)), contentScript(5));
    expect(background.fetched).toContain(fixtureToken(50));
    expect(background.badgesTo(5, 0).at(-1)).toEqual(READY_BADGE);
  });
});

describe('who may send what', () => {
  it('refuses openCard from extension pages and awaitCard from content scripts', async () => {
    const background = handlers();
    await expect(background.openCard(open(), cardPage(5))).rejects.toThrow(/content script/);
    await expect(background.awaitCard({ nonce: NONCE }, contentScript(5))).rejects.toThrow(/extension page/);
  });

  it('rejects malformed requests, tokens of the wrong shape, bad nonces and unknown intents', async () => {
    const background = handlers();
    await expect(background.openCard({ origin: 'https://comply.example' }, contentScript(5))).rejects.toThrow(/Malformed/);
    await expect(background.openCard({ ...open(), token: '../../etc' }, contentScript(5))).rejects.toThrow(/token/);
    await expect(background.openCard({ ...open(), nonce: 'short' }, contentScript(5))).rejects.toThrow(/nonce/);
    await expect(background.openCard({ ...open(), intent: 'script' }, contentScript(5))).rejects.toThrow(/intent/);
  });

  it('peeks at many links in one message, answering null for ones the service refuses', async () => {
    const background = handlers();
    expect(await background.peekBadges([request, request], contentScript(5))).toEqual([null, null]);
    await expect(
      background.peekBadges(
        Array.from({ length: MAX_PEEK_BATCH + 1 }, () => request),
        contentScript(5),
      ),
    ).rejects.toThrow(/Malformed/);
  });

  it('content scripts get badge faces (what the badge shows, worded); full cached snapshots only go to extension pages', async () => {
    const background = handlers({ cached: () => READY });
    expect(await background.peekBadges([request], contentScript(5))).toEqual([READY_BADGE]);
    await expect(background.peekSnapshots([request], contentScript(5))).rejects.toThrow(/extension page/);
    expect(await background.peekSnapshots([request], { url: `${extensionOrigin}/popup.html` })).toEqual([READY]);
  });
});

describe('what the badge hears of its card (issue #35 item 1)', () => {
  it('an uncached hover tells its frame the badge once, as badgeChanged, before openCard answers; the answer carries no badge', async () => {
    const background = handlers();
    const answer = await background.openCard(open(NONCE, 'hover'), contentScript(5, 0));
    const toldBeforeAnswer = background.badgesTo(5, 0);
    expect(answer).toEqual({ shown: true });
    expect(toldBeforeAnswer).toEqual([READY_BADGE]);
    expect(background.pushesOf('badgeChanged')).toHaveLength(1);
  });

  it('the card page claiming while the fetch is on its way shares it, and the badge is still told once', async () => {
    let answer = () => {};
    const background = handlers({ fetchDone: () => new Promise<void>((resolve) => (answer = resolve)) });
    const opening = background.openCard(open(NONCE, 'hover'), contentScript(5, 0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const claim = background.pageCard({ nonce: NONCE }, cardPage(5));
    await new Promise((resolve) => setTimeout(resolve, 0));
    answer();
    expect(await claim).toMatchObject({ result: { status: 'ready' } });
    await opening;
    expect(background.fetched).toEqual([FIXTURE_TOKEN]);
    expect(background.badgesTo(5, 0)).toEqual([READY_BADGE]);
  });

  it('the card page gets its card without waiting for the badges to be told; openCard answers only after them', async () => {
    let answer = () => {};
    let delivered = () => {};
    const background = handlers({
      fetchDone: () => new Promise<void>((resolve) => (answer = resolve)),
      // The badge's push is slow to arrive (a busy frame): only openCard's answer waits for it.
      transit: (push) =>
        push.type === 'badgeChanged' ? new Promise<void>((resolve) => (delivered = resolve)) : Promise.resolve(),
    });
    let opened = false;
    const opening = background.openCard(open(NONCE, 'hover'), contentScript(5, 0)).finally(() => (opened = true));
    const card = background.pageCard({ nonce: NONCE }, cardPage(5));
    await vi.waitFor(() => expect(background.area.data['cardRoute:5']).toMatchObject({ announced: true })); // it waits for the fetch
    answer(); // the fetch both share answers
    expect(await card).toMatchObject({ result: { status: 'ready' } });
    expect(opened).toBe(false);
    delivered();
    expect(await opening).toEqual({ shown: true });
    expect(background.badgesTo(5, 0)).toEqual([READY_BADGE]);
    expect(background.fetched).toEqual([FIXTURE_TOKEN]);
  });

  it('a frame that never peeked the link (its hover came first) is told too', async () => {
    const background = handlers();
    await background.openCard(openInFrame(NONCE, 'click'), contentScript(5, 3));
    expect(background.badgesTo(5, 3)).toEqual([READY_BADGE]);
  });
});

describe('one card per tab, drawn by the top frame', () => {
  it("the top frame's own link: the top frame is told to draw it at the badge's box, without a key", async () => {
    const background = handlers();
    expect(await background.openCard(open(NONCE, 'keyboard'), contentScript(5, 0))).toEqual({ shown: true });
    expect(background.pushesOf('showCard')).toEqual([
      { type: 'showCard', data: { ...OWN_ANCHOR, nonce: NONCE, focus: true }, tabId: 5, frameId: 0 },
    ]);
    // A key from the top frame is dropped: the host would look for a frame that is not there.
    await background.openCard({ ...open(OTHER_NONCE, 'hover'), anchor: FRAME_ANCHOR }, contentScript(5, 0));
    const { key: _dropped, ...withoutKey } = FRAME_ANCHOR;
    expect(background.pushesOf('showCard')[1]?.data).toEqual({ ...withoutKey, nonce: OTHER_NONCE, focus: false });
  });

  it("a subframe's link: the top frame is told to draw it by the frame the key names (focus for a key), and its card page claims the snapshot", async () => {
    const background = handlers();
    expect(await background.openCard(openInFrame(NONCE, 'keyboard'), contentScript(5, 3))).toEqual({ shown: true });
    expect(background.pushesOf('showCard')).toEqual([
      { type: 'showCard', data: { ...FRAME_ANCHOR, nonce: NONCE, focus: true }, tabId: 5, frameId: 0 },
    ]);
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toMatchObject({ request, language: 'fr' });
    // A subframe without a key cannot be placed: not drawn (its badge was told the snapshot when it was fetched).
    expect(await background.openCard(open(OTHER_NONCE), contentScript(5, 3))).toEqual({ shown: false });
    expect(background.badgesTo(5, 3)).toEqual([READY_BADGE]);
    expect(background.pushesOf('showCard')).toHaveLength(1);
  });

  it('a frame opening its card tells the frame whose card it replaces to close it', async () => {
    const background = handlers();
    await background.openCard(open(NONCE), contentScript(5, 0));
    await background.openCard(openInFrame(OTHER_NONCE), contentScript(5, 3));
    await background.openCard(openInFrame(NONCE), contentScript(5, 3)); // the same frame again: nobody to tell
    expect(background.pushesOf('closeCard')).toEqual([{ type: 'closeCard', data: { nonce: NONCE }, tabId: 5, frameId: 0 }]);
  });

  it('cards opened one after the other reach the top frame in that order, however long each push takes', async () => {
    let arrive = () => {};
    const slow = new Promise<void>((resolve) => (arrive = resolve));
    const background = handlers({
      transit: (push) =>
        push.type === 'showCard' && isRecord(push.data) && push.data.nonce === NONCE ? slow : Promise.resolve(),
    });
    const first = background.openCard(openInFrame(NONCE), contentScript(5, 3));
    const second = background.openCard(openInFrame(OTHER_NONCE), contentScript(5, 4));
    await new Promise((resolve) => setTimeout(resolve, 10));
    arrive();
    await Promise.all([first, second]);
    expect(background.pushesOf('showCard').map((push) => isRecord(push.data) && push.data.nonce)).toEqual([NONCE, OTHER_NONCE]);
    // The second replaces the first in the top frame; frame 3 is told its card closed.
    expect(background.pushesOf('closeCard')).toEqual([{ type: 'closeCard', data: { nonce: NONCE }, tabId: 5, frameId: 3 }]);
  });

  it('a top frame without the card host (nothing answers): no card is drawn', async () => {
    const background = handlers({ silentFrames: [0] });
    // Nothing judged the frames around a subframe's link: not fetched (issue #26 item 2).
    expect(await background.openCard(openInFrame(), contentScript(5, 3))).toEqual({ shown: false });
    expect(background.pushes.map((push) => push.type)).toEqual(['showCard']);
    // The top frame's own link was judged where it is: it is fetched, and its badge is told.
    expect(await background.openCard(open(OTHER_NONCE), contentScript(5, 0))).toEqual({ shown: false });
    expect(background.badgesTo(5, 0)).toEqual([READY_BADGE]);
  });

  it('moves reach the top frame only from the frame whose card it is, for that card', async () => {
    const background = handlers();
    await background.openCard(openInFrame(), contentScript(5, 3));
    const rect = { left: 1, top: 2, right: 3, bottom: 4 };
    await background.moveCard({ nonce: NONCE, rect }, contentScript(5, 3));
    await background.moveCard({ nonce: NONCE, rect }, contentScript(5, 4)); // another frame
    await background.moveCard({ nonce: OTHER_NONCE, rect }, contentScript(5, 3)); // not the card drawn
    await background.moveCard({ nonce: NONCE, rect }, contentScript(6, 3)); // another tab
    expect(background.pushesOf('moveCard')).toEqual([{ type: 'moveCard', data: { nonce: NONCE, rect }, tabId: 5, frameId: 0 }]);
    await expect(
      background.moveCard({ nonce: NONCE, rect: { ...rect, left: Number.POSITIVE_INFINITY } }, contentScript(5, 3)),
    ).rejects.toThrow(/Malformed/);
    await expect(background.moveCard({ nonce: NONCE, rect: { ...rect, left: 2e6 } }, contentScript(5, 3))).rejects.toThrow(
      /Malformed/,
    );
  });

  it('while it is open, moves and pointer events cost no storage read', async () => {
    const background = handlers();
    await background.openCard(openInFrame(), contentScript(5, 3));
    const reads = background.area.reads;
    const rect = { left: 1, top: 2, right: 3, bottom: 4 };
    for (let i = 0; i < 20; i += 1) {
      await background.moveCard({ nonce: NONCE, rect }, contentScript(5, 3));
      await background.cardEvent({ nonce: NONCE, event: i % 2 ? 'enter' : 'leave' }, contentScript(5, 0));
    }
    expect(background.pushesOf('moveCard')).toHaveLength(20);
    expect(background.pushesOf('cardEvent')).toHaveLength(20);
    expect(background.area.reads).toBe(reads);
  });

  it('what the card does goes to its frame, only from the top frame and for the card drawn now', async () => {
    const background = handlers();
    await background.openCard(openInFrame(), contentScript(5, 3));
    await background.cardEvent({ nonce: NONCE, event: 'enter' }, contentScript(5, 0));
    await background.cardEvent({ nonce: OTHER_NONCE, event: 'dismiss' }, contentScript(5, 0));
    await expect(background.cardEvent({ nonce: NONCE, event: 'dismiss' }, contentScript(5, 3))).rejects.toThrow(/top frame/);
    await expect(background.cardEvent({ nonce: NONCE, event: 'open' }, contentScript(5, 0))).rejects.toThrow(/Malformed/);
    expect(background.pushesOf('cardEvent')).toEqual([
      { type: 'cardEvent', data: { nonce: NONCE, event: 'enter' }, tabId: 5, frameId: 3 },
    ]);
  });

  it('a card whose frame is gone is forgotten, and the top frame removes it', async () => {
    const background = handlers({ silentFrames: [3] });
    await background.openCard(openInFrame(), contentScript(5, 3));
    await background.cardEvent({ nonce: NONCE, event: 'leave' }, contentScript(5, 0));
    expect(background.pushesOf('closeCard')).toEqual([{ type: 'closeCard', data: { nonce: NONCE }, tabId: 5, frameId: 0 }]);
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toBeNull();
  });

  it('the top frame asks whether the card’s frame is there: the background asks the frame with another nonce; a frame gone takes its card (issue #26 item 6)', async () => {
    let gone = false;
    const background = handlers({
      transit: async (push) => (gone && push.frameId === 3 ? Promise.reject(new Error('gone')) : undefined),
    });
    await background.openCard(openInFrame(), contentScript(5, 3));
    await background.checkCard({ nonce: NONCE }, contentScript(5, 0));
    const asked = background.pushesOf('cardEvent');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ frameId: 3, data: { event: 'leave' } });
    expect(asked[0]?.data).not.toMatchObject({ nonce: NONCE }); // the frame acts on its own card's events only
    expect(background.pushesOf('closeCard')).toEqual([]);
    gone = true;
    await background.checkCard({ nonce: NONCE }, contentScript(5, 0));
    expect(background.pushesOf('closeCard')).toEqual([{ type: 'closeCard', data: { nonce: NONCE }, tabId: 5, frameId: 0 }]);
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toBeNull();
    // A card that is not the tab's any more is closed at once; only the top frame may ask.
    await background.checkCard({ nonce: OTHER_NONCE }, contentScript(5, 0));
    expect(background.pushesOf('closeCard')).toHaveLength(2);
    await expect(background.checkCard({ nonce: NONCE }, contentScript(5, 3))).rejects.toThrow(/top frame/);
  });

  it('closing it has the top frame remove it; a replaced card is replaced there by the next one', async () => {
    const background = handlers();
    await background.openCard(openInFrame(NONCE), contentScript(5, 3));
    await background.closeCard({ nonce: NONCE }, contentScript(5, 3));
    await background.openCard(openInFrame(OTHER_NONCE), contentScript(5, 3));
    await background.openCard(open(NONCE), contentScript(5, 0)); // the top frame's own card
    await background.closeCard({ nonce: OTHER_NONCE }, contentScript(5, 3)); // late: nothing more to remove
    expect(background.pushesOf('closeCard')).toEqual([
      { type: 'closeCard', data: { nonce: NONCE }, tabId: 5, frameId: 0 }, // closed by its frame
      { type: 'closeCard', data: { nonce: OTHER_NONCE }, tabId: 5, frameId: 3 }, // replaced: its frame
    ]);
    expect(background.pushesOf('showCard').map((push) => isRecord(push.data) && push.data.nonce)).toEqual([
      NONCE,
      OTHER_NONCE,
      NONCE,
    ]);
  });

  it('rejects an anchor that is malformed, or none', async () => {
    const background = handlers();
    const bad = (change: object) => ({ ...open(), anchor: { ...FRAME_ANCHOR, ...change } });
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
      await expect(background.openCard(bad(change), contentScript(5, 3)), JSON.stringify(change)).rejects.toThrow(/Malformed/);
    }
    await expect(background.openCard({ ...request, nonce: NONCE, intent: 'click' }, contentScript(5, 3))).rejects.toThrow(
      /anchor/,
    );
    expect(background.pushes).toEqual([]);
  });
});

describe('a card page loaded ahead of intent (issue #27 point 12)', () => {
  const AHEAD = 'd'.repeat(32);

  it('the pointer resting anywhere in the tab has the top frame load a card page ahead; nothing is fetched', async () => {
    const background = handlers();
    expect(await background.warmCard(undefined, contentScript(5, 3))).toEqual({ ok: true });
    expect(background.pushesOf('warmCard')).toEqual([{ type: 'warmCard', data: undefined, tabId: 5, frameId: 0 }]);
    expect(background.fetched).toEqual([]);
    // A top frame without the card host: nothing answers, and the content script is not bothered with it.
    const silent = handlers({ silentFrames: [0] });
    expect(await silent.warmCard(undefined, contentScript(5))).toEqual({ ok: true });
  });

  it('it waits for a card and gets the card drawn in it with the wait, once; the card’s own nonce claims nothing', async () => {
    const background = handlers({
      hostAnswer: () => ({ ok: true, seen: true, frame: AHEAD }),
      routes: { aheadWaitMs: 1000 },
    });
    const waiting = background.awaitCard({ nonce: AHEAD }, cardPage(5));
    const elsewhere = background.awaitCard({ nonce: AHEAD }, cardPage(6)); // another tab
    await new Promise((resolve) => setTimeout(resolve, 60)); // a while, before any intent
    expect(background.fetched).toEqual([]);
    await background.openCard(open(NONCE, 'hover'), contentScript(5));
    expect(await waiting).toMatchObject({
      drawn: true,
      claim: { request, language: 'fr', result: { snapshot: { company: { name: 'Kobo Ledger Ltd' } } } },
    });
    expect(background.fetched).toEqual([FIXTURE_TOKEN]);
    // The card's own nonce was never given to a page: it claims nothing now.
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toBeNull();
    expect(await background.pageCard({ nonce: AHEAD }, cardPage(5))).toBeNull(); // once
    await background.cards.forgetTab(6); // the other tab closed: its wait ends
    expect(await elsewhere).toEqual({ drawn: false });
    expect(background.fetched).toEqual([FIXTURE_TOKEN]);
  });

  it('a page that waits for a card never drawn in it is told none was drawn when its wait is over, and nothing to claim', async () => {
    const background = handlers({ routes: { aheadWaitMs: 30 } });
    const waiting = background.awaitCard({ nonce: AHEAD }, cardPage(5));
    // Cards drawn in fresh frames (the top frame used no page loaded ahead) do not wake it.
    await background.openCard(open(NONCE, 'hover'), contentScript(5));
    expect(await waiting).toEqual({ drawn: false });
    expect(await background.pageCard({ nonce: AHEAD }, cardPage(5))).toBeNull();
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toMatchObject({ request });
  });

  it('a snapshot slow to come: the page is told its card is drawn (it shows Loading), then claims it; one fetch', async () => {
    let answer = () => {};
    const fetchDone = () => new Promise<void>((resolve) => (answer = resolve));
    const background = handlers({
      hostAnswer: () => ({ ok: true, seen: true, frame: AHEAD }),
      fetchDone,
      routes: { aheadClaimWaitMs: 20 },
    });
    const waiting = background.awaitCard({ nonce: AHEAD }, cardPage(5));
    const opened = background.openCard(open(NONCE, 'hover'), contentScript(5));
    expect(await waiting).toEqual({ drawn: true, language: 'fr', openedAt: expect.any(Number) as unknown }); // its Loading… in the reader's language, counted from intent
    const claim = background.pageCard({ nonce: AHEAD }, cardPage(5));
    answer();
    expect(await claim).toMatchObject({ request, result: { snapshot: { company: { name: 'Kobo Ledger Ltd' } } } });
    await opened;
    expect(background.fetched).toEqual([FIXTURE_TOKEN]);
    expect(await background.pageCard({ nonce: AHEAD }, cardPage(5))).toBeNull(); // once
  });

  it('a page loaded ahead is told its card is drawn (it shows Loading) while the service cannot yet look at its cache, then gets it', async () => {
    let ready = () => undefined as void;
    const background = handlers({
      hostAnswer: () => ({ ok: true, seen: true, frame: AHEAD }),
      serviceReady: new Promise<void>((resolve) => (ready = resolve)),
      routes: { aheadClaimWaitMs: 20 },
    });
    const waiting = background.awaitCard({ nonce: AHEAD }, cardPage(5));
    const opened = background.openCard(open(NONCE, 'hover'), contentScript(5));
    // A new profile's first policy read takes seconds: the page shows that it loads meanwhile.
    expect(await waiting).toEqual({ drawn: true, language: 'fr', openedAt: expect.any(Number) as unknown });
    expect(background.fetched).toEqual([]);
    const claim = background.pageCard({ nonce: AHEAD }, cardPage(5));
    ready();
    expect(await claim).toMatchObject({ request, result: { snapshot: { company: { name: 'Kobo Ledger Ltd' } } } });
    await opened;
    expect(background.fetched).toEqual([FIXTURE_TOKEN]);
  });

  it('a card whose snapshot is slow to come is claimed at once: a second claim meanwhile gets nothing', async () => {
    let answer = () => {};
    const background = handlers({ fetchDone: () => new Promise<void>((resolve) => (answer = resolve)) });
    const opened = background.openCard(open(NONCE, 'hover'), contentScript(5));
    const first = background.pageCard({ nonce: NONCE }, cardPage(5));
    // The first claim has the card while its snapshot is still on its way.
    await vi.waitFor(() => expect(background.area.data['cardRoute:5']).toMatchObject({ claimed: true }));
    expect(await background.pageCard({ nonce: NONCE }, cardPage(5))).toBeNull();
    answer();
    expect(await first).toMatchObject({ request, language: 'fr' });
    await opened;
  });

  it('a page that asks after its card was drawn in it is answered at once; a claimed card is not awaited again', async () => {
    const background = handlers({ hostAnswer: () => ({ ok: true, seen: true, frame: AHEAD }) });
    await background.openCard(open(NONCE, 'keyboard'), contentScript(5));
    expect(await background.awaitCard({ nonce: AHEAD }, cardPage(5))).toMatchObject({ drawn: true, claim: { request } });
    expect(await background.awaitCard({ nonce: AHEAD }, cardPage(5))).toEqual({ drawn: false });
    expect(await background.pageCard({ nonce: AHEAD }, cardPage(5))).toBeNull();
  });

  it('only extension pages may wait for a card, and only content scripts may ask for one ahead', async () => {
    const background = handlers();
    await expect(background.awaitCard({ nonce: AHEAD }, contentScript(5))).rejects.toThrow();
    await expect(background.warmCard(undefined, cardPage(5))).rejects.toThrow();
    await expect(background.awaitCard({ nonce: 'not a nonce' }, cardPage(5))).rejects.toThrow();
  });
});

describe('a restarted service worker', () => {
  it("reads a tab's card from storage.session once, then serves it from memory: its claim, moves and events still work", async () => {
    const area = memoryArea();
    const before = handlers({ area });
    await before.openCard(openInFrame(), contentScript(5, 3));
    // The worker stops: a new one over the same storage (the snapshot still cached, as storage.session keeps it).
    const after = handlers({ area, cached: () => ({ ...READY, fromCache: true }) });
    const reads = area.reads;
    await after.moveCard({ nonce: NONCE, rect: { left: 1, top: 1, right: 2, bottom: 2 } }, contentScript(5, 3));
    expect(after.pushesOf('moveCard')).toHaveLength(1);
    expect(area.reads).toBe(reads + 1);
    await after.cardEvent({ nonce: NONCE, event: 'enter' }, contentScript(5, 0));
    expect(after.pushesOf('cardEvent')).toHaveLength(1);
    expect(await after.pageCard({ nonce: NONCE }, cardPage(5))).toMatchObject({ request, language: 'fr' });
    expect(area.reads).toBe(reads + 1);
  });

  it('a card claimed before the restart cannot be claimed again after it', async () => {
    const area = memoryArea();
    const before = handlers({ area });
    await before.openCard(open(), contentScript(5));
    expect(await before.pageCard({ nonce: NONCE }, cardPage(5))).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 0)); // the write lands
    expect(await handlers({ area }).pageCard({ nonce: NONCE }, cardPage(5))).toBeNull();
  });

  it('a page told its card is drawn before the restart gets the card itself with its next wait after it', async () => {
    const area = memoryArea();
    const before = handlers({ area, fetchDone: () => new Promise<void>(() => {}), routes: { aheadClaimWaitMs: 10 } });
    void before.openCard(open(NONCE, 'hover'), contentScript(5));
    expect(await before.awaitCard({ nonce: NONCE }, cardPage(5))).toEqual({
      drawn: true,
      language: 'fr',
      openedAt: expect.any(Number) as unknown,
    });
    await new Promise((resolve) => setTimeout(resolve, 0)); // the writes land
    // The restarted worker's fetch is slower than the wait for a snapshot: the page waits for it all the same.
    const after = handlers({
      area,
      fetchDone: () => new Promise((resolve) => setTimeout(resolve, 40)),
      routes: { aheadClaimWaitMs: 10 },
    });
    expect(await after.awaitCard({ nonce: NONCE }, cardPage(5))).toMatchObject({
      drawn: true,
      claim: { request, result: { snapshot: { company: { name: 'Kobo Ledger Ltd' } } } },
    });
    expect(await after.awaitCard({ nonce: NONCE }, cardPage(5))).toEqual({ drawn: false }); // once
  });
});
