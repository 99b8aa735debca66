import { describe, expect, it } from 'vitest';
import { createCardBindings } from '@/lib/background/card-binding';
import {
  createCardHandlers,
  createContentHandlers,
  createPagesHandlers,
  type MessageHandlerDeps,
} from '@/lib/background/messages';
import type { SnapshotService } from '@/lib/background/snapshot-service';
import type { StorageAreaAdapter } from '@/lib/background/snapshot-service/storage-area';
import { MAX_PEEK_BATCH } from '@/lib/core/limits';
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
  function handlers(peek: SnapshotService['peek'] = async () => null, binding: { maxAgeMs?: number; now?: () => number } = {}) {
    const unused = () => Promise.reject(new Error('not used by these tests'));
    const service: SnapshotService = {
      peek,
      getSnapshot: unused,
      refresh: unused,
      refreshInBackground: unused,
      listCached: unused,
      clearCache: unused,
    };
    const deps: MessageHandlerDeps = {
      service,
      getSettings: unused,
      getPageSettings: unused,
      getBadgeText: unused,
      cardBindings: createCardBindings({ area: memoryArea(), ...binding }),
      watchlist: unusedWatchlist(),
      getWatchSettings: unused,
      extensionOrigin,
    };
    return { ...createContentHandlers(deps), ...createPagesHandlers(deps), ...createCardHandlers(deps) };
  }

  it('answers the card page with the link its own tab opened, and nothing for other tabs', async () => {
    const background = handlers();
    await background.openCard(request, contentScript(5));
    expect(await background.getCardForTab(undefined, cardPage(5))).toEqual(request);
    expect(await background.getCardForTab(undefined, cardPage(6))).toBeNull();
    await background.closeCard(undefined, contentScript(5));
    expect(await background.getCardForTab(undefined, cardPage(5))).toBeNull();
  });

  it('refuses openCard from extension pages and getCardForTab from content scripts', async () => {
    const background = handlers();
    await expect(background.openCard(request, cardPage(5))).rejects.toThrow(/content script/);
    await expect(background.getCardForTab(undefined, contentScript(5))).rejects.toThrow(/extension page/);
  });

  it('rejects malformed requests and tokens of the wrong shape', async () => {
    const background = handlers();
    await expect(background.openCard({ origin: 'https://comply.example' }, contentScript(5))).rejects.toThrow(/Malformed/);
    await expect(background.openCard({ ...request, token: '../../etc' }, contentScript(5))).rejects.toThrow(/token/);
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
    const cached: SnapshotResult = snapshotResultSchema.parse({
      status: 'ready',
      snapshot: buildSnapshot({ scores: { readiness_score: 95, fundraise_score: 90 } }),
      meta: { token_status: 'active', view_count: 3 },
      fetchedAt: 1,
      fromCache: true,
    });
    const background = handlers(async () => cached);
    expect(await background.peekBadges([request], contentScript(5))).toEqual([
      { state: 'ready', score: 95, label: 'Regulator Ready', band: 'investor_ready' },
    ]);
    await expect(background.peekSnapshots([request], contentScript(5))).rejects.toThrow(/extension page/);
    expect(await background.peekSnapshots([request], { url: `${extensionOrigin}/popup.html` })).toEqual([cached]);
  });

  it('forgets stale bindings', async () => {
    let now = 0;
    const background = handlers(async () => null, { maxAgeMs: 1000, now: () => now });
    await background.openCard(request, contentScript(5));
    now = 2000;
    expect(await background.getCardForTab(undefined, cardPage(5))).toBeNull();
  });
});
