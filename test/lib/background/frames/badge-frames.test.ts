/**
 * Which frames show which links' badges, and the service that tells them when a link is fetched again
 * (lib/background/frames/badge-frames.ts). The wiring, with the peeks that fill it and the tabs that empty it,
 * is in create-background.test.ts.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createBadgeFrames, withBadgeUpdates } from '@/lib/background/frames/badge-frames';
import type { PushToFrame } from '@/lib/background/cards/card-routes';
import type { SnapshotService } from '@/lib/background/snapshot-service/service';
import { snapshotResultSchema, type SnapshotResult } from '@/lib/core/schemas/results';
import { buildSnapshot, FIXTURE_TOKEN, fixtureToken } from '@/test/fixtures/snapshot';
import { EN_TEXT } from '../../content/annotator/badge-text';

const link = { origin: 'https://comply.example', token: FIXTURE_TOKEN };
const fetched: SnapshotResult = snapshotResultSchema.parse({
  status: 'ready',
  snapshot: buildSnapshot(),
  meta: { token_status: 'active', view_count: 2 },
  fetchedAt: 1,
  fromCache: false,
});

beforeEach(() => fakeBrowser.reset());

function setUp(result: () => SnapshotResult | { status: 'deferred'; retryAt: number }) {
  const frames = createBadgeFrames(fakeBrowser.storage.session);
  const push = vi.fn<PushToFrame>(async () => ({ ok: true }));
  const unused = () => Promise.reject(new Error('not used'));
  // One result object per fetch (as the real service makes; askers sharing a fetch share its object).
  const service: SnapshotService = {
    getSnapshot: async () => ({ ...result() }) as SnapshotResult,
    refresh: async () => ({ ...result() }) as SnapshotResult,
    refreshInBackground: async () => ({ ...result() }),
    peek: async () => null,
    wouldFetch: unused,
    listCached: unused,
    clearCache: unused,
  };
  return { frames, push, service: withBadgeUpdates(service, { frames, push, words: async () => EN_TEXT }) };
}

describe('badge frames', () => {
  it('lists the frames that peeked a link, per tab, until the tab is forgotten; a restarted worker still knows them', async () => {
    const { frames } = setUp(() => fetched);
    await frames.note({ tabId: 1, frameId: 0 }, [link]);
    await frames.note({ tabId: 1, frameId: 4 }, [{ ...link, token: fixtureToken(2) }, link]);
    await frames.note({ tabId: 2, frameId: 0 }, [{ ...link, token: fixtureToken(2) }]);
    const expected = [
      { tabId: 1, frameId: 0 },
      { tabId: 1, frameId: 4 },
    ];
    expect(await frames.showing(link)).toEqual(expected);
    expect(await frames.showing({ ...link, origin: 'https://other.example' })).toEqual([]);
    // The worker stops after half a minute idle: a new one reads what the old one noted.
    expect(await createBadgeFrames(fakeBrowser.storage.session).showing(link)).toEqual(expected);

    await frames.forgetTab(1);
    expect(await frames.showing(link)).toEqual([]);
    expect(await frames.showing({ ...link, token: fixtureToken(2) })).toEqual([{ tabId: 2, frameId: 0 }]);
    const restarted = createBadgeFrames(fakeBrowser.storage.session);
    expect(await restarted.showing(link)).toEqual([]);
    expect(await restarted.showing({ ...link, token: fixtureToken(2) })).toEqual([{ tabId: 2, frameId: 0 }]);
  });

  it('is bounded: 50 frames and 1,000 links a tab, 50 tabs (the oldest goes), whatever a page does', async () => {
    const { frames } = setUp(() => fetched);
    for (let frameId = 1; frameId <= 60; frameId += 1) await frames.note({ tabId: 1, frameId }, [link]);
    expect(await frames.showing(link)).toHaveLength(50);
    const many = Array.from({ length: 1_200 }, (_, index) => ({ ...link, token: fixtureToken(1_000 + index) }));
    await frames.note({ tabId: 2, frameId: 0 }, many);
    expect(await frames.showing(many[998]!)).toEqual([{ tabId: 2, frameId: 0 }]);
    expect(await frames.showing(many[1_100]!)).toEqual([]);
    for (let tabId = 3; tabId <= 51; tabId += 1) await frames.note({ tabId, frameId: 0 }, [link]);
    // Tab 1 was the oldest: gone, here and in storage.
    const tabsShowing = async (of: typeof frames) => new Set((await of.showing(link)).map(({ tabId }) => tabId));
    expect((await tabsShowing(frames)).has(1)).toBe(false);
    expect((await tabsShowing(frames)).size).toBe(49);
    expect(await tabsShowing(createBadgeFrames(fakeBrowser.storage.session))).toEqual(await tabsShowing(frames));
  });
});

describe('a link fetched again reaches its badges', () => {
  it('each fetch (get, refresh, a background refresh) tells every frame showing it, with its face', async () => {
    const { frames, push, service } = setUp(() => fetched);
    await frames.note({ tabId: 1, frameId: 0 }, [link]);
    await frames.note({ tabId: 3, frameId: 2 }, [link]);
    await service.getSnapshot(link);
    await service.refresh(link);
    await service.refreshInBackground(link, { reserve: 5 });
    await vi.waitFor(() => expect(push).toHaveBeenCalledTimes(6));
    expect(push).toHaveBeenCalledWith(
      'badgeChanged',
      { ...link, badge: expect.objectContaining({ state: 'ready', text: '68/100' }) as unknown },
      { tabId: 3, frameId: 2 },
    );
  });

  it('askers sharing one fetch (one result) tell each frame once, and each is answered after its frames were told', async () => {
    const frames = createBadgeFrames(fakeBrowser.storage.session);
    const push = vi.fn<PushToFrame>(async () => ({ ok: true }));
    const shared = Promise.resolve(fetched);
    const unused = () => Promise.reject(new Error('not used'));
    const service = withBadgeUpdates(
      {
        getSnapshot: () => shared,
        refresh: unused,
        refreshInBackground: unused,
        peek: async () => null,
        wouldFetch: unused,
        listCached: unused,
        clearCache: unused,
      },
      { frames, push, words: async () => EN_TEXT },
    );
    await frames.note({ tabId: 1, frameId: 0 }, [link]);
    const pushesWhenAnswered = await Promise.all(
      [service.getSnapshot(link), service.getSnapshot(link)].map((asked) => asked.then(() => push.mock.calls.length)),
    );
    expect(pushesWhenAnswered).toEqual([1, 1]);
    expect(push).toHaveBeenCalledTimes(1);
  });

  it('nothing is sent for an answer from the cache, a deferred background refresh, or a link no frame shows; a frame gone is passed over', async () => {
    let next: SnapshotResult | { status: 'deferred'; retryAt: number } = { ...fetched, fromCache: true };
    const { frames, push, service } = setUp(() => next);
    const shownToo = { ...link, token: fixtureToken(8) };
    await frames.note({ tabId: 1, frameId: 0 }, [link, shownToo]);
    await service.getSnapshot(link);
    next = { status: 'deferred', retryAt: 5 };
    await service.refreshInBackground(link, { reserve: 5 });
    next = fetched;
    await service.refresh({ ...link, token: fixtureToken(7) });
    // Then a fetch of another link the frame shows: its announcement takes the same steps as theirs,
    // after them, so once it is sent any of theirs would have been sent before it. It is the only one.
    await service.refresh(shownToo);
    await vi.waitFor(() =>
      expect(push).toHaveBeenCalledWith(
        'badgeChanged',
        { ...shownToo, badge: expect.objectContaining({ state: 'ready' }) as unknown },
        { tabId: 1, frameId: 0 },
      ),
    );
    expect(push).toHaveBeenCalledTimes(1);

    push.mockRejectedValue(new Error('Could not establish connection. Receiving end does not exist.'));
    await expect(service.refresh(link)).resolves.toEqual(fetched);
    await vi.waitFor(() => expect(push).toHaveBeenCalledTimes(2));
  });
});
