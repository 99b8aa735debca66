import { beforeEach, describe, expect, it } from 'vitest';
import { PRODUCTION_SERVICE_ORIGIN } from '@/lib/core/services';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DEFAULT_RETRY_AFTER_MS, MAX_RETRY_AFTER_MS, retryAtFrom, type SnapshotResult } from '@/lib/background/snapshot-service';
import { FIXTURE_NOW, buildErrorEnvelope, fixtureToken } from '@/test/fixtures/snapshot';
import { ORIGIN, createHarness, flush, jsonResponse, okResponse } from './helpers';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const token = (i: number) => ({ origin: ORIGIN, token: fixtureToken(i) });

beforeEach(() => {
  fakeBrowser.reset();
});

describe('client request budget', () => {
  it('queues requests past the budget instead of dropping them (2/min: the 3rd waits 30 s)', async () => {
    const { service, fetch, clock } = createHarness(async () => okResponse(), {
      settings: { requestBudgetPerMinute: 2 },
    });
    const results: SnapshotResult[] = [];
    const pending = [0, 1, 2].map((i) => service.getSnapshot(token(i)).then((result) => results.push(result)));
    await flush();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(clock.waiting).toBe(1);

    await clock.advance(29 * SECOND);
    expect(fetch).toHaveBeenCalledTimes(2);

    await clock.advance(1 * SECOND);
    await Promise.all(pending);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(results.every((result) => result.status === 'ready')).toBe(true);
  });

  it('serves queued requests in arrival order, one per refill interval', async () => {
    const { service, fetch, clock } = createHarness(async () => okResponse(), {
      settings: { requestBudgetPerMinute: 2 },
    });
    const pending = [0, 1, 2, 3, 4].map((i) => service.getSnapshot(token(i)));
    await flush();
    expect(fetch).toHaveBeenCalledTimes(2);
    await clock.advance(30 * SECOND);
    expect(fetch).toHaveBeenCalledTimes(3);
    await clock.advance(30 * SECOND);
    expect(fetch).toHaveBeenCalledTimes(4);
    await clock.advance(30 * SECOND);
    await Promise.all(pending);
    expect(fetch.mock.calls.map(([url]) => url.split('/').pop())).toEqual([0, 1, 2, 3, 4].map(fixtureToken));
  });

  it('does not hand a restarted service worker a fresh full budget', async () => {
    const harness = createHarness(async () => okResponse(), { settings: { requestBudgetPerMinute: 2 } });
    await harness.service.getSnapshot(token(0));
    await harness.service.getSnapshot(token(1));

    const restarted = harness.restart();
    const third = restarted.getSnapshot(token(2));
    await flush();
    expect(harness.fetch).toHaveBeenCalledTimes(2);
    await harness.clock.advance(30 * SECOND);
    await third;
    expect(harness.fetch).toHaveBeenCalledTimes(3);
  });

  it('refills over time: after a quiet minute the full budget is back', async () => {
    const { service, fetch, clock } = createHarness(async () => okResponse(), { settings: { requestBudgetPerMinute: 2 } });
    await service.getSnapshot(token(0));
    await service.getSnapshot(token(1));
    await clock.advance(MINUTE);
    await Promise.all([service.getSnapshot(token(2)), service.getSnapshot(token(3))]);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(clock.waiting).toBe(0);
  });

  it('budgets each origin separately', async () => {
    const { service, fetch, clock } = createHarness(async () => okResponse(), { settings: { requestBudgetPerMinute: 1 } });
    await service.getSnapshot(token(0));
    await service.getSnapshot({ origin: PRODUCTION_SERVICE_ORIGIN, token: fixtureToken(0) });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(clock.waiting).toBe(0);
  });
});

describe('429 pause', () => {
  function rateLimitedThenOk(retryAfter: string | undefined) {
    return createHarness(async (): Promise<Response> => {
      if (harnessCalls.count++ === 0) {
        return jsonResponse(buildErrorEnvelope('RATE_LIMITED'), {
          status: 429,
          headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
        });
      }
      return okResponse();
    });
  }
  const harnessCalls = { count: 0 };
  beforeEach(() => {
    harnessCalls.count = 0;
  });

  it.each([
    ['Retry-After in seconds', '120', 120 * SECOND],
    ['Retry-After as an HTTP date', new Date(FIXTURE_NOW + 90 * SECOND).toUTCString(), 90 * SECOND],
    ['no Retry-After (documented default)', undefined, DEFAULT_RETRY_AFTER_MS],
  ])('%s: pauses the origin, then resumes after the retry time', async (_name, header, pauseMs) => {
    const { service, fetch, clock } = rateLimitedThenOk(header);
    const limited = await service.getSnapshot(token(0));
    expect(limited).toMatchObject({ status: 'error', code: 'RATE_LIMITED', retryAt: FIXTURE_NOW + pauseMs });

    // Paused: other tokens on the same origin are refused without a request.
    expect(await service.getSnapshot(token(1))).toMatchObject({ code: 'RATE_LIMITED', retryAt: FIXTURE_NOW + pauseMs });
    expect(await service.refresh(token(0))).toMatchObject({ code: 'RATE_LIMITED' });
    expect(fetch).toHaveBeenCalledTimes(1);

    await clock.advance(pauseMs - 1);
    expect(await service.getSnapshot(token(0))).toMatchObject({ code: 'RATE_LIMITED' });
    expect(fetch).toHaveBeenCalledTimes(1);

    await clock.advance(1);
    expect(await service.getSnapshot(token(0))).toMatchObject({ status: 'ready' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('the pause survives a service-worker restart', async () => {
    const harness = rateLimitedThenOk('300');
    await harness.service.getSnapshot(token(0));
    const restarted = harness.restart();
    expect(await restarted.getSnapshot(token(0))).toMatchObject({ code: 'RATE_LIMITED', retryAt: FIXTURE_NOW + 300 * SECOND });
    expect(harness.fetch).toHaveBeenCalledTimes(1);
  });

  it('does not pause other origins', async () => {
    const { service, fetch } = rateLimitedThenOk('300');
    await service.getSnapshot(token(0));
    expect(await service.getSnapshot({ origin: PRODUCTION_SERVICE_ORIGIN, token: fixtureToken(0) })).toMatchObject({
      status: 'ready',
    });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('tells requests queued behind the budget about a pause that started while they waited', async () => {
    let calls = 0;
    const { service, fetch, clock } = createHarness(
      async () =>
        calls++ === 1
          ? jsonResponse(buildErrorEnvelope('RATE_LIMITED'), { status: 429, headers: { 'retry-after': '600' } })
          : okResponse(),
      { settings: { requestBudgetPerMinute: 2 } },
    );
    const pending = [0, 1, 2].map((i) => service.getSnapshot(token(i)));
    await flush();
    await clock.advance(30 * SECOND);
    const [, second, third] = await Promise.all(pending);
    expect(second).toMatchObject({ code: 'RATE_LIMITED' });
    expect(third).toMatchObject({ code: 'RATE_LIMITED', retryAt: FIXTURE_NOW + 600 * SECOND });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe('retryAtFrom', () => {
  it.each([
    ['seconds', '30', 30 * SECOND],
    ['zero seconds is at least one second', '0', SECOND],
    ['HTTP date', new Date(FIXTURE_NOW + 45 * SECOND).toUTCString(), 45 * SECOND],
    ['date in the past', new Date(FIXTURE_NOW - 45 * SECOND).toUTCString(), SECOND],
    ['absurdly long is capped', '999999', MAX_RETRY_AFTER_MS],
    ['missing', null, DEFAULT_RETRY_AFTER_MS],
    ['garbage', 'soon', DEFAULT_RETRY_AFTER_MS],
    ['negative', '-5', DEFAULT_RETRY_AFTER_MS],
  ])('%s', (_name, header, expectedDelay) => {
    expect(retryAtFrom(header, FIXTURE_NOW)).toBe(FIXTURE_NOW + expectedDelay);
  });
});
