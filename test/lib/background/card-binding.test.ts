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
import { snapshotResultSchema, type SnapshotResult } from '@/lib/core/schemas/results';
import { buildSnapshot, FIXTURE_TOKEN } from '@/test/fixtures/snapshot';
import { unusedWatchlist } from './watchlist/stubs';

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
    const replaced: { tabId: number; frameId: number }[] = [];
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
      tellCardReplaced: async (tabId, frameId) => void replaced.push({ tabId, frameId }),
      watchlist: unusedWatchlist(),
      getWatchSettings: unused,
      extensionOrigin,
    };
    return { ...createContentHandlers(deps), ...createPagesHandlers(deps), ...createCardHandlers(deps), replaced };
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
    expect(await background.openCard(open(), contentScript(5))).toEqual({ fetch: true });
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
    expect(background.replaced).toEqual([{ tabId: 5, frameId: 0 }]);
  });

  it("hover fetches an uncached link only within the tab's allowance; keys, clicks and cached links always (finding 6)", async () => {
    let cached = false;
    const background = handlers(async () => (cached ? snapshotResultSchema.parse(readySnapshot()) : null));
    const hovers: boolean[] = [];
    for (let i = 0; i < HOVER_FETCHES_PER_MINUTE + 2; i += 1)
      hovers.push((await background.openCard(open(NONCE, 'hover'), contentScript(5))).fetch);
    expect(hovers.filter(Boolean)).toHaveLength(HOVER_FETCHES_PER_MINUTE);
    expect(hovers.slice(-2)).toEqual([false, false]);
    expect(await background.openCard(open(NONCE, 'hover'), contentScript(6))).toEqual({ fetch: true }); // another tab
    expect(await background.openCard(open(NONCE, 'click'), contentScript(5))).toEqual({ fetch: true });
    expect(await background.openCard(open(NONCE, 'keyboard'), contentScript(5))).toEqual({ fetch: true });
    cached = true;
    expect(await background.openCard(open(NONCE, 'hover'), contentScript(5))).toEqual({ fetch: true });
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
    expect(await background.openCard(open(NONCE, 'hover'), contentScript(5))).toEqual({ fetch: false });
    now = 60_001;
    expect(await background.openCard(open(NONCE, 'hover'), contentScript(5))).toEqual({ fetch: true });
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
});
