import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { organisationSchema, packSchema, shareLinkSummarySchema } from '../../../server/founders/schemas';
import { sha256Hex } from '../../../server/platform/tokens';
import {
  GROWTH_PROFILE,
  expectError,
  founderWithLink,
  withSharedApp,
  signUp,
  snapshotPath,
  type TestApp,
} from '../support/harness';
import type { Database } from '../../../server/platform/db/driver';
import { MIGRATIONS } from '../../../server/platform/db/migrations';

let db: Database;
let t: TestApp;
withSharedApp((app, database) => {
  t = app;
  db = database;
});

const signUpRaw = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  t.request('/api/founder/organisations', {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const DAY = 24 * 60 * 60 * 1000;

describe('POST /api/founder/organisations', () => {
  it('creates an organisation (201) with an id, derived labels and a founder key stored only as a hash', async () => {
    const response = await signUpRaw({ name: 'Acme Pay', subscription_tier: 'growth', ...GROWTH_PROFILE });
    expect(response.status).toBe(201);
    const body = z
      .object({
        success: z.literal(true),
        data: z.object({ organisation: organisationSchema, founder_key: z.string() }),
        meta: z.object({}),
      })
      .parse(await response.json());
    const org = body.data.organisation;
    expect(org.id).toMatch(/^org_/);
    expect(org).toMatchObject({
      name: 'Acme Pay',
      subscription_tier: 'growth',
      readiness_label: 'Good Standing',
      fundraise_risk_band: 'low',
      checklist_completion_pct: 77,
    });
    expect(org.last_score_calculated_at).toBe(t.clock.now().toISOString());
    expect(body.data.founder_key.length).toBeGreaterThanOrEqual(40);
    const stored = await db.query('SELECT founder_key_hash FROM organisations WHERE id = $1', [org.id]);
    expect(stored.rows[0]).toEqual({ founder_key_hash: sha256Hex(body.data.founder_key) });
    const anywhere = await db.query(`SELECT count(*)::int AS n FROM organisations o WHERE o::text LIKE $1`, [
      `%${body.data.founder_key}%`,
    ]);
    expect(anywhere.rows[0]).toEqual({ n: 0 });
  });

  it('accepts a minimal body (name and tier) with an empty profile', async () => {
    const response = await signUpRaw({ name: 'Bare Ltd', subscription_tier: 'starter' });
    expect(response.status).toBe(201);
    const { data } = z.object({ data: z.object({ organisation: organisationSchema }) }).parse(await response.json());
    expect(data.organisation).toMatchObject({
      readiness_score: 0,
      readiness_label: 'Critical',
      gaps: [],
      product_classification: null,
    });
  });

  it.each([
    ['name', { name: '' }],
    ['name', { name: undefined }],
    ['subscription_tier', { subscription_tier: 'enterprise' }],
    ['subscription_tier', { subscription_tier: undefined }],
    ['readiness_score', { readiness_score: 101 }],
    ['readiness_score', { readiness_score: 50.5 }],
    ['readiness_score', { readiness_score: '50' }],
    ['fundraise_score', { fundraise_score: -1 }],
    ['checklist_complete', { checklist_complete: -3 }],
    ['checklist_complete', { checklist_complete: 41, checklist_total: 40 }],
    ['checklist_total', { checklist_total: 'many' }],
    ['product_classification', { product_classification: 'BANK' }],
    ['primary_regulator', { primary_regulator: 'sec nigeria' }],
    ['secondary_regulators', { secondary_regulators: 'CBN' }],
    ['secondary_regulators.0', { secondary_regulators: [42] }],
    ['arip_stage', { arip_stage: 'stage_9' }],
    ['gaps', { gaps: {} }],
    ['gaps.0.title', { gaps: [{ title: '', severity: 'high', regulatory_basis: 'x' }] }],
    ['gaps.0.severity', { gaps: [{ title: 'A gap', severity: 'low', regulatory_basis: 'x' }] }],
    ['gaps.1.regulatory_basis', { gaps: [GROWTH_PROFILE.gaps[0], { title: 'A gap', severity: 'high' }] }],
    ['colour', { colour: 'blue' }],
  ])('400 VALIDATION_ERROR naming `%s`', async (field, patch) => {
    const response = await signUpRaw({ name: 'Valid Ltd', subscription_tier: 'growth', ...GROWTH_PROFILE, ...patch });
    const body = await expectError(response, 400, 'VALIDATION_ERROR');
    expect(body.error).toContain(`\`${field}\``);
  });

  it('400 for malformed JSON, 415 for a non-JSON body, 413 for a body over the limit', async () => {
    const bad = await expectError(await signUpRaw('{"name": "x",'), 400, 'VALIDATION_ERROR');
    expect(bad.error).toMatch(/JSON/);
    await expectError(await signUpRaw('[]'), 400, 'VALIDATION_ERROR');
    await expectError(
      await signUpRaw('name=x', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    const huge = JSON.stringify({ name: 'x'.repeat(100 * 1024), subscription_tier: 'growth' });
    await expectError(await signUpRaw(huge), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('founder authentication', () => {
  it.each([
    ['missing', undefined],
    ['not bearer', 'Basic Zm9vOmJhcg=='],
    ['empty bearer', 'Bearer '],
    ['unknown key', 'Bearer fk_not-a-real-key'],
  ])('401 UNAUTHORIZED with a %s key on every founder route', async (_label, authorization) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (authorization !== undefined) headers.authorization = authorization;
    for (const [method, path] of [
      ['GET', '/api/founder/organisation'],
      ['PATCH', '/api/founder/organisation'],
      ['POST', '/api/founder/dd-packs'],
      ['POST', '/api/founder/share-links'],
      ['GET', '/api/founder/share-links'],
      ['POST', '/api/founder/share-links/link_x/revoke'],
    ] as const) {
      const response = await t.request(path, { method, headers, body: method === 'GET' ? undefined : '{}' });
      await expectError(response, 401, 'UNAUTHORIZED');
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });
});

describe('PATCH /api/founder/organisation', () => {
  it('updates the profile, recalculates labels and moves last_score_calculated_at to now', async () => {
    const founder = await signUp(t, { readiness_score: 40 });
    t.clock.advance(5 * 60_000);
    const response = await founder.call('PATCH', '/api/founder/organisation', {
      readiness_score: 41,
      fundraise_score: 90,
      gaps: [{ title: 'New gap', severity: 'critical', regulatory_basis: 'Rule 1' }],
    });
    expect(response.status).toBe(200);
    const { data } = z.object({ data: z.object({ organisation: organisationSchema }) }).parse(await response.json());
    expect(data.organisation).toMatchObject({
      readiness_score: 41,
      readiness_label: 'In Progress',
      fundraise_risk_band: 'investor_ready',
      checklist_complete: GROWTH_PROFILE.checklist_complete, // untouched fields stay
      gaps: [{ title: 'New gap', severity: 'critical', regulatory_basis: 'Rule 1' }],
      last_score_calculated_at: t.clock.now().toISOString(),
    });
  });

  it('validates like sign-up, naming the field, and rejects an empty patch', async () => {
    const founder = await signUp(t);
    const bad = await expectError(
      await founder.call('PATCH', '/api/founder/organisation', { fundraise_score: 200 }),
      400,
      'VALIDATION_ERROR',
    );
    expect(bad.error).toContain('`fundraise_score`');
    const over = await expectError(
      await founder.call('PATCH', '/api/founder/organisation', { checklist_complete: 41 }),
      400,
      'VALIDATION_ERROR',
    );
    expect(over.error).toContain('`checklist_complete`');
    await expectError(await founder.call('PATCH', '/api/founder/organisation', {}), 400, 'VALIDATION_ERROR');
  });
});

describe('DD packs and share links', () => {
  it('403 TIER_REQUIRED below growth for packs and links; allowed after upgrading', async () => {
    const founder = await signUp(t, { subscription_tier: 'starter' });
    await expectError(await founder.call('POST', '/api/founder/dd-packs', {}), 403, 'TIER_REQUIRED');
    await expectError(await founder.call('POST', '/api/founder/share-links', {}), 403, 'TIER_REQUIRED');
    expect((await founder.call('PATCH', '/api/founder/organisation', { subscription_tier: 'scale' })).status).toBe(200);
    const pack = packSchema.parse(await founder.createPack());
    expect(pack.generated_at).toBe(t.clock.now().toISOString());
  });

  it('409 PACK_REQUIRED without a pack', async () => {
    const founder = await signUp(t);
    await expectError(await founder.call('POST', '/api/founder/share-links', {}), 409, 'PACK_REQUIRED');
  });

  it('creates a 7-day link whose 43-char token is returned once and stored only as a hash', async () => {
    const { founder, link } = await founderWithLink(t);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.api_url).toBe(`http://lens.test/api/v1/compliance-status/${link.token}`);
    expect(link.share_url).toBe(`http://lens.test/share/${link.token}`);
    expect(Date.parse(link.expires_at) - t.clock.now().getTime()).toBe(7 * DAY);
    const stored = await db.query('SELECT token_hash FROM share_links WHERE id = $1', [link.id]);
    expect(stored.rows[0]).toEqual({ token_hash: sha256Hex(link.token) });
    const anywhere = await db.query(`SELECT count(*)::int AS n FROM share_links s WHERE s::text LIKE $1`, [`%${link.token}%`]);
    expect(anywhere.rows[0]).toEqual({ n: 0 });
    const listed = z
      .object({ data: z.object({ share_links: z.array(shareLinkSummarySchema) }) })
      .parse(await (await founder.call('GET', '/api/founder/share-links')).json());
    expect(JSON.stringify(listed)).not.toContain(link.token);
  });

  it('no table holds a plaintext share token or founder key after sign-up, pack, link, views and a revocation', async () => {
    const { founder, link } = await founderWithLink(t);
    const second = await founder.createLink();
    expect((await t.request(snapshotPath(link.token))).status).toBe(200);
    expect((await t.request(`/share/${second.token}`)).status).toBe(200);
    expect((await founder.call('POST', `/api/founder/share-links/${second.id}/revoke`)).status).toBe(200);
    const tables = z
      .array(z.object({ table_name: z.string().regex(/^[a-z_]+$/) }))
      .parse(
        (
          await db.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
          )
        ).rows,
      )
      .map((row) => row.table_name);
    expect(tables).toEqual(expect.arrayContaining(['organisations', 'share_links', 'dd_packs', 'gaps', 'rate_limits']));
    for (const secret of [founder.key, link.token, second.token]) {
      for (const table of tables) {
        const found = await db.query(`SELECT count(*)::int AS n FROM ${table} t WHERE t::text LIKE $1`, [`%${secret}%`]);
        expect(found.rows[0], `${table} holds a plaintext secret`).toEqual({ n: 0 });
      }
    }
    // What is stored instead: the SHA-256 hex of each, which the same row-text search does find.
    const hashes = await db.query('SELECT count(*)::int AS n FROM share_links t WHERE t::text LIKE $1 OR t::text LIKE $2', [
      `%${sha256Hex(link.token)}%`,
      `%${sha256Hex(second.token)}%`,
    ]);
    expect(hashes.rows[0]).toEqual({ n: 2 });
    const key = await db.query('SELECT count(*)::int AS n FROM organisations WHERE founder_key_hash = $1', [
      sha256Hex(founder.key),
    ]);
    expect(key.rows[0]).toEqual({ n: 1 });
  });

  it('lists links with status active, revoked and expired, view counts and timestamps', async () => {
    const founder = await signUp(t);
    await founder.createPack();
    const first = await founder.createLink();
    t.clock.advance(DAY);
    const second = await founder.createLink();
    const third = await founder.createLink();
    expect((await founder.call('POST', `/api/founder/share-links/${third.id}/revoke`)).status).toBe(200);
    await t.request(snapshotPath(second.token));
    t.clock.advance(6 * DAY + 1); // first is past 7 days, second is not
    const response = await founder.call('GET', '/api/founder/share-links');
    expect(response.status).toBe(200);
    const { data } = z.object({ data: z.object({ share_links: z.array(shareLinkSummarySchema) }) }).parse(await response.json());
    const byId = new Map(data.share_links.map((l) => [l.id, l]));
    expect(data.share_links).toHaveLength(3);
    expect(byId.get(first.id)).toMatchObject({ status: 'expired', view_count: 0, expires_at: first.expires_at });
    expect(byId.get(second.id)).toMatchObject({ status: 'active', view_count: 1 });
    expect(byId.get(third.id)?.status).toBe('revoked');
  });

  it('revokes immediately and idempotently; another organisation’s link is 404', async () => {
    const { founder, link } = await founderWithLink(t);
    const other = await signUp(t);
    await expectError(await other.call('POST', `/api/founder/share-links/${link.id}/revoke`), 404, 'NOT_FOUND');
    expect((await t.request(snapshotPath(link.token))).status).toBe(200);

    const first = await founder.call('POST', `/api/founder/share-links/${link.id}/revoke`);
    expect(first.status).toBe(200);
    const revoked = z.object({ data: z.object({ share_link: shareLinkSummarySchema }) }).parse(await first.json());
    expect(revoked.data.share_link).toMatchObject({ id: link.id, status: 'revoked', revoked_at: t.clock.now().toISOString() });
    await expectError(await t.request(snapshotPath(link.token)), 404, 'NOT_FOUND');
    t.clock.advance(1000);
    const again = z
      .object({ data: z.object({ share_link: shareLinkSummarySchema }) })
      .parse(await (await founder.call('POST', `/api/founder/share-links/${link.id}/revoke`)).json());
    expect(again.data.share_link.revoked_at).toBe(revoked.data.share_link.revoked_at);
    await expectError(await founder.call('POST', '/api/founder/share-links/link_does_not_exist/revoke'), 404, 'NOT_FOUND');
  });

  it('405 with Allow on founder paths for other methods', async () => {
    const response = await t.request('/api/founder/share-links', { method: 'DELETE' });
    await expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe('GET, POST, HEAD');
    const organisations = await t.request('/api/founder/organisations', { method: 'GET' });
    await expectError(organisations, 405, 'METHOD_NOT_ALLOWED');
    expect(organisations.headers.get('allow')).toBe('POST');
  });
});

describe('regulators are listed once', () => {
  const regulatorsOf = async (response: Response) =>
    z.object({ data: z.object({ organisation: organisationSchema }) }).parse(await response.json()).data.organisation;

  it('at sign-up and on PATCH: the primary leaves the others, a repeat is dropped (first mention kept)', async () => {
    const created = await regulatorsOf(
      await signUpRaw({
        name: 'Twice Ltd',
        subscription_tier: 'growth',
        primary_regulator: 'CBN',
        secondary_regulators: ['NFIU', 'CBN', 'NFIU', 'NDPC'],
      }),
    );
    expect([created.primary_regulator, created.secondary_regulators]).toEqual(['CBN', ['NFIU', 'NDPC']]);
    const founder = await signUp(t, { primary_regulator: 'SEC_NIGERIA', secondary_regulators: ['CBN', 'NFIU'] });
    const promoted = await regulatorsOf(await founder.call('PATCH', '/api/founder/organisation', { primary_regulator: 'CBN' }));
    expect([promoted.primary_regulator, promoted.secondary_regulators]).toEqual(['CBN', ['NFIU']]);
  });

  it('rows saved before (the primary among the others, a code twice) are cleaned by migration 004, and read listed once meanwhile', async () => {
    const { founder, link } = await founderWithLink(t);
    await db.query(
      `UPDATE organisations SET primary_regulator = 'CBN', secondary_regulators = '["NFIU","CBN","NFIU"]'::jsonb WHERE id = $1`,
      [founder.orgId],
    );
    const snapshot = z
      .object({ data: z.object({ licensing: z.object({ secondary_regulators: z.array(z.string()) }) }) })
      .parse(await (await t.request(snapshotPath(link.token))).json());
    expect(snapshot.data.licensing.secondary_regulators).toEqual(['NFIU']);
    const migration = MIGRATIONS.find((m) => m.id === '004_regulators_listed_once');
    await db.query(migration?.sql ?? '');
    const stored = await db.query('SELECT secondary_regulators FROM organisations WHERE id = $1', [founder.orgId]);
    expect(stored.rows).toEqual([{ secondary_regulators: ['NFIU'] }]);
  });
});
