import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { watchBudget } from '@/lib/core/watchlist/schedule';
import { FIXTURE_NOW, buildErrorEnvelope, fixtureToken } from '@/test/fixtures/snapshot';
import { ORIGIN, createHarness, flush, jsonResponse, okResponse } from './helpers';

/**
 * Background refreshes (the watchlist's) share the request budget with hovers and the user's own
 * loads, and never starve them: they only take a token while a reserve stays, never wait, and never
 * go into debt.
 */

const SECOND = 1000;
const token = (i: number) => ({ origin: ORIGIN, token: fixtureToken(i) });

beforeEach(() => {
  fakeBrowser.reset();
});

describe('refreshInBackground', () => {
  it('takes tokens only while the reserve stays, then defers (no fetch) with the time the bucket will allow it', async () => {
    const { service, fetch } = createHarness(async () => okResponse(), { settings: { requestBudgetPerMinute: 4 } });
    const reserve = 2;
    expect((await service.refreshInBackground(token(0), { reserve })).status).toBe('ready');
    expect((await service.refreshInBackground(token(1), { reserve })).status).toBe('ready');
    // Two tokens left = the reserve: the next one waits for a refill (one token per 15 s at 4/min).
    expect(await service.refreshInBackground(token(2), { reserve })).toEqual({
      status: 'deferred',
      retryAt: FIXTURE_NOW + 15 * SECOND,
    });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('never starves hovers: after the scheduler took its share, hovers still get the reserve at once', async () => {
    const perMinute = 30;
    const { perTick, reserve } = watchBudget(perMinute);
    const { service, fetch, clock } = createHarness(async () => okResponse(), {
      settings: { requestBudgetPerMinute: perMinute },
    });
    for (let i = 0; i < perTick; i++) expect((await service.refreshInBackground(token(i), { reserve })).status).toBe('ready');
    const hovers = Array.from({ length: reserve }, (_, i) => service.getSnapshot(token(100 + i)));
    await flush();
    expect(clock.waiting).toBe(0);
    expect((await Promise.all(hovers)).every((result) => result.status === 'ready')).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(perTick + reserve);
  });

  it('when hovers used the budget, a background refresh fetches nothing and leaves no debt for the next hover', async () => {
    const { service, fetch, clock } = createHarness(async () => okResponse(), { settings: { requestBudgetPerMinute: 2 } });
    await service.getSnapshot(token(0));
    await service.getSnapshot(token(1));
    const deferred = await service.refreshInBackground(token(2), { reserve: 0 });
    expect(deferred).toEqual({ status: 'deferred', retryAt: FIXTURE_NOW + 30 * SECOND });
    expect(fetch).toHaveBeenCalledTimes(2);
    // The next hover waits 30 s for its token, as it would have without the background refresh.
    const hover = service.getSnapshot(token(3));
    await flush();
    expect(clock.waiting).toBe(1);
    await clock.advance(30 * SECOND);
    expect((await hover).status).toBe('ready');
  });

  it('honours a 429 pause: deferred until the pause ends, without a request', async () => {
    let calls = 0;
    const { service, fetch } = createHarness(async () =>
      calls++ === 0
        ? jsonResponse(buildErrorEnvelope('RATE_LIMITED'), { status: 429, headers: { 'retry-after': '120' } })
        : okResponse(),
    );
    expect(await service.getSnapshot(token(0))).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await service.refreshInBackground(token(1), { reserve: 0 })).toEqual({
      status: 'deferred',
      retryAt: FIXTURE_NOW + 120 * SECOND,
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('joins a hover already in flight (one fetch), and a hover joining a deferred refresh still fetches', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { service, fetch } = createHarness(
      async () => {
        await gate;
        return okResponse();
      },
      { settings: { requestBudgetPerMinute: 2 } },
    );
    const hover = service.getSnapshot(token(0));
    await flush();
    const background = service.refreshInBackground(token(0), { reserve: 0 });
    release();
    expect((await background).status).toBe('ready');
    expect((await hover).status).toBe('ready');
    expect(fetch).toHaveBeenCalledTimes(1);

    // Budget now 1 token: a background refresh with reserve 1 defers; a hover at the same moment fetches.
    const deferred = service.refreshInBackground(token(1), { reserve: 1 });
    const hoverSameLink = service.getSnapshot(token(1));
    expect((await deferred).status).toBe('deferred');
    expect((await hoverSameLink).status).toBe('ready');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('refreshes bypass the cache and store what they get (the cache stays coherent)', async () => {
    let score = 60;
    const { service, fetch } = createHarness(async () => okResponse({ scores: { readiness_score: score } }));
    await service.getSnapshot(token(0));
    score = 71;
    const refreshed = await service.refreshInBackground(token(0), { reserve: 0 });
    expect(refreshed.status === 'ready' && refreshed.snapshot.scores.readiness_score).toBe(71);
    const cached = await service.peek(token(0));
    expect(cached?.status === 'ready' && cached.snapshot.scores.readiness_score).toBe(71);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
