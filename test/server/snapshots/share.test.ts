import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seedDemo, formatDemoLinks } from '../../../server/dev/seed';
import { DEMO_ORGANISATIONS } from '../../../server/dev/seed-data';
import type { DemoLink } from '../../../server/dev/demo-page';
import {
  BASE,
  expectError,
  founderWithLink,
  listedViewCount,
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

const DAY = 24 * 60 * 60 * 1000;
const viewCount = async (token: string) =>
  z.object({ meta: z.object({ view_count: z.number() }) }).parse(await (await t.request(snapshotPath(token))).json()).meta
    .view_count;

function expectShareHeaders(response: Response): void {
  expect(response.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/i);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toMatch(/script-src/);
  expect(csp).toContain("frame-ancestors 'none'");
}

describe('GET /share/{token}', () => {
  it('renders the investor view with the disclaimer and counts a view like the API', async () => {
    const { link } = await founderWithLink(t, { name: 'Share View <Pay> Ltd' });
    const response = await t.request(`/share/${link.token}`);
    expect(response.status).toBe(200);
    expectShareHeaders(response);
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('Share View &lt;Pay&gt; Ltd');
    expect(html).not.toContain('<script');
    expect(html).toContain('AI-assisted self-assessment');
    // The page was view 1; the API call is view 2.
    expect(await viewCount(link.token)).toBe(2);
  });

  it('404 page for unknown, malformed and revoked tokens (identical), with the same headers', async () => {
    const { founder, link } = await founderWithLink(t);
    await founder.call('POST', `/api/founder/share-links/${link.id}/revoke`);
    const pages: string[] = [];
    for (const token of [link.token, 'C'.repeat(43), 'bad%00token', 'x'.repeat(5000), 'a/b']) {
      const response = await t.request(`/share/${token}`);
      expect(response.status).toBe(404);
      expectShareHeaders(response);
      pages.push(await response.text());
    }
    expect(new Set(pages).size).toBe(1);
    expect(pages[0]).toContain('data-status="404"');
  });

  it('410 page once expired (via the dev clock), counting no view', async () => {
    const { founder, link } = await founderWithLink(t);
    await t.request('/api/dev/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 7 * DAY }),
    });
    const response = await t.request(`/share/${link.token}`);
    expect(response.status).toBe(410);
    expectShareHeaders(response);
    expect(await response.text()).toContain('data-status="410"');
    const list = z
      .object({ data: z.object({ share_links: z.array(z.object({ id: z.string(), view_count: z.number() })) }) })
      .parse(await (await founder.call('GET', '/api/founder/share-links')).json());
    expect(list.data.share_links.find((l) => l.id === link.id)?.view_count).toBe(0);
  });

  it('HEAD answers with the status and share headers of GET, no body, and counts no view: HEAD then GET shows 1 view', async () => {
    const { founder, link } = await founderWithLink(t);
    for (let i = 0; i < 2; i++) {
      const head = await t.request(`/share/${link.token}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expectShareHeaders(head);
      expect(head.headers.get('x-frame-options')).toBe('DENY');
      expect(head.headers.get('ratelimit-limit')).toBe('60');
      expect(await head.text()).toBe('');
    }
    expect(await listedViewCount(founder, link.id)).toBe(0);
    const page = await t.request(`/share/${link.token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<span data-testid="view-count">1 view</span>');
    expect(await listedViewCount(founder, link.id)).toBe(1);
  });

  it('HEAD answers 404 for unknown, malformed and revoked tokens and 410 once expired, like GET, without a body or a view', async () => {
    const { founder, link } = await founderWithLink(t);
    const expiring = await founder.createLink();
    await founder.call('POST', `/api/founder/share-links/${link.id}/revoke`);
    for (const token of [link.token, 'G'.repeat(43), 'bad%00token', 'x'.repeat(5000), 'a/b']) {
      const head = await t.request(`/share/${token}`, { method: 'HEAD' });
      expect(head.status, token.slice(0, 40)).toBe(404);
      expectShareHeaders(head);
      expect(await head.text()).toBe('');
    }
    await t.request('/api/dev/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 7 * DAY }),
    });
    const expired = await t.request(`/share/${expiring.token}`, { method: 'HEAD' });
    expect(expired.status).toBe(410);
    expectShareHeaders(expired);
    expect(await expired.text()).toBe('');
    expect(await listedViewCount(founder, link.id)).toBe(0);
    expect(await listedViewCount(founder, expiring.id)).toBe(0);
  });

  it('405 for other methods', async () => {
    const response = await t.request('/share/' + 'D'.repeat(43), { method: 'POST' });
    await expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('--seed and /demo', () => {
  it('shows a friendly note how to seed when not seeded', async () => {
    const response = await t.request('/demo');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('--seed');
  });

  it('/demo holds seeded share tokens: a script-free CSP that allows only inline styles, no framing, no-store, no referrer', async () => {
    const { link } = await founderWithLink(t);
    const demoLinks = (): DemoLink[] => [
      {
        label: 'Seed round',
        company: 'Demo Co',
        state: 'active',
        token: link.token,
        apiUrl: `${BASE}${snapshotPath(link.token)}`,
        shareUrl: link.share_url,
      },
    ];
    const demoApp = makeApp(db, { demo: { links: demoLinks } });
    for (const [app, method] of [
      [demoApp, 'GET'],
      [t, 'GET'], // not seeded: the note how to seed
      [demoApp, 'HEAD'],
    ] as const) {
      const response = await app.request('/demo', { method });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = (response.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim());
      // Inline styles (the page's and the extension's badges': Firefox holds those to the page's policy),
      // the browser's own favicon request, nothing else: no scripts, no other origin, no framing.
      expect(csp.sort()).toEqual(
        [
          "default-src 'none'",
          "style-src 'unsafe-inline'",
          "img-src 'self'",
          "base-uri 'none'",
          "form-action 'none'",
          "frame-ancestors 'none'",
        ].sort(),
      );
      if (method === 'HEAD') continue;
      // The page works under it: everything is inline (its <style>; with seeded links also a mail body in
      // a `srcdoc` frame and a declarative shadow root with its own <style>); nothing loads from anywhere.
      const html = await response.text();
      if (app === demoApp) expect(html).toContain(link.share_url);
      expect(html.match(/<style>/g)).toHaveLength(app === demoApp ? 2 : 1);
      expect(html.match(/<iframe /g) ?? []).toHaveLength(app === demoApp ? 1 : 0);
      expect(html).not.toMatch(/<script|<img|<link|<form|<object|<embed|\ssrc=|url\(|@import/i);
    }
    // Other answers on the path carry the same headers (a refused method, here) and a script-free policy.
    const refused = await demoApp.request('/demo', { method: 'POST' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('x-frame-options')).toBe('DENY');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('seeds every demo organisation with working active, expired and revoked links, keeps them, and reseeds cleanly', async () => {
    const seedApp = makeApp(db);
    const { links } = await seedDemo(db, seedApp.clock, BASE);
    const expected = DEMO_ORGANISATIONS.flatMap((org) =>
      org.links.map((l) => ({ company: org.name, label: l.label, state: l.state })),
    );
    expect(links.map(({ company, label, state }) => ({ company, label, state }))).toEqual(expected);

    for (const link of links) {
      const path = new URL(link.apiUrl).pathname;
      const response = await seedApp.request(path, { ip: uniqueIp() });
      expect(response.status, `${link.state} ${link.company}`).toBe({ active: 200, expired: 410, revoked: 404 }[link.state]);
      expect(new URL(link.shareUrl).pathname).toBe(path.replace('/api/v1/compliance-status/', '/share/'));
    }
    const lines = formatDemoLinks(links);
    expect(lines[0]).toBe(
      `  ${links[0]?.state}  ${links[0]?.company} — ${links[0]?.label}: ${links[0]?.shareUrl}  (API: ${links[0]?.apiUrl})`,
    );

    const demoApp = makeApp(db, { demo: { links: () => links } });
    const page = await (await demoApp.request('/demo')).text();
    const active = links.find((l) => l.state === 'active');
    expect(page).toContain(active?.shareUrl);

    // Seeding again keeps the demo data: the same links, still working, no duplicates.
    const kept = await seedDemo(db, seedApp.clock, BASE);
    expect(kept.kept).toBe(true);
    expect(kept.links).toEqual(links);
    if (active) expect((await seedApp.request(new URL(active.apiUrl).pathname)).status).toBe(200);

    // Reseeding replaces the demo organisations: old demo tokens stop working, no duplicates.
    const again = await seedDemo(db, seedApp.clock, BASE, { reseed: true });
    expect(again.kept).toBe(false);
    expect(again.links).toHaveLength(links.length);
    const demoOrgs = await db.query('SELECT count(*)::int AS n FROM organisations WHERE is_demo');
    expect(demoOrgs.rows[0]).toEqual({ n: DEMO_ORGANISATIONS.length });
    if (active) expect((await seedApp.request(new URL(active.apiUrl).pathname)).status).toBe(404);
  });
});
