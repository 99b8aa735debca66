import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_VERSION, ARIP_STAGES, PRODUCT_CLASSIFICATIONS, RISK_BAND_MEANINGS } from '../../../lib/core/labels';
import { snapshotSuccessEnvelopeSchema } from '../../../lib/core/schemas/snapshot';
import { DISCLAIMER } from '../../../server/snapshots/snapshot';
import type { Database } from '../../../server/platform/db/driver';
import {
  BASE,
  expectError,
  founderWithLink,
  listedViewCount,
  makeApp,
  signUp,
  withSharedApp,
  snapshotPath,
  uniqueIp,
  type TestApp,
} from '../support/harness';

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY = 24 * 60 * 60 * 1000;

let db: Database;
let t: TestApp;
withSharedApp((app, database) => {
  t = app;
  db = database;
});

async function getSnapshot(token: string, ip = uniqueIp()) {
  const response = await t.request(snapshotPath(token), { ip, headers: { accept: 'application/json' } });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return { response, body: snapshotSuccessEnvelopeSchema.parse(JSON.parse(text)), raw: JSON.parse(text) as unknown };
}

describe('GET /api/v1/compliance-status/{token}', () => {
  it('returns every field of spec part 2 with the right types and exact formats', async () => {
    const { pack, link } = await founderWithLink(t, { name: 'Acme Pay Ltd' });
    const { response, body, raw } = await getSnapshot(link.token);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);

    const d = body.data;
    expect(d.api_version).toBe(API_VERSION);
    expect(d.api_version).toBe('2026-06-18');
    expect(d.company.name).toBe('Acme Pay Ltd');
    expect(d.scores).toEqual({
      readiness_score: 76,
      readiness_label: 'Good Standing',
      fundraise_score: 68,
      fundraise_risk_band: 'low',
      fundraise_risk_label: RISK_BAND_MEANINGS.low,
      checklist_completion_pct: 77, // 31/40 = 77.5, floored
      checklist_complete: 31,
      checklist_total: 40,
    });
    expect(d.licensing).toEqual({
      product_classification: 'PAYMENT',
      product_classification_label: PRODUCT_CLASSIFICATIONS.PAYMENT,
      primary_regulator: 'CBN',
      secondary_regulators: ['SEC_NIGERIA'],
      arip_stage: 'formal_application',
      arip_stage_label: ARIP_STAGES.formal_application,
    });
    for (const value of [
      d.verification.last_score_calculated_at,
      d.verification.pack_generated_at,
      d.verification.share_expires_at,
      d.verification.snapshot_at,
    ]) {
      expect(value).toMatch(ISO_MS_Z);
    }
    expect(d.verification.pack_generated_at).toBe(pack.generated_at);
    expect(d.verification.pack_verification_hash).toBe(pack.verification_hash);
    expect(d.verification.pack_verification_hash).toMatch(/^[0-9a-f]{12}$/);
    expect(d.verification.share_expires_at).toBe(link.expires_at);
    expect(Date.parse(link.expires_at) - t.clock.now().getTime()).toBe(7 * DAY);
    expect(d.verification.snapshot_at).toBe(t.clock.now().toISOString());
    expect(d.top_gaps).toEqual([
      { title: 'AML/CFT programme not yet board-approved', severity: 'high', regulatory_basis: 'CBN AML/CFT Regulations 2022' },
    ]);
    expect(d.links.human_summary_url).toBe(`${BASE}/share/${link.token}`);
    expect(d.links.service_profile_url).toBe('https://service.example/');
    expect(d.disclaimer).toBe(DISCLAIMER);
    for (const phrase of [
      /AI-assisted self-assessment/,
      /not legal advice/,
      /opinion, licence, certification or guarantee/,
      /own independent due diligence/,
    ]) {
      expect(d.disclaimer).toMatch(phrase);
    }
    expect(body.meta).toEqual({ token_status: 'active', view_count: 1 });
    // Exactly the envelope keys of the spec, nothing leaked (no ids, hashes of secrets, org internals).
    const envelopeKeys = z
      .object({ success: z.literal(true), data: z.record(z.string(), z.unknown()), meta: z.record(z.string(), z.unknown()) })
      .parse(raw);
    expect(Object.keys(envelopeKeys).sort()).toEqual(['data', 'meta', 'success']);
    expect(Object.keys(envelopeKeys.data).sort()).toEqual(
      ['api_version', 'company', 'disclaimer', 'licensing', 'links', 'scores', 'top_gaps', 'verification'].sort(),
    );
  });

  it('sends no-store, nosniff and CORS headers that let a web client read it without credentials', async () => {
    const { link } = await founderWithLink(t);
    const response = await t.request(snapshotPath(link.token), { headers: { origin: 'https://crm.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'retry-after']) {
      expect(exposed).toContain(header);
    }
    const preflight = await t.request(snapshotPath(link.token), {
      method: 'OPTIONS',
      headers: { origin: 'https://crm.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it.each([
    [0, 'Critical'],
    [40, 'Critical'],
    [41, 'In Progress'],
    [70, 'In Progress'],
    [71, 'Good Standing'],
    [90, 'Good Standing'],
    [91, 'Regulator Ready'],
    [100, 'Regulator Ready'],
  ])('readiness score %i is labelled %s', async (score, label) => {
    const { link } = await founderWithLink(t, { readiness_score: score });
    const { body } = await getSnapshot(link.token);
    expect(body.data.scores.readiness_score).toBe(score);
    expect(body.data.scores.readiness_label).toBe(label);
  });

  it.each([
    [0, 'high'],
    [39, 'high'],
    [40, 'medium'],
    [64, 'medium'],
    [65, 'low'],
    [84, 'low'],
    [85, 'investor_ready'],
    [100, 'investor_ready'],
  ] as const)('fundraise score %i is risk band %s with its meaning as label', async (score, band) => {
    const { link } = await founderWithLink(t, { fundraise_score: score });
    const { body } = await getSnapshot(link.token);
    expect(body.data.scores.fundraise_risk_band).toBe(band);
    expect(body.data.scores.fundraise_risk_label).toBe(RISK_BAND_MEANINGS[band]);
  });

  it.each([
    [0, 0, 0],
    [0, 40, 0],
    [39, 40, 97],
    [40, 40, 100],
    [1, 3, 33],
    [2, 3, 66],
  ])('checklist %i of %i is %i percent (rounded down)', async (complete, total, pct) => {
    const { link } = await founderWithLink(t, { checklist_complete: complete, checklist_total: total });
    const { body } = await getSnapshot(link.token);
    expect(body.data.scores.checklist_completion_pct).toBe(pct);
  });

  it('lists at most 3 gaps, critical > high > medium, ties in the founder’s order', async () => {
    const gaps = [
      { title: 'M1', severity: 'medium', regulatory_basis: 'b' },
      { title: 'H1', severity: 'high', regulatory_basis: 'b' },
      { title: 'C1', severity: 'critical', regulatory_basis: 'b' },
      { title: 'H2', severity: 'high', regulatory_basis: 'b' },
      { title: 'C2', severity: 'critical', regulatory_basis: 'b' },
    ];
    const { link } = await founderWithLink(t, { gaps });
    const { body } = await getSnapshot(link.token);
    expect(body.data.top_gaps.map((g) => g.title)).toEqual(['C1', 'C2', 'H1']);

    const few = await founderWithLink(t, { gaps: [gaps[0], gaps[3]] });
    expect((await getSnapshot(few.link.token)).body.data.top_gaps.map((g) => g.title)).toEqual(['H2', 'M1']);

    const none = await founderWithLink(t, { gaps: [] });
    expect((await getSnapshot(none.link.token)).body.data.top_gaps).toEqual([]);
  });

  it('shows null licensing fields as null labels', async () => {
    const { link } = await founderWithLink(t, {
      product_classification: null,
      arip_stage: null,
      primary_regulator: null,
      secondary_regulators: [],
    });
    const { body } = await getSnapshot(link.token);
    expect(body.data.licensing).toEqual({
      product_classification: null,
      product_classification_label: null,
      primary_regulator: null,
      secondary_regulators: [],
      arip_stage: null,
      arip_stage_label: null,
    });
  });

  it('reads live scores but the pack fields of the latest pack when the link was created', async () => {
    const { founder, pack, link } = await founderWithLink(t, { readiness_score: 50 });
    t.clock.advance(60_000);
    const patched = await founder.call('PATCH', '/api/founder/organisation', { readiness_score: 95 });
    expect(patched.status).toBe(200);
    t.clock.advance(60_000);
    const newer = await founder.createPack();
    expect(newer.verification_hash).not.toBe(pack.verification_hash);

    const { body } = await getSnapshot(link.token);
    expect(body.data.scores.readiness_score).toBe(95);
    expect(body.data.scores.readiness_label).toBe('Regulator Ready');
    expect(body.data.verification.last_score_calculated_at).toBe(new Date(t.clock.now().getTime() - 60_000).toISOString());
    expect(body.data.verification.pack_verification_hash).toBe(pack.verification_hash);
    expect(body.data.verification.pack_generated_at).toBe(pack.generated_at);

    const second = await founder.createLink();
    const later = await getSnapshot(second.token);
    expect(later.body.data.verification.pack_verification_hash).toBe(newer.verification_hash);
  });

  it('counts each successful call exactly once', async () => {
    const { link } = await founderWithLink(t);
    for (let i = 1; i <= 3; i++) expect((await getSnapshot(link.token)).body.meta.view_count).toBe(i);
  });

  it('loses no increment under 100 concurrent requests: counts 1..100, final count 100', async () => {
    const { founder, link } = await founderWithLink(t);
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => t.request(snapshotPath(link.token), { ip: uniqueIp() })),
    );
    const counts = await Promise.all(
      responses.map(async (response) => {
        expect(response.status).toBe(200);
        return snapshotSuccessEnvelopeSchema.parse(await response.json()).meta.view_count;
      }),
    );
    expect(new Set(counts).size).toBe(100);
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const list = z
      .object({ data: z.object({ share_links: z.array(z.object({ id: z.string(), view_count: z.number() })) }) })
      .parse(await (await founder.call('GET', '/api/founder/share-links')).json());
    expect(list.data.share_links.find((l) => l.id === link.id)?.view_count).toBe(100);
  });

  it('loses no increment when two server instances share the database (100 concurrent, split)', async () => {
    const { link } = await founderWithLink(t);
    const second = makeApp(db, { clock: t.clock });
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? t : second).request(snapshotPath(link.token), { ip: uniqueIp() })),
    );
    const counts = await Promise.all(
      responses.map(async (r) => snapshotSuccessEnvelopeSchema.parse(await r.json()).meta.view_count),
    );
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('gives concurrent requests for different tokens their own counts and outcomes', async () => {
    const a = await founderWithLink(t);
    const b = await founderWithLink(t);
    const revoked = await founderWithLink(t);
    await revoked.founder.call('POST', `/api/founder/share-links/${revoked.link.id}/revoke`);
    const tokens = [a.link.token, b.link.token, revoked.link.token, 'E'.repeat(43)];
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.request(snapshotPath(tokens[i % 4] ?? ''), { ip: uniqueIp() })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 404)).toHaveLength(20);
    const countsA: number[] = [];
    for (let i = 0; i < 40; i += 4) countsA.push(snapshotSuccessEnvelopeSchema.parse(await responses[i]?.json()).meta.view_count);
    expect(countsA.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('answers 410 EXPIRED once the dev clock passes the expiry, and counts no view', async () => {
    const { founder, link } = await founderWithLink(t);
    expect((await getSnapshot(link.token)).body.meta.view_count).toBe(1);
    const almost = await t.request('/api/dev/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 7 * DAY - 1 }),
    });
    expect(almost.status).toBe(200);
    expect((await getSnapshot(link.token)).body.meta.view_count).toBe(2);

    const moved = await t.request('/api/dev/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 1 }),
    });
    const movedBody = z.object({ data: z.object({ now: z.string() }) }).parse(await moved.json());
    expect(movedBody.data.now).toBe(link.expires_at);
    const expired = await expectError(await t.request(snapshotPath(link.token)), 410, 'EXPIRED');
    expect(expired.error).toMatch(/expired/i);

    const list = z
      .object({
        data: z.object({ share_links: z.array(z.object({ id: z.string(), status: z.string(), view_count: z.number() })) }),
      })
      .parse(await (await founder.call('GET', '/api/founder/share-links')).json());
    expect(list.data.share_links.find((l) => l.id === link.id)).toMatchObject({ status: 'expired', view_count: 2 });
  });

  it('answers 404 for a revoked token, identical to an unknown one, immediately after revocation', async () => {
    const { founder, link } = await founderWithLink(t);
    await getSnapshot(link.token);
    const revoke = await founder.call('POST', `/api/founder/share-links/${link.id}/revoke`);
    expect(revoke.status).toBe(200);
    const revoked = await t.request(snapshotPath(link.token));
    const unknown = await t.request(snapshotPath('A'.repeat(43)));
    expect(revoked.status).toBe(404);
    expect(unknown.status).toBe(404);
    const revokedText = await revoked.text();
    expect(revokedText).toBe(await unknown.text());
    expect(JSON.parse(revokedText)).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('treats hostile tokens exactly like unknown ones (404 envelope, never 400 or 500)', async () => {
    const unknown = await (await t.request(snapshotPath('B'.repeat(43)))).text();
    const hostile = [
      'x'.repeat(10 * 1024),
      encodeURIComponent('tökén-ünïcødé-🙂-abcdefghijkl'),
      'abc%2F..%2F..%2Fapi%2Fhealth',
      'abcdefghijklmnop%2Fqrstuvwxyz',
      '..%2F..%2Fetc%2Fpasswd',
      'abcdefghijklmnop..',
      'abcdefghijklmnop%00',
      '%00',
      'abcdefghijklmnop%',
      '%E0%A4%A',
      "abcdefghijklmnop'%20OR%201=1--",
      'abcdefghijklmnop;DROP%20TABLE%20share_links',
      'abcdefghijklmnop/extra/segments',
      '',
    ];
    for (const token of hostile) {
      const response = await t.request(`/api/v1/compliance-status/${token}`);
      const text = await response.text();
      expect(response.status, token.slice(0, 60)).toBe(404);
      expect(text, token.slice(0, 60)).toBe(unknown);
    }
    // Dot segments are resolved by URL parsing before routing: still a plain 404 envelope.
    for (const path of ['/api/v1/compliance-status/%2E%2E', '/api/v1/compliance-status/..', '/api/v1/compliance-status/.']) {
      await expectError(await t.request(path), 404, 'NOT_FOUND');
    }
    expect(t.logs).toEqual([]);
  });

  it('HEAD answers with the status and headers of GET, no body, and counts no view: HEAD then GET is view 1', async () => {
    const { founder, link } = await founderWithLink(t);
    const ip = uniqueIp();
    for (let i = 0; i < 2; i++) {
      const head = await t.request(snapshotPath(link.token), { ip, method: 'HEAD', headers: { origin: 'https://crm.example' } });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toMatch(/^application\/json/);
      expect(head.headers.get('cache-control')).toBe('no-store');
      expect(head.headers.get('x-content-type-options')).toBe('nosniff');
      expect(head.headers.get('access-control-allow-origin')).toBe('*');
      expect(head.headers.get('ratelimit-limit')).toBe('60');
      expect(head.headers.get('ratelimit-remaining')).toBe(String(59 - i));
      expect(await head.text()).toBe('');
    }
    expect(await listedViewCount(founder, link.id)).toBe(0);

    const { body } = await getSnapshot(link.token, ip);
    expect(body.meta.view_count).toBe(1);
    await t.request(snapshotPath(link.token), { ip, method: 'HEAD' });
    expect(await listedViewCount(founder, link.id)).toBe(1);
    expect((await getSnapshot(link.token, ip)).body.meta.view_count).toBe(2);
  });

  it('HEAD answers 404 for unknown, malformed and revoked tokens and 410 once expired, like GET, without a body or a view', async () => {
    const { founder, link } = await founderWithLink(t);
    const expiring = await founder.createLink();
    expect((await getSnapshot(link.token)).body.meta.view_count).toBe(1);
    await founder.call('POST', `/api/founder/share-links/${link.id}/revoke`);
    for (const token of [link.token, 'F'.repeat(43), 'bad%00token', 'x'.repeat(5000), 'a/b']) {
      const head = await t.request(snapshotPath(token), { method: 'HEAD' });
      const get = await t.request(snapshotPath(token));
      expect(head.status, token.slice(0, 40)).toBe(404);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(head.headers.get('cache-control')).toBe('no-store');
      expect(await head.text()).toBe('');
      await expectError(get, 404, 'NOT_FOUND');
    }
    t.clock.advance(7 * DAY);
    const expired = await t.request(snapshotPath(expiring.token), { method: 'HEAD' });
    expect(expired.status).toBe(410);
    expect(expired.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await expired.text()).toBe('');
    await expectError(await t.request(snapshotPath(expiring.token)), 410, 'EXPIRED');
    expect(await listedViewCount(founder, link.id)).toBe(1);
    expect(await listedViewCount(founder, expiring.id)).toBe(0);
  });

  it('HEAD draws on the rate limit like GET (one bucket): the 61st request is 429 with Retry-After, for HEAD and GET', async () => {
    const { founder, link } = await founderWithLink(t);
    const ip = uniqueIp();
    for (let i = 0; i < 60; i++) expect((await t.request(snapshotPath(link.token), { ip, method: 'HEAD' })).status).toBe(200);
    const head = await t.request(snapshotPath(link.token), { ip, method: 'HEAD' });
    expect(head.status).toBe(429);
    expect(head.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await head.text()).toBe('');
    await expectError(await t.request(snapshotPath(link.token), { ip }), 429, 'RATE_LIMITED');
    expect(await listedViewCount(founder, link.id)).toBe(0);
  });

  it('uses the configured public base URL for human_summary_url', async () => {
    const other = makeApp(db, { config: { publicBaseUrl: 'https://comply.example/' } });
    const founder = await signUp(other);
    await founder.createPack();
    const link = await founder.createLink();
    expect(link.share_url).toBe(`https://comply.example/share/${link.token}`);
    expect(link.api_url).toBe(`https://comply.example/api/v1/compliance-status/${link.token}`);
    const response = await other.request(snapshotPath(link.token));
    const body = snapshotSuccessEnvelopeSchema.parse(await response.json());
    expect(body.data.links.human_summary_url).toBe(`https://comply.example/share/${link.token}`);
  });
});
