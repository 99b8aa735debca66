/**
 * The bundled server's defences against web pages on the developer's own machine (docs/security.md
 * section 5): the `Host` check against DNS rebinding, and founder/dev writes refused when a browser
 * marks them as cross-origin or (dev API) when they are "simple" requests that skip CORS preflight.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CROSS_ORIGIN_REQUEST_MESSAGE, HOST_NOT_ALLOWED_MESSAGE } from '../../server/platform/http/errors';
import {
  LOOPBACK_ONLY,
  allowedHostName,
  allowedHostsFor,
  hostChecker,
  type AllowedHosts,
} from '../../server/platform/http/hosts';
import {
  BASE,
  expectError,
  founderWithLink,
  makeApp,
  withSharedApp,
  signUp,
  snapshotPath,
  uniqueIp,
  type TestApp,
} from './support/harness';
import type { Database } from '../../server/platform/db/driver';

let db: Database;
let t: TestApp;
withSharedApp((app, database) => {
  t = app;
  db = database;
});

/**
 * A request as @hono/node-server builds it from a socket: the URL's authority is the `Host` header
 * (a header no URL can hold, e.g. a bad port, goes with a loopback URL). `host: null` sends no header.
 */
function asHost(app: TestApp, host: string | null, path: string, init: RequestInit = {}): Promise<Response> {
  const url = host !== null && URL.canParse(`http://${host}/`) ? `http://${host}${path}` : `http://localhost${path}`;
  const headers = new Headers(init.headers);
  if (host !== null) headers.set('host', host);
  return Promise.resolve(app.app.request(url, { ...init, headers }, { incoming: { socket: { remoteAddress: uniqueIp() } } }));
}

const appWith = (allowedHosts: AllowedHosts) => makeApp(db, { config: { allowedHosts } });

const viewCount = async (app: TestApp, token: string) =>
  z.object({ meta: z.object({ view_count: z.number() }) }).parse(await (await app.request(snapshotPath(token))).json()).meta
    .view_count;

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

async function expectHostRefused(response: Response): Promise<void> {
  const body = await expectError(response, 421, 'HOST_NOT_ALLOWED');
  expect(body.error).toBe(HOST_NOT_ALLOWED_MESSAGE);
  expect(body.error).toContain('--allowed-host');
  expect(body.error).toContain('DNS rebinding');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('access-control-allow-origin')).toBeNull();
}

async function expectHostRefusedPage(response: Response): Promise<string> {
  const html = await response.text();
  expect(response.status, html).toBe(421);
  expect(response.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/i);
  expect(html).toMatch(/^<!doctype html>/i);
  expect(html).toContain('data-status="421"');
  expect(html).toContain('Error 421 · Misdirected Request');
  expect(html).toContain('--allowed-host NAME');
  return html;
}

describe('Host check (DNS rebinding)', () => {
  const REFUSED = [
    'evil.example',
    'evil.example:8787',
    '127.0.0.1.evil.example',
    'localhost.evil.example',
    'evil-localhost',
    'lens.test', // allowed in the shared harness app, not in a loopback-only one
    '127.1', // resolvers read it as 127.0.0.1, but it is a name here, not the literal
    '0.0.0.0',
    '[::ffff:127.0.0.1]',
    'localhost:99999',
    'localhost:80x',
    '',
  ];

  it.each([
    'localhost:8787',
    '127.0.0.1:1234',
    '[::1]:8787',
    'localhost',
    '127.0.0.1',
    '[::1]',
    'LocalHost:8787',
    '[0:0:0:0:0:0:0:1]:8787',
  ])('answers Host %s by default (loopback names, any port)', async (host) => {
    const loopback = appWith(LOOPBACK_ONLY);
    const health = await asHost(loopback, host, '/api/health');
    expect(health.status, await health.clone().text()).toBe(200);
    const demo = await asHost(loopback, host, '/demo');
    expect(demo.status).toBe(200);
    expect(await demo.text()).toMatch(/^<!doctype html>/i);
  });

  it.each(REFUSED)('refuses Host "%s" with 421 HOST_NOT_ALLOWED on the API and an HTML 421 page on /demo', async (host) => {
    const loopback = appWith(LOOPBACK_ONLY);
    await expectHostRefused(await asHost(loopback, host, '/api/health'));
    await expectHostRefused(await asHost(loopback, host, '/api/openapi.json'));
    await expectHostRefused(
      await asHost(loopback, host, '/api/founder/organisations', json({ name: 'Rebound Ltd', subscription_tier: 'growth' })),
    );
    await expectHostRefusedPage(await asHost(loopback, host, '/demo'));
    await expectHostRefusedPage(await asHost(loopback, host, '/'));
  });

  it('a rebinding page reads no seeded demo token from /demo', async () => {
    const token = 'D'.repeat(43);
    const demoLinks = () => [
      {
        label: 'Seed',
        company: 'Demo Co',
        state: 'active' as const,
        token,
        apiUrl: `http://localhost/api/v1/compliance-status/${token}`,
        shareUrl: `http://localhost/share/${token}`,
      },
    ];
    const seeded = makeApp(db, { config: { allowedHosts: LOOPBACK_ONLY }, demo: { links: demoLinks } });
    expect(await (await asHost(seeded, 'localhost:8787', '/demo')).text()).toContain(token);
    expect(await expectHostRefusedPage(await asHost(seeded, 'attacker.example:8787', '/demo'))).not.toContain(token);
  });

  it('a refused Host counts no view and costs no rate-limit budget: snapshot API (JSON 421) and share view (HTML 421 with the share headers)', async () => {
    const loopback = appWith(LOOPBACK_ONLY);
    const { link } = await founderWithLink(t);
    const api = await asHost(loopback, 'evil.example:8787', snapshotPath(link.token));
    await expectHostRefused(api);
    expect(api.headers.get('ratelimit-limit')).toBeNull();
    expect(api.headers.get('cache-control')).toBe('no-store');
    const page = await asHost(loopback, 'evil.example', `/share/${link.token}`);
    expect(await expectHostRefusedPage(page)).not.toContain(link.token);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await viewCount(t, link.token)).toBe(1);
  });

  it('a rebinding page cannot drive the dev API: POST /api/dev/reset and /api/dev/clock are refused before they run', async () => {
    const loopback = appWith(LOOPBACK_ONLY);
    const before = loopback.clock.now().getTime();
    await expectHostRefused(await asHost(loopback, 'evil.example', '/api/dev/clock', json({ advance_ms: 60_000 })));
    await expectHostRefused(await asHost(loopback, 'evil.example', '/api/dev/reset', json({})));
    expect(loopback.clock.now().getTime()).toBe(before);
  });

  it('without a Host header the URL authority decides (app.request, HTTP/1.0); a Host header and the URL must both be allowed', async () => {
    const loopback = appWith(LOOPBACK_ONLY);
    // Hono's app.request default: http://localhost/…, no Host header.
    expect((await loopback.app.request('/api/health')).status).toBe(200);
    expect((await asHost(loopback, null, '/api/health')).status).toBe(200);
    await expectHostRefused(await loopback.app.request('http://evil.example/api/health'));
    // Host header names another host than the URL (an absolute-form request target): both are checked.
    await expectHostRefused(await loopback.app.request('http://localhost/api/health', { headers: { host: 'evil.example' } }));
    await expectHostRefused(await loopback.app.request('http://evil.example/api/health', { headers: { host: 'localhost' } }));
  });

  it('answers an --allowed-host name on any port, and nothing that merely contains it', async () => {
    const app = appWith(allowedHostsFor({ bindHost: '127.0.0.1', extra: ['devbox.test'] }));
    for (const host of ['devbox.test', 'devbox.test:8787', 'DEVBOX.TEST:1234', 'localhost:8787', '127.0.0.1:8787']) {
      expect((await asHost(app, host, '/api/health')).status, host).toBe(200);
    }
    for (const host of ['sub.devbox.test', 'devbox.test.evil.example', 'devbox.testx', 'evil.example']) {
      await expectHostRefused(await asHost(app, host, '/api/health'));
    }
  });

  it('answers the --host name it binds to; a wildcard bind (0.0.0.0, ::) answers any IP literal but still no foreign name', async () => {
    const lan = appWith(allowedHostsFor({ bindHost: '192.168.1.20' }));
    expect((await asHost(lan, '192.168.1.20:8787', '/api/health')).status).toBe(200);
    await expectHostRefused(await asHost(lan, '192.168.1.21:8787', '/api/health'));

    for (const bindHost of ['0.0.0.0', '::']) {
      const wildcard = appWith(allowedHostsFor({ bindHost, extra: ['devbox.test'] }));
      for (const host of ['192.168.1.20:8787', '10.0.0.7', '[fe80::1]:8787', '[::1]', 'localhost:8787', 'devbox.test']) {
        expect((await asHost(wildcard, host, '/api/health')).status, `${bindHost} ${host}`).toBe(200);
      }
      for (const host of ['evil.example', '192.168.1.20.evil.example', '127.1']) {
        await expectHostRefused(await asHost(wildcard, host, '/api/health'));
      }
    }
  });

  it('answers the host of PUBLIC_BASE_URL (the links it hands out point there)', async () => {
    const proxied = appWith(allowedHostsFor({ bindHost: '127.0.0.1', publicBaseUrl: 'https://comply.example/' }));
    expect((await asHost(proxied, 'comply.example', '/api/health')).status).toBe(200);
    await expectHostRefused(await asHost(proxied, 'other.example', '/api/health'));
  });

  it('--allowed-host values are host names or IP addresses only (lower-cased, IPv6 bracketed); anything else is refused', () => {
    expect(allowedHostName.parse('DevBox.Test')).toBe('devbox.test');
    expect(allowedHostName.parse('::1')).toBe('[::1]');
    expect(allowedHostName.parse('[0:0:0:0:0:0:0:1]')).toBe('[::1]');
    expect(allowedHostName.parse('192.168.1.20')).toBe('192.168.1.20');
    expect(allowedHostName.parse('my_service')).toBe('my_service');
    for (const bad of [
      '',
      'http://devbox.test',
      'devbox.test:8787',
      'devbox.test/x',
      '*',
      '*.devbox.test',
      'dev box',
      'a..b',
      '-a.test',
      'fe80::1%eth0',
      'a'.repeat(64),
    ]) {
      expect(allowedHostName.safeParse(bad).success, bad).toBe(false);
    }
    expect(() => allowedHostsFor({ bindHost: '127.0.0.1', extra: ['http://devbox.test'] })).toThrow();
  });

  it('property: a name built around an allowed one (prefix, suffix, subdomain, parent) is always refused', () => {
    const allowed = ['localhost', '127.0.0.1', '[::1]', 'devbox.test'];
    const isAllowed = hostChecker({ names: ['devbox.test'], anyIpAddress: false });
    const label = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,10}[a-z0-9]$/);
    fc.assert(
      fc.property(
        fc.constantFrom(...allowed),
        label,
        fc.constantFrom('sub', 'suffix', 'prefix', 'glued'),
        fc.option(fc.integer({ min: 0, max: 65_535 })),
        (name, extra, shape, port) => {
          const host = {
            sub: `${extra}.${name}`,
            suffix: `${name}.${extra}`,
            prefix: `${extra}${name}`,
            glued: `${name}${extra}`,
          }[shape];
          expect(isAllowed(port === null ? host : `${host}:${port}`), host).toBe(false);
          expect(isAllowed(port === null ? name : `${name}:${port}`), name).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('cross-site writes to the founder and dev APIs', () => {
  /** A client over its limit: it stays at 429 until the rate-limit state is really cleared. */
  async function limitedClient(): Promise<{ ip: string; path: string }> {
    const { link } = await founderWithLink(t);
    const ip = uniqueIp();
    for (let i = 0; i < 60; i++) await t.request(snapshotPath(link.token), { ip });
    expect((await t.request(snapshotPath(link.token), { ip })).status).toBe(429);
    return { ip, path: snapshotPath(link.token) };
  }

  it('the simple cross-site POST a page can send (no body, form or text types, with its Origin) is refused and clears nothing', async () => {
    const client = await limitedClient();
    const origin = { origin: 'https://evil.example' };
    const simple: RequestInit[] = [
      { method: 'POST', headers: origin },
      { method: 'POST', headers: { ...origin, 'content-type': 'text/plain' }, body: '{}' },
      { method: 'POST', headers: { ...origin, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' },
      { method: 'POST', headers: { ...origin, 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--' },
    ];
    for (const init of simple) await expectError(await t.request('/api/dev/reset', init), 403, 'CROSS_ORIGIN_REQUEST');
    expect((await t.request(client.path, { ip: client.ip })).status).toBe(429);
  });

  it('POST /api/dev/clock with a text/plain body is 415 and leaves the clock alone', async () => {
    const before = t.clock.now().getTime();
    await expectError(
      await t.request('/api/dev/clock', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{"advance_ms":60000}',
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(t.clock.now().getTime()).toBe(before);
  });

  it.each([
    ['Origin of another site', { origin: 'https://evil.example' }],
    [
      'Origin of another local port (same site, other origin)',
      { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site' },
    ],
    ['Origin: null (sandboxed frame, file: page)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
  ])('dev POST with %s: 403 CROSS_ORIGIN_REQUEST, even with a JSON body, and nothing changes', async (_label, headers) => {
    const client = await limitedClient();
    const before = t.clock.now().getTime();
    const reset = await expectError(await t.request('/api/dev/reset', json({}, headers)), 403, 'CROSS_ORIGIN_REQUEST');
    expect(reset.error).toBe(CROSS_ORIGIN_REQUEST_MESSAGE);
    await expectError(await t.request('/api/dev/clock', json({ advance_ms: 60_000 }, headers)), 403, 'CROSS_ORIGIN_REQUEST');
    expect(t.clock.now().getTime()).toBe(before);
    expect((await t.request(client.path, { ip: client.ip })).status).toBe(429);
  });

  it('founder writes from another origin are 403 CROSS_ORIGIN_REQUEST and change nothing; reads and the public snapshot API are unaffected', async () => {
    const { founder, link } = await founderWithLink(t);
    const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    await expectError(
      await t.request('/api/founder/organisations', json({ name: 'Drive-by Ltd', subscription_tier: 'growth' }, crossSite)),
      403,
      'CROSS_ORIGIN_REQUEST',
    );
    await expectError(
      await t.request(`/api/founder/share-links/${link.id}/revoke`, {
        method: 'POST',
        headers: { authorization: `Bearer ${founder.key}`, ...crossSite },
      }),
      403,
      'CROSS_ORIGIN_REQUEST',
    );
    await expectError(
      await t.request('/api/founder/organisation', {
        method: 'PATCH',
        headers: { authorization: `Bearer ${founder.key}`, 'content-type': 'application/json', ...crossSite },
        body: JSON.stringify({ name: 'Renamed' }),
      }),
      403,
      'CROSS_ORIGIN_REQUEST',
    );
    // Still active, still named as before.
    expect((await t.request(snapshotPath(link.token))).status).toBe(200);
    const read = await t.request('/api/founder/organisation', {
      headers: { authorization: `Bearer ${founder.key}`, ...crossSite },
    });
    expect(read.status).toBe(200);
    expect(
      z.object({ data: z.object({ organisation: z.object({ name: z.string() }) }) }).parse(await read.json()).data.organisation
        .name,
    ).not.toBe('Renamed');
    const publicRead = await t.request(snapshotPath(link.token), { headers: crossSite });
    expect(publicRead.status).toBe(200);
    expect(publicRead.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('the legitimate calls work: JSON {} from a script (no Origin), same-origin or Sec-Fetch-Site: none', async () => {
    const client = await limitedClient();
    const reset = await t.request('/api/dev/reset', json({}));
    expect(reset.status, await reset.clone().text()).toBe(200);
    expect(
      z.object({ success: z.literal(true), data: z.object({ rate_limits_cleared: z.literal(true) }) }).parse(await reset.json())
        .success,
    ).toBe(true);
    expect((await t.request(client.path, { ip: client.ip })).status).toBe(200);

    expect((await t.request('/api/dev/reset', json({}, { origin: BASE, 'sec-fetch-site': 'same-origin' }))).status).toBe(200);
    expect((await t.request('/api/dev/reset', json({}, { 'sec-fetch-site': 'none' }))).status).toBe(200);
    // An empty body counts as {}; a body-less POST from a script (the DESIGN contract) keeps working.
    expect((await t.request('/api/dev/reset', { method: 'POST', headers: { 'content-type': 'application/json' } })).status).toBe(
      200,
    );
    expect((await t.request('/api/dev/reset', { method: 'POST' })).status).toBe(200);
    const before = t.clock.now().getTime();
    expect((await t.request('/api/dev/clock', json({ advance_ms: 1_000 }, { origin: BASE }))).status).toBe(200);
    expect(t.clock.now().getTime()).toBe(before + 1_000);
    // Founder writes from scripts keep working, bodiless bearer POSTs included.
    const founder = await signUp(t);
    await founder.createPack();
    const link = await founder.createLink();
    const revoke = await t.request(`/api/founder/share-links/${link.id}/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${founder.key}` },
    });
    expect(revoke.status).toBe(200);
  });

  it('behind a TLS proxy, an Origin equal to PUBLIC_BASE_URL is our own', async () => {
    const proxied = makeApp(db, { config: { publicBaseUrl: 'https://comply.example/' } });
    expect((await proxied.request('/api/dev/reset', json({}, { origin: 'https://comply.example' }))).status).toBe(200);
    await expectError(
      await proxied.request('/api/dev/reset', json({}, { origin: 'https://evil.example' })),
      403,
      'CROSS_ORIGIN_REQUEST',
    );
  });

  it('without --dev a cross-site dev POST is still the plain 404', async () => {
    const prod = makeApp(db, { config: { dev: false } });
    await expectError(
      await prod.request('/api/dev/reset', { method: 'POST', headers: { origin: 'https://evil.example' } }),
      404,
      'NOT_FOUND',
    );
  });
});
