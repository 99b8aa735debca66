import { describe, expect, it } from 'vitest';
import { manualClock, type Clock } from '../../server/clock';
import { MemoryRateLimitStore } from '../../server/rate-limit/memory-store';
import { SqlRateLimitStore } from '../../server/rate-limit/sql-store';
import {
  START,
  expectError,
  founderWithLink,
  makeApp,
  withSharedApp,
  snapshotPath,
  uniqueIp,
  type TestApp,
} from './support/harness';
import type { Database } from '../../server/db/driver';

let db: Database;
let t: TestApp;
withSharedApp((app, database) => {
  t = app;
  db = database;
});

const post = (path: string, body: unknown = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('rate limit: 60 requests per minute per client address', () => {
  it('allows the 60th request and refuses the 61st with 429, Retry-After and RateLimit headers', async () => {
    const { link } = await founderWithLink(t);
    const ip = uniqueIp();
    for (let i = 1; i <= 59; i++) expect((await t.request(snapshotPath(link.token), { ip })).status).toBe(200);
    const sixtieth = await t.request(snapshotPath(link.token), { ip });
    expect(sixtieth.status).toBe(200);
    expect(sixtieth.headers.get('ratelimit-limit')).toBe('60');
    expect(sixtieth.headers.get('ratelimit-remaining')).toBe('0');
    expect(sixtieth.headers.get('ratelimit-policy')).toBe('60;w=60');

    const limited = await t.request(snapshotPath(link.token), { ip });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit-limit')).toBe('60');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(limited.headers.get('cache-control')).toBe('no-store');
    expect(limited.headers.get('access-control-allow-origin')).toBe('*');
    await expectError(limited, 429, 'RATE_LIMITED');

    // Another address is unaffected.
    expect((await t.request(snapshotPath(link.token), { ip: uniqueIp() })).status).toBe(200);
  });

  it('Retry-After follows the dev clock, and the window reopens once the clock passes it', async () => {
    const { link } = await founderWithLink(t);
    const ip = uniqueIp();
    for (let i = 0; i < 60; i++) await t.request(snapshotPath(link.token), { ip });
    await t.request('/api/dev/clock', post('/api/dev/clock', { advance_ms: 45_000 }));
    const limited = await t.request(snapshotPath(link.token), { ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(15);

    const moved = await t.request('/api/dev/clock', post('/api/dev/clock', { advance_ms: 15_000 }));
    expect(moved.status).toBe(200);
    const recovered = await t.request(snapshotPath(link.token), { ip });
    expect(recovered.status).toBe(200);
    expect(recovered.headers.get('ratelimit-remaining')).toBe('59');
  });

  it('counts every request, errors included (404s use up the budget)', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 60; i++) expect((await t.request(snapshotPath(`unknown${i}`.padEnd(43, 'x')), { ip })).status).toBe(404);
    const { link } = await founderWithLink(t);
    await expectError(await t.request(snapshotPath(link.token), { ip }), 429, 'RATE_LIMITED');
  });

  it('shares one bucket between the API and the human share view', async () => {
    const { link } = await founderWithLink(t);
    const ip = uniqueIp();
    for (let i = 0; i < 30; i++) expect((await t.request(snapshotPath(link.token), { ip })).status).toBe(200);
    for (let i = 0; i < 30; i++) expect((await t.request(`/share/${link.token}`, { ip })).status).toBe(200);
    await expectError(await t.request(snapshotPath(link.token), { ip }), 429, 'RATE_LIMITED');
    const page = await t.request(`/share/${link.token}`, { ip });
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
    // A method no browser navigates with gets the JSON envelope, not the page (found by the fuzz test).
    await expectError(await t.request(`/share/${link.token}`, { ip, method: 'DELETE' }), 429, 'RATE_LIMITED');
  });

  it('does not limit the founder API or health', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 65; i++) expect((await t.request('/api/health', { ip })).status).toBe(200);
  });

  it('POST /api/dev/reset clears rate-limit state', async () => {
    const { link } = await founderWithLink(t);
    const ip = uniqueIp();
    for (let i = 0; i < 61; i++) await t.request(snapshotPath(link.token), { ip });
    expect((await t.request(snapshotPath(link.token), { ip })).status).toBe(429);
    const reset = await t.request('/api/dev/reset', post('/api/dev/reset'));
    expect(reset.status).toBe(200);
    expect((await t.request(snapshotPath(link.token), { ip })).status).toBe(200);
  });

  it('ignores X-Forwarded-For unless the proxy is trusted', async () => {
    const { link } = await founderWithLink(t);
    const ip = uniqueIp();
    for (let i = 0; i < 60; i++) {
      await t.request(snapshotPath(link.token), { ip, headers: { 'x-forwarded-for': uniqueIp() } });
    }
    // A client rotating the header still hits its socket address's limit.
    expect((await t.request(snapshotPath(link.token), { ip, headers: { 'x-forwarded-for': uniqueIp() } })).status).toBe(429);
  });

  it('keys by the right-most X-Forwarded-For entry behind a trusted proxy', async () => {
    const proxied = makeApp(db, { config: { trustProxy: true } });
    const { link } = await founderWithLink(proxied);
    const proxyIp = uniqueIp();
    const client = uniqueIp();
    for (let i = 0; i < 60; i++) {
      const response = await proxied.request(snapshotPath(link.token), {
        ip: proxyIp,
        headers: { 'x-forwarded-for': `${uniqueIp()}, ${client}` }, // left part is client-forged
      });
      expect(response.status).toBe(200);
    }
    expect(
      (await proxied.request(snapshotPath(link.token), { ip: proxyIp, headers: { 'x-forwarded-for': client } })).status,
    ).toBe(429);
    // Other clients behind the same proxy have their own buckets.
    expect(
      (await proxied.request(snapshotPath(link.token), { ip: proxyIp, headers: { 'x-forwarded-for': uniqueIp() } })).status,
    ).toBe(200);
    // Without the header, the socket address is the key.
    expect((await proxied.request(snapshotPath(link.token), { ip: uniqueIp() })).status).toBe(200);
  });

  it('treats requests without a socket (no incoming binding) as one safe fallback client', async () => {
    const { link } = await founderWithLink(t);
    await t.store.resetAll();
    for (let i = 0; i < 60; i++) expect((await t.app.request(snapshotPath(link.token))).status).toBe(200);
    expect((await t.app.request(snapshotPath(link.token))).status).toBe(429);
    await t.store.resetAll();
  });
});

describe.each([
  ['memory store', (clock: Clock) => new MemoryRateLimitStore(clock)],
  ['SQL store', (clock: Clock) => new SqlRateLimitStore(db, clock)],
] as const)('%s', (_name, makeStore) => {
  it('counts fixed windows on the injected clock and reports reset times in real time', async () => {
    const clock = manualClock(START);
    const store = makeStore(clock);
    store.init({ windowMs: 60_000 });
    const key = `k:${uniqueIp()}`;
    expect((await store.increment(key)).totalHits).toBe(1);
    clock.advance(30_000);
    const second = await store.increment(key);
    expect(second.totalHits).toBe(2);
    const secondsLeft = ((second.resetTime?.getTime() ?? 0) - Date.now()) / 1000;
    expect(secondsLeft).toBeGreaterThan(28);
    expect(secondsLeft).toBeLessThanOrEqual(30);
    await store.decrement(key);
    expect((await store.get(key))?.totalHits).toBe(1);
    clock.advance(30_000);
    expect((await store.increment(key)).totalHits).toBe(1);
    await store.resetKey(key);
    expect(await store.get(key)).toBeUndefined();
  });

  it('loses no hit under 100 concurrent increments of one key', async () => {
    const store = makeStore(manualClock(START));
    store.init({ windowMs: 60_000 });
    const key = `k:${uniqueIp()}`;
    const results = await Promise.all(Array.from({ length: 100 }, async () => store.increment(key)));
    expect(results.map((r) => r.totalHits).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });
});
