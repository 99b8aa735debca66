import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { API_VERSION } from '@/lib/core/labels';
import { DEFAULT_MAX_BODY_BYTES } from '@/lib/background/snapshot-service';
import { SNAPSHOT_DEADLINE_MS } from '@/lib/core/schemas/results';
import { FIXTURE_TOKEN, buildErrorEnvelope, buildSuccessEnvelope } from '@/test/fixtures/snapshot';
import { ORIGIN, createHarness, flush, jsonResponse, okResponse } from './helpers';

const request = { origin: ORIGIN, token: FIXTURE_TOKEN };

beforeEach(() => {
  fakeBrowser.reset();
});

function streamResponse(chunks: Uint8Array[], options: { close?: boolean; headers?: Record<string, string> } = {}) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (options.close !== false) controller.close();
    },
  });
  return new Response(body, { status: 200, headers: options.headers });
}

describe('the request', () => {
  it('builds the URL from the configured template and sends no credentials, referrer or cache', async () => {
    const { service, fetch } = createHarness();
    await service.getSnapshot(request);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`${ORIGIN}/api/v1/compliance-status/${FIXTURE_TOKEN}`);
    expect(init).toMatchObject({
      method: 'GET',
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      redirect: 'error',
      headers: { Accept: 'application/json' },
    });
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it('uses a service’s own API path template', async () => {
    const { service, fetch } = createHarness(async () => okResponse(), {
      settings: {
        services: [
          { id: 'custom', name: 'Custom', origin: ORIGIN, apiPathTemplate: '/v2/status/{token}/json', sharePathTemplates: [] },
        ],
      },
    });
    await service.getSnapshot(request);
    expect(fetch.mock.calls[0]![0]).toBe(`${ORIGIN}/v2/status/${FIXTURE_TOKEN}/json`);
  });
});

describe('valid responses', () => {
  it('returns the snapshot and meta', async () => {
    const { service } = createHarness(async () => okResponse({ meta: { view_count: 41 } }));
    const result = await service.getSnapshot(request);
    expect(result).toMatchObject({ status: 'ready', fromCache: false, meta: { view_count: 41, token_status: 'active' } });
    expect(result.status === 'ready' && result.snapshot.company.name).toBe('Kobo Ledger Ltd');
    expect(result.status === 'ready' && result.apiVersionWarning).toBeFalsy();
  });

  it('tolerates unknown extra fields (and drops them)', async () => {
    const envelope = buildSuccessEnvelope();
    const body = {
      ...envelope,
      extra_top: 1,
      meta: { ...envelope.meta, rate_limit_remaining: 59 },
      data: { ...envelope.data, partner_score: 77, scores: { ...envelope.data.scores, esg_score: 5 } },
    };
    const { service } = createHarness(async () => jsonResponse(body));
    const result = await service.getSnapshot(request);
    expect(result.status).toBe('ready');
    expect(result.status === 'ready' && 'partner_score' in result.snapshot).toBe(false);
  });

  it('warns, not fails, on a different api_version', async () => {
    const { service } = createHarness(async () => okResponse({ api_version: '2027-01-01' }));
    const result = await service.getSnapshot(request);
    expect(result.status).toBe('ready');
    expect(result.status === 'ready' && result.apiVersionWarning).toContain('2027-01-01');
    expect(result.status === 'ready' && result.apiVersionWarning).toContain(API_VERSION);
  });
});

describe('invalid responses', () => {
  it('malformed JSON → INVALID_RESPONSE', async () => {
    const { service } = createHarness(async () => new Response('{"success": true, "data": {', { status: 200 }));
    expect(await service.getSnapshot(request)).toMatchObject({
      status: 'error',
      code: 'INVALID_RESPONSE',
      message: expect.stringContaining('JSON') as string,
    });
  });

  it('a schema violation → INVALID_RESPONSE naming the field', async () => {
    const envelope = buildSuccessEnvelope();
    const body = { ...envelope, data: { ...envelope.data, scores: { ...envelope.data.scores, readiness_score: 140 } } };
    const { service } = createHarness(async () => jsonResponse(body));
    const result = await service.getSnapshot(request);
    expect(result).toMatchObject({ status: 'error', code: 'INVALID_RESPONSE' });
    expect(result.status === 'error' && result.message).toContain('data.scores.readiness_score');
  });

  it('a missing disclaimer → INVALID_RESPONSE (it must always be shown)', async () => {
    const envelope = buildSuccessEnvelope();
    const { disclaimer: _omitted, ...data } = envelope.data;
    const { service } = createHarness(async () => jsonResponse({ ...envelope, data }));
    const result = await service.getSnapshot(request);
    expect(result.status === 'error' && result.message).toContain('data.disclaimer');
  });

  it('an error envelope with status 200 → INVALID_RESPONSE', async () => {
    const { service } = createHarness(async () => jsonResponse(buildErrorEnvelope('NOT_FOUND')));
    expect(await service.getSnapshot(request)).toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('an oversized body announced by Content-Length is not read', async () => {
    const { service } = createHarness(async () =>
      streamResponse([new Uint8Array(10)], { headers: { 'content-length': String(DEFAULT_MAX_BODY_BYTES + 1) } }),
    );
    expect(await service.getSnapshot(request)).toMatchObject({
      code: 'INVALID_RESPONSE',
      message: expect.stringContaining('256 KB') as string,
    });
  });

  it('an oversized streamed body is cut off past the cap', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(64 * 1024).fill(32));
      },
    });
    const { service } = createHarness(async () => new Response(endless, { status: 200 }));
    const result = await service.getSnapshot(request);
    expect(result).toMatchObject({ code: 'INVALID_RESPONSE', httpStatus: 200 });
    expect(pulled).toBeLessThan(10);
  });

  it('a body just under the cap is read', async () => {
    const json = JSON.stringify(buildSuccessEnvelope());
    const { service } = createHarness(async () => new Response(json, { status: 200 }), {
      maxBodyBytes: new TextEncoder().encode(json).byteLength,
    });
    expect(await service.getSnapshot(request)).toMatchObject({ status: 'ready' });
  });

  it('a non-JSON 5xx → NETWORK with the HTTP status (transient, not cached)', async () => {
    const { service } = createHarness(async () => new Response('<h1>502 Bad Gateway</h1>', { status: 502 }));
    expect(await service.getSnapshot(request)).toMatchObject({ status: 'error', code: 'NETWORK', httpStatus: 502 });
  });

  it('a JSON 500 carries the server’s message', async () => {
    const { service } = createHarness(async () =>
      jsonResponse(buildErrorEnvelope('INTERNAL_ERROR', 'database down'), { status: 500 }),
    );
    expect(await service.getSnapshot(request)).toMatchObject({
      code: 'NETWORK',
      httpStatus: 500,
      message: expect.stringContaining('database down') as string,
    });
  });

  it('an unexpected status (e.g. 403) → INVALID_RESPONSE with the status', async () => {
    const { service } = createHarness(async () => new Response('nope', { status: 403 }));
    expect(await service.getSnapshot(request)).toMatchObject({ code: 'INVALID_RESPONSE', httpStatus: 403 });
  });

  it('a failed connection → NETWORK', async () => {
    const { service } = createHarness(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await service.getSnapshot(request)).toMatchObject({ code: 'NETWORK' });
  });

  it('a 404 with an HTML body is still NOT_FOUND', async () => {
    const { service } = createHarness(async () => new Response('<h1>Not found</h1>', { status: 404 }));
    expect(await service.getSnapshot(request)).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('timeout', () => {
  it('aborts a request that gets no answer → TIMEOUT', async () => {
    let aborted = false;
    const { service } = createHarness(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
      { timeoutMs: 30 },
    );
    expect(await service.getSnapshot(request)).toMatchObject({ status: 'error', code: 'TIMEOUT' });
    expect(aborted).toBe(true);
  });

  it('times out even if the fetch implementation ignores the signal', async () => {
    const { service } = createHarness(() => new Promise<Response>(() => undefined), { timeoutMs: 30 });
    expect(await service.getSnapshot(request)).toMatchObject({ code: 'TIMEOUT' });
  });

  it('times out a body that stops arriving', async () => {
    const { service } = createHarness(async () => streamResponse([new TextEncoder().encode('{"success":')], { close: false }), {
      timeoutMs: 30,
    });
    expect(await service.getSnapshot(request)).toMatchObject({ code: 'TIMEOUT' });
  });

  describe('one deadline for hovers and the watchlist (issue #33 item 4)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it.each([
      ['a hover', (service: ReturnType<typeof createHarness>['service']) => service.getSnapshot(request)],
      [
        'the watchlist’s scheduled refresh',
        (service: ReturnType<typeof createHarness>['service']) => service.refreshInBackground(request, { reserve: 0 }),
      ],
      ['the watchlist’s own refresh', (service: ReturnType<typeof createHarness>['service']) => service.refresh(request)],
    ])('%s is given up at the deadline, with its reason', async (_name, ask) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { service } = createHarness(() => new Promise<Response>(() => undefined));
      let answer: unknown;
      void ask(service).then((result) => (answer = result));
      await flush();
      await vi.advanceTimersByTimeAsync(SNAPSHOT_DEADLINE_MS - 1);
      expect(answer).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await flush();
      expect(answer).toMatchObject({ status: 'error', code: 'TIMEOUT', reason: 'timeout' });
    });
  });

  it('a timed-out request is not cached and can be retried', async () => {
    let calls = 0;
    const { service, fetch } = createHarness(
      () => (calls++ === 0 ? new Promise<Response>(() => undefined) : Promise.resolve(okResponse())),
      { timeoutMs: 30 },
    );
    expect(await service.getSnapshot(request)).toMatchObject({ code: 'TIMEOUT' });
    expect(await service.getSnapshot(request)).toMatchObject({ status: 'ready' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
