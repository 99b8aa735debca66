/**
 * Which frames show which links' badges, and the service that tells them when a link is fetched again
 * (lib/background/badge-frames.ts). The wiring, with the peeks that fill it and the tabs that empty it,
 * is in create-background.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { createBadgeFrames, withBadgeUpdates } from '@/lib/background/badge-frames';
import type { PushToFrame } from '@/lib/background/cards/card-routes';
import type { SnapshotService } from '@/lib/background/snapshot-service/service';
import { snapshotResultSchema, type SnapshotResult } from '@/lib/core/schemas/results';
import { buildSnapshot, FIXTURE_TOKEN, fixtureToken } from '@/test/fixtures/snapshot';
import { EN_TEXT } from '../content/annotator/badge-text';

const link = { origin: 'https://comply.example', token: FIXTURE_TOKEN };
const fetched: SnapshotResult = snapshotResultSchema.parse({
  status: 'ready',
  snapshot: buildSnapshot(),
  meta: { token_status: 'active', view_count: 2 },
  fetchedAt: 1,
  fromCache: false,
});

function setUp(result: () => SnapshotResult | { status: 'deferred'; retryAt: number }) {
  const frames = createBadgeFrames();
  const push = vi.fn<PushToFrame>(async () => ({ ok: true }));
  const unused = () => Promise.reject(new Error('not used'));
  const service: SnapshotService = {
    getSnapshot: async () => result() as SnapshotResult,
    refresh: async () => result() as SnapshotResult,
    refreshInBackground: async () => result(),
    peek: async () => null,
    listCached: unused,
    clearCache: unused,
  };
  return { frames, push, service: withBadgeUpdates(service, { frames, push, words: async () => EN_TEXT }) };
}

describe('badge frames', () => {
  it('lists the frames that peeked a link, per tab, until the tab is forgotten', () => {
    const { frames } = setUp(() => fetched);
    frames.note({ tabId: 1, frameId: 0 }, [link]);
    frames.note({ tabId: 1, frameId: 4 }, [{ ...link, token: fixtureToken(2) }, link]);
    frames.note({ tabId: 2, frameId: 0 }, [{ ...link, token: fixtureToken(2) }]);
    expect(frames.showing(link)).toEqual([
      { tabId: 1, frameId: 0 },
      { tabId: 1, frameId: 4 },
    ]);
    expect(frames.showing({ ...link, origin: 'https://other.example' })).toEqual([]);
    frames.forgetTab(1);
    expect(frames.showing(link)).toEqual([]);
    expect(frames.showing({ ...link, token: fixtureToken(2) })).toEqual([{ tabId: 2, frameId: 0 }]);
  });

  it('keeps at most 50 frames of a tab (a page that makes frames without end is cut off)', () => {
    const { frames } = setUp(() => fetched);
    for (let frameId = 1; frameId <= 60; frameId += 1) frames.note({ tabId: 1, frameId }, [link]);
    expect(frames.showing(link)).toHaveLength(50);
  });
});

describe('a link fetched again reaches its badges', () => {
  it('each fetch (get, refresh, a background refresh) tells every frame showing it, with its face', async () => {
    const { frames, push, service } = setUp(() => fetched);
    frames.note({ tabId: 1, frameId: 0 }, [link]);
    frames.note({ tabId: 3, frameId: 2 }, [link]);
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

  it('nothing is sent for an answer from the cache, a deferred background refresh, or a link no frame shows; a frame gone is passed over', async () => {
    let next: SnapshotResult | { status: 'deferred'; retryAt: number } = { ...fetched, fromCache: true };
    const { frames, push, service } = setUp(() => next);
    frames.note({ tabId: 1, frameId: 0 }, [link]);
    await service.getSnapshot(link);
    next = { status: 'deferred', retryAt: 5 };
    await service.refreshInBackground(link, { reserve: 5 });
    next = fetched;
    await service.refresh({ ...link, token: fixtureToken(7) });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(push).not.toHaveBeenCalled();

    push.mockRejectedValue(new Error('Could not establish connection. Receiving end does not exist.'));
    await expect(service.refresh(link)).resolves.toEqual(fetched);
    await vi.waitFor(() => expect(push).toHaveBeenCalledTimes(1));
  });
});
