import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { snapshotResultSchema } from '@/lib/background/snapshot-service';
import { PRODUCTION_SERVICE_ORIGIN } from '@/lib/core/services';
import { FIXTURE_TOKEN } from '@/test/fixtures/snapshot';
import { ORIGIN, createHarness, flush, okResponse } from './helpers';

const request = { origin: ORIGIN, token: FIXTURE_TOKEN };

beforeEach(() => {
  fakeBrowser.reset();
});

describe('in-flight de-duplication', () => {
  it('makes exactly one fetch for 20 concurrent calls for one token', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { service, fetch } = createHarness(async () => {
      await gate;
      return okResponse();
    });

    const calls = Array.from({ length: 20 }, () => service.getSnapshot(request));
    await flush();
    release();
    const results = await Promise.all(calls);

    expect(fetch).toHaveBeenCalledTimes(1);
    for (const result of results) {
      expect(snapshotResultSchema.parse(result).status).toBe('ready');
    }
  });

  it('lets refresh join a fetch already in flight instead of starting another', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { service, fetch } = createHarness(async () => {
      await gate;
      return okResponse();
    });

    const first = service.getSnapshot(request);
    await flush();
    const refreshed = service.refresh(request);
    await flush();
    release();
    await Promise.all([first, refreshed]);

    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('refresh bypasses a fresh cache entry', async () => {
    const { service, fetch } = createHarness();
    await service.getSnapshot(request);
    const cached = await service.getSnapshot(request);
    expect(cached).toMatchObject({ status: 'ready', fromCache: true });

    const refreshed = await service.refresh(request);
    expect(refreshed).toMatchObject({ status: 'ready', fromCache: false });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('keeps different tokens apart', async () => {
    const { service, fetch } = createHarness();
    await Promise.all([
      service.getSnapshot(request),
      service.getSnapshot({ origin: ORIGIN, token: `${FIXTURE_TOKEN}A` }),
      service.getSnapshot({ origin: PRODUCTION_SERVICE_ORIGIN, token: FIXTURE_TOKEN }),
    ]);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('a token on an alias of its service’s origin is the same link: one fetch from the service’s origin, one cache entry (issue #33 item 14)', async () => {
    const { service, fetch } = createHarness();
    const alias = { origin: 'http://127.0.0.1:8787', token: FIXTURE_TOKEN };
    const [first, second] = await Promise.all([service.getSnapshot(request), service.getSnapshot(alias)]);
    expect(first).toEqual(second);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toBe(`${ORIGIN}/api/v1/compliance-status/${FIXTURE_TOKEN}`);
    expect(await service.peek(alias)).toMatchObject({ status: 'ready', fromCache: true });
    expect(await service.wouldFetch(alias)).toBe(false);
  });
});
