import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { cacheKey } from '@/lib/background/snapshot-service';
import { FIXTURE_NOW, FIXTURE_TOKEN, buildErrorEnvelope, fixtureToken } from '@/test/fixtures/snapshot';
import { ORIGIN, createHarness, jsonResponse, okResponse } from './helpers';

const request = { origin: ORIGIN, token: FIXTURE_TOKEN };
const MINUTE = 60_000;

beforeEach(() => {
  fakeBrowser.reset();
});

describe('TTL cache', () => {
  it('serves a fresh entry without a fetch and refetches after the TTL', async () => {
    const { service, fetch, clock } = createHarness(async () => okResponse({ now: clock.now() }), {
      settings: { cacheTtlMinutes: 30 },
    });
    const first = await service.getSnapshot(request);
    expect(first).toMatchObject({ status: 'ready', fromCache: false, fetchedAt: FIXTURE_NOW });

    await clock.advance(29 * MINUTE);
    expect(await service.getSnapshot(request)).toMatchObject({ status: 'ready', fromCache: true, fetchedAt: FIXTURE_NOW });
    expect(fetch).toHaveBeenCalledTimes(1);

    await clock.advance(1 * MINUTE);
    expect(await service.getSnapshot(request)).toMatchObject({ status: 'ready', fromCache: false });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('never keeps a snapshot past share_expires_at, even inside the TTL', async () => {
    const { service, fetch, clock } = createHarness(
      async () =>
        fetch.mock.calls.length === 1
          ? okResponse({ expiresInMs: 10 * MINUTE })
          : jsonResponse(buildErrorEnvelope('EXPIRED'), { status: 410 }),
      { settings: { cacheTtlMinutes: 60 } },
    );
    await service.getSnapshot(request);
    await clock.advance(9 * MINUTE);
    expect(await service.getSnapshot(request)).toMatchObject({ fromCache: true });

    await clock.advance(1 * MINUTE);
    const expired = await service.getSnapshot(request);
    expect(fetch).toHaveBeenCalledTimes(2);
    // The 410 has no date; the earlier snapshot of the same share supplies it.
    expect(expired).toMatchObject({
      status: 'error',
      code: 'EXPIRED',
      expiredAt: new Date(FIXTURE_NOW + 10 * MINUTE).toISOString(),
    });
  });

  it('uses the TTL from the settings in force when the entry was stored', async () => {
    const { service, fetch, clock, settings } = createHarness();
    settings.cacheTtlMinutes = 360;
    await service.getSnapshot(request);
    await clock.advance(359 * MINUTE);
    await service.getSnapshot(request);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('terminal results', () => {
  it.each([
    [404, 'NOT_FOUND'],
    [410, 'EXPIRED'],
  ] as const)('caches %i as terminal: a second call makes no fetch', async (status, code) => {
    const { service, fetch, clock } = createHarness(async () => jsonResponse(buildErrorEnvelope(code), { status }));
    const first = await service.getSnapshot(request);
    expect(first).toMatchObject({ status: 'error', code, fetchedAt: FIXTURE_NOW });

    await clock.advance(24 * 60 * MINUTE);
    const second = await service.getSnapshot(request);
    expect(second).toMatchObject({ status: 'error', code, fromCache: true });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(await service.peek(request)).toMatchObject({ code });
  });

  it('a 410 without an earlier snapshot has no expiredAt', async () => {
    const { service } = createHarness(async () => jsonResponse(buildErrorEnvelope('EXPIRED'), { status: 410 }));
    const result = await service.getSnapshot(request);
    expect(result).toMatchObject({ code: 'EXPIRED', message: 'Share link has expired' });
    expect(result.status === 'error' && result.expiredAt).toBeFalsy();
  });

  it('a 404 for a link loaded before is "withdrawn" (kept on the cached answer); a 404 never seen working is not', async () => {
    const { service, fetch } = createHarness(async () =>
      fetch.mock.calls.length === 1 ? okResponse() : jsonResponse(buildErrorEnvelope('NOT_FOUND'), { status: 404 }),
    );
    await service.getSnapshot(request);
    expect(await service.refresh(request)).toMatchObject({ code: 'NOT_FOUND', withdrawn: true });
    expect(await service.refresh(request)).toMatchObject({ code: 'NOT_FOUND', withdrawn: true });
    expect(await service.getSnapshot(request)).toMatchObject({ code: 'NOT_FOUND', withdrawn: true, fromCache: true });

    const unseen = { origin: ORIGIN, token: fixtureToken(2) };
    const never = await service.getSnapshot(unseen);
    expect(never).toMatchObject({ code: 'NOT_FOUND' });
    expect(never.status === 'error' && never.withdrawn).toBeFalsy();
  });

  it('does not cache transient errors', async () => {
    const { service, fetch } = createHarness(async () => new Response('bad gateway', { status: 502 }));
    await service.getSnapshot(request);
    await service.getSnapshot(request);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(await service.peek(request)).toBeNull();
  });
});

describe('peek', () => {
  it('never fetches: null when nothing is cached, the entry when fresh, null when stale', async () => {
    const { service, fetch, clock } = createHarness();
    expect(await service.peek(request)).toBeNull();
    expect(fetch).not.toHaveBeenCalled();

    await service.getSnapshot(request);
    expect(await service.peek(request)).toMatchObject({ status: 'ready', fromCache: true });

    await clock.advance(61 * MINUTE);
    expect(await service.peek(request)).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('storage', () => {
  it('keeps the cache in storage.session by default, and in storage.local when persistence is on', async () => {
    const { service, settings } = createHarness();
    await service.getSnapshot(request);
    const key = cacheKey(ORIGIN, FIXTURE_TOKEN);
    expect((await fakeBrowser.storage.session.get(key))[key]).toBeDefined();
    expect((await fakeBrowser.storage.local.get(key))[key]).toBeUndefined();

    settings.persistCache = true;
    await service.refresh(request);
    expect((await fakeBrowser.storage.local.get(key))[key]).toBeDefined();
    expect(await service.listCached()).toHaveLength(1);

    expect(await service.clearCache()).toBe(2);
    expect(await service.listCached()).toHaveLength(0);
  });

  it('survives a service-worker restart (a new service over the same storage)', async () => {
    const harness = createHarness();
    await harness.service.getSnapshot(request);
    const restarted = harness.restart();
    expect(await restarted.getSnapshot(request)).toMatchObject({ status: 'ready', fromCache: true });
    expect(harness.fetch).toHaveBeenCalledTimes(1);
  });

  it('treats a corrupt stored entry as a miss', async () => {
    const { service, fetch } = createHarness();
    const key = cacheKey(ORIGIN, FIXTURE_TOKEN);
    await fakeBrowser.storage.session.set({ [key]: { origin: ORIGIN, token: FIXTURE_TOKEN, result: 'garbage' } });
    expect(await service.peek(request)).toBeNull();
    expect(await service.getSnapshot(request)).toMatchObject({ status: 'ready', fromCache: false });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('is bounded: the oldest entries are evicted', async () => {
    const { service, clock } = createHarness(async () => okResponse(), { maxCacheEntries: 3 });
    for (let i = 0; i < 5; i++) {
      await service.getSnapshot({ origin: ORIGIN, token: fixtureToken(i) });
      await clock.advance(1000);
    }
    const cached = await service.listCached();
    expect(cached.map((entry) => entry.token)).toEqual([fixtureToken(2), fixtureToken(3), fixtureToken(4)]);
    expect(await service.peek({ origin: ORIGIN, token: fixtureToken(0) })).toBeNull();
    const session = await fakeBrowser.storage.session.get(null);
    expect(Object.keys(session).filter((key) => key.startsWith('snapshotCache:') && !key.endsWith('index'))).toHaveLength(3);
  });
});
