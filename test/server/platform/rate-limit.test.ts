import { describe, expect, it } from 'vitest';
import { manualClock, type Clock } from '../../../server/platform/clock';
import { MemoryRateLimitStore } from '../../../server/platform/rate-limit/memory-store';
import { SqlRateLimitStore } from '../../../server/platform/rate-limit/sql-store';
import {
  START,
  expectError,
  founderWithLink,
  makeApp,
  withSharedApp,
  snapshotPath,
  uniqueIp,
  type TestApp,
} from '../support/harness';
import type { Database } from '../../../server/platform/db/driver';

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

let prefixCounter = 0;
/** A /64 no other test uses (2001:db8::/32 is the documentation range), written as its first four groups. */
function uniquePrefix(): string {
  prefixCounter += 1;
  const n = prefixCounter + Math.floor(Math.random() * 1_000) * 1_000;
  return `2001:db8:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
}

describe('rate-limit keys: an IPv6 client by its /64, an IPv4 client by its address, every spelling alike', () => {
  /** 60 requests from `spellings` (in turn) use up one budget; the 61st is refused. */
  async function exhaust(
    app: TestApp,
    token: string,
    spellings: readonly string[],
    via: 'socket' | 'forwarded',
    proxyIp?: string,
  ) {
    for (let i = 0; i < 60; i++) {
      const address = spellings[i % spellings.length] ?? '';
      const response = await requestFrom(app, token, address, via, proxyIp);
      expect(response.status, `request ${i + 1} from ${address}`).toBe(200);
    }
  }

  function requestFrom(app: TestApp, token: string, address: string, via: 'socket' | 'forwarded', proxyIp = uniqueIp()) {
    return via === 'socket'
      ? app.request(snapshotPath(token), { ip: address })
      : app.request(snapshotPath(token), { ip: proxyIp, headers: { 'x-forwarded-for': address } });
  }

  describe.each(['socket', 'forwarded'] as const)('client address from the %s', (via) => {
    const appFor = () => (via === 'socket' ? t : makeApp(db, { config: { trustProxy: true } }));

    it('one /64 shares one budget: after 60 from one address, its neighbours in the /64 are refused', async () => {
      const app = appFor();
      const { link } = await founderWithLink(app);
      const prefix = uniquePrefix();
      await exhaust(app, link.token, [`${prefix}::1`], via);
      for (const neighbour of [
        `${prefix}::1`,
        `${prefix}::2`,
        `${prefix}:ffff:ffff:ffff:fffe`,
        `${prefix}:1234:5678:9abc:def0`,
      ]) {
        await expectError(await requestFrom(app, link.token, neighbour, via), 429, 'RATE_LIMITED');
      }
    });

    it('a different /64 has its own budget, even next door', async () => {
      const app = appFor();
      const { link } = await founderWithLink(app);
      const prefix = uniquePrefix();
      await exhaust(app, link.token, [`${prefix}::1`], via);
      const [a, b, c, d] = prefix.split(':');
      const nextDoor = `${a}:${b}:${c}:${(parseInt(d ?? '0', 16) ^ 1).toString(16)}::1`;
      expect((await requestFrom(app, link.token, nextDoor, via)).status).toBe(200);
      expect((await requestFrom(app, link.token, `${uniquePrefix()}::1`, via)).status).toBe(200);
    });

    it('every spelling of one IPv6 address draws on one budget (expanded, upper case, leading zeros, zone id)', async () => {
      const app = appFor();
      const { link } = await founderWithLink(app);
      const prefix = uniquePrefix();
      const [a, b, c, d] = prefix.split(':').map((group) => (group ?? '').padStart(4, '0'));
      const spellings = [
        `${prefix}::1`,
        `${a}:${b}:${c}:${d}:0000:0000:0000:0001`.toUpperCase(),
        `${a}:${b}:${c}:${d}:0:0:0:1`,
        `${prefix}:0::01`,
        `${prefix}::1%eth0`,
      ];
      await exhaust(app, link.token, spellings, via);
      for (const spelling of spellings) {
        await expectError(await requestFrom(app, link.token, spelling, via), 429, 'RATE_LIMITED');
      }
    });

    it('an IPv4-mapped IPv6 address is its IPv4 address, and IPv4 stays per address', async () => {
      const app = appFor();
      const { link } = await founderWithLink(app);
      const [, b, c, d] = uniqueIp().split('.');
      const ipv4 = `192.${b}.${c}.${d}`;
      const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
      const [o1, o2, o3, o4] = ipv4.split('.').map(Number) as [number, number, number, number];
      const spellings = [
        ipv4,
        `::ffff:${ipv4}`,
        `::FFFF:${ipv4}`,
        `0:0:0:0:0:ffff:${ipv4}`,
        `::ffff:${hex(o1, o2)}:${hex(o3, o4)}`,
        `0000:0000:0000:0000:0000:FFFF:${hex(o1, o2).padStart(4, '0')}:${hex(o3, o4).padStart(4, '0')}`,
      ];
      await exhaust(app, link.token, spellings, via);
      for (const spelling of spellings) {
        await expectError(await requestFrom(app, link.token, spelling, via), 429, 'RATE_LIMITED');
      }
      // Per address: the neighbouring IPv4 address, however spelt, has its own budget (not one ::/64 for all of IPv4).
      const neighbour = `192.${b}.${c}.${o4 ^ 1}`;
      expect((await requestFrom(app, link.token, neighbour, via)).status).toBe(200);
      expect((await requestFrom(app, link.token, `::ffff:${neighbour}`, via)).status).toBe(200);
    });
  });

  it('garbage in the right-most X-Forwarded-For entry falls back to the socket address (no bucket of its own)', async () => {
    const proxied = makeApp(db, { config: { trustProxy: true } });
    const { link } = await founderWithLink(proxied);
    const proxyIp = uniqueIp();
    const victim = uniqueIp();
    const garbage = [
      'unknown',
      '',
      `${victim}, `, // an empty right-most entry: the left part is client-supplied
      `${victim},`,
      '999.1.1.1',
      '01.2.3.4',
      '1.2.3.4:8080',
      '[2001:db8::1]',
      '2001:db8::1::2',
      '::ffff:1.2.3.4.5',
      'fe80::1%',
      'x'.repeat(2_000),
      '<script>',
      'null',
    ];
    for (let i = 0; i < 60; i++) {
      const forwarded = `${garbage[i % garbage.length] ?? ''}${i >= garbage.length ? `#${i}` : ''}`;
      const response = await proxied.request(snapshotPath(link.token), {
        ip: proxyIp,
        headers: { 'x-forwarded-for': forwarded },
      });
      expect(response.status, JSON.stringify(forwarded.slice(0, 40))).toBe(200);
    }
    // All of them were the proxy's own bucket: it is now empty, with or without a header.
    await expectError(
      await proxied.request(snapshotPath(link.token), { ip: proxyIp, headers: { 'x-forwarded-for': 'another garbage' } }),
      429,
      'RATE_LIMITED',
    );
    await expectError(await proxied.request(snapshotPath(link.token), { ip: proxyIp }), 429, 'RATE_LIMITED');
    // The address a client tried to borrow (left of an empty entry) was never charged; real clients behind the proxy are unaffected.
    expect(
      (await proxied.request(snapshotPath(link.token), { ip: proxyIp, headers: { 'x-forwarded-for': victim } })).status,
    ).toBe(200);
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
