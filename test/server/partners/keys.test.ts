/**
 * Partner keys: the operator API's lifecycle (create, list, rotate, revoke), keys stored as hashes,
 * the key's own quota with the IETF RateLimit headers and a 429 with Retry-After, and 401s in the
 * spec's envelope. The snapshot endpoint without a key is unchanged (v0).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { snapshotSuccessEnvelopeSchema } from '../../../lib/core/schemas/snapshot';
import type { Database } from '../../../server/platform/db/driver';
import { createdPartnerKeySchema, partnerKeySchema } from '../../../server/partners/schemas';
import { sha256Hex } from '../../../server/platform/tokens';
import { expectError, founderWithLink, makeApp, snapshotPath, uniqueIp, type TestApp } from '../support/harness';
import { createPartner, operatorCall, OPERATOR_SECRET, withV1App } from '../support/v1';

let db: Database;
let t: TestApp;
withV1App((app, database) => {
  t = app;
  db = database;
});

const keyEnvelope = z.object({ success: z.literal(true), data: z.object({ partner_key: createdPartnerKeySchema }) });
const listEnvelope = z.object({ data: z.object({ partner_keys: z.array(partnerKeySchema) }) });

describe('operator API: partner key lifecycle', () => {
  it('is 404 without an operator secret, 401 with a wrong one', async () => {
    const plain = makeApp(db);
    await expectError(await plain.request('/api/operator/partner-keys', { method: 'POST' }), 404, 'NOT_FOUND');
    const wrong = await t.request('/api/operator/partner-keys', {
      method: 'POST',
      headers: { authorization: 'Bearer not-the-secret', 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });
    await expectError(wrong, 401, 'UNAUTHORIZED');
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    await expectError(await t.request('/api/operator/partner-keys'), 401, 'UNAUTHORIZED');
  });

  it('creates a key (201) shown once and stored only as a hash; lists it without the key', async () => {
    const response = await operatorCall(t, 'POST', '/api/operator/partner-keys', {
      name: 'Acacia Ventures',
      quota_per_minute: 30,
    });
    expect(response.status).toBe(201);
    const { partner_key } = keyEnvelope.parse(await response.json()).data;
    expect(partner_key).toMatchObject({ name: 'Acacia Ventures', quota_per_minute: 30, status: 'active' });
    expect(partner_key.key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    const stored = await db.query('SELECT key_hash FROM partners WHERE id = $1', [partner_key.id]);
    expect(stored.rows[0]).toEqual({ key_hash: sha256Hex(partner_key.key) });
    const anywhere = await db.query('SELECT count(*)::int AS n FROM partners p WHERE p::text LIKE $1', [`%${partner_key.key}%`]);
    expect(anywhere.rows[0]).toEqual({ n: 0 });

    const list = listEnvelope.parse(await (await operatorCall(t, 'GET', '/api/operator/partner-keys')).json());
    const listed = list.data.partner_keys.find((key) => key.id === partner_key.id);
    expect(listed).toMatchObject({ name: 'Acacia Ventures', key_hint: partner_key.key.slice(0, 9) + '…' });
    expect(JSON.stringify(list)).not.toContain(partner_key.key);
  });

  it('default quota; bad bodies are 400 naming the field', async () => {
    const response = await operatorCall(t, 'POST', '/api/operator/partner-keys', { name: 'Defaults Fund' });
    expect(keyEnvelope.parse(await response.json()).data.partner_key.quota_per_minute).toBe(120);
    for (const [field, body] of [
      ['name', {}],
      ['name', { name: '' }],
      ['quota_per_minute', { name: 'x', quota_per_minute: 0 }],
      ['quota_per_minute', { name: 'x', quota_per_minute: 1.5 }],
      ['extra', { name: 'x', extra: 1 }],
    ] as const) {
      const error = await expectError(await operatorCall(t, 'POST', '/api/operator/partner-keys', body), 400, 'VALIDATION_ERROR');
      expect(error.error).toContain(`\`${field}\``);
    }
  });

  it('rotates: the new key works, the old one stops at once (or after its grace period)', async () => {
    const partner = await createPartner(t, { name: 'Rotating Capital' });
    expect((await partner.call('GET', '/api/v1/follows')).status).toBe(200);
    const rotated = keyEnvelope.parse(
      await (await operatorCall(t, 'POST', `/api/operator/partner-keys/${partner.id}/rotate`, {})).json(),
    ).data.partner_key;
    expect(rotated.key).not.toBe(partner.key);
    await expectError(await partner.call('GET', '/api/v1/follows'), 401, 'UNAUTHORIZED');
    const asNew = (key: string) => t.request('/api/v1/follows', { headers: { authorization: `Bearer ${key}` } });
    expect((await asNew(rotated.key)).status).toBe(200);

    // With a grace period both keys work until it ends (on the server's clock).
    const graced = keyEnvelope.parse(
      await (await operatorCall(t, 'POST', `/api/operator/partner-keys/${partner.id}/rotate`, { grace_seconds: 3600 })).json(),
    ).data.partner_key;
    expect(graced.previous_key_expires_at).toBe(new Date(t.clock.now().getTime() + 3600_000).toISOString());
    expect((await asNew(rotated.key)).status).toBe(200);
    expect((await asNew(graced.key)).status).toBe(200);
    t.clock.advance(3600_000);
    await expectError(await asNew(rotated.key), 401, 'UNAUTHORIZED');
    expect((await asNew(graced.key)).status).toBe(200);
  });

  it('revokes at once (idempotent): 401 saying revoked; a revoked key cannot be rotated (409); unknown ids are 404', async () => {
    const partner = await createPartner(t, { name: 'Revoked Fund' });
    const first = await operatorCall(t, 'POST', `/api/operator/partner-keys/${partner.id}/revoke`);
    expect(first.status).toBe(200);
    const revoked = keyEnvelope.shape.data.shape.partner_key
      .omit({ key: true })
      .parse(z.object({ data: z.object({ partner_key: z.unknown() }) }).parse(await first.json()).data.partner_key);
    expect(revoked.status).toBe('revoked');
    const again = z
      .object({ data: z.object({ partner_key: partnerKeySchema }) })
      .parse(await (await operatorCall(t, 'POST', `/api/operator/partner-keys/${partner.id}/revoke`)).json());
    expect(again.data.partner_key.revoked_at).toBe(revoked.revoked_at);
    const error = await expectError(await partner.call('GET', '/api/v1/follows'), 401, 'UNAUTHORIZED');
    expect(error.error).toMatch(/revoked/);
    await expectError(await operatorCall(t, 'POST', `/api/operator/partner-keys/${partner.id}/rotate`, {}), 409, 'CONFLICT');
    await expectError(await operatorCall(t, 'POST', '/api/operator/partner-keys/ptn_nope/revoke'), 404, 'NOT_FOUND');
    await expectError(await operatorCall(t, 'POST', '/api/operator/partner-keys/%00/revoke'), 404, 'NOT_FOUND');
  });

  it('updates a name and quota', async () => {
    const partner = await createPartner(t, { name: 'Old Name' });
    const response = await operatorCall(t, 'PATCH', `/api/operator/partner-keys/${partner.id}`, {
      name: 'New Name',
      quota_per_minute: 7,
    });
    const updated = z.object({ data: z.object({ partner_key: partnerKeySchema }) }).parse(await response.json());
    expect(updated.data.partner_key).toMatchObject({ name: 'New Name', quota_per_minute: 7 });
  });
});

describe('partner keys on requests', () => {
  it('a missing, malformed, unknown or revoked key is a clear 401 in the envelope', async () => {
    await expectError(await t.request('/api/v1/follows'), 401, 'UNAUTHORIZED');
    for (const authorization of ['Bearer', 'Bearer pk_unknown', 'Basic abc', 'Bearer a b']) {
      const response = await t.request('/api/v1/follows', { headers: { authorization } });
      await expectError(response, 401, 'UNAUTHORIZED');
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it("every keyed response carries RateLimit-Policy and RateLimit; over the key's quota: 429 with Retry-After", async () => {
    const partner = await createPartner(t, { quota_per_minute: 3 });
    for (let i = 1; i <= 3; i++) {
      // From three addresses: the quota is the key's, not the caller's address.
      const response = await partner.call('GET', '/api/v1/follows', undefined, { ip: uniqueIp() });
      expect(response.status, `${i}: ${await response.clone().text()}`).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe('"partner";q=3;w=60');
      expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"partner";r=${3 - i};t=(60|59)$`));
    }
    const limited = await partner.call('GET', '/api/v1/follows', undefined, { ip: uniqueIp() });
    await expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toMatch(/^(60|59)$/);
    expect(limited.headers.get('ratelimit')).toMatch(/^"partner";r=0;t=/);
    t.clock.advance(60_000);
    expect((await partner.call('GET', '/api/v1/follows')).status).toBe(200);
  });

  it('the snapshot endpoint with a key: the key quota and headers, not the address bucket; a view is still counted', async () => {
    const { founder, link } = await founderWithLink(t);
    const partner = await createPartner(t, { quota_per_minute: 2 });
    const ip = uniqueIp();
    const keyed = await partner.call('GET', snapshotPath(link.token), undefined, { ip });
    expect(keyed.status).toBe(200);
    expect(snapshotSuccessEnvelopeSchema.parse(await keyed.json()).meta.view_count).toBe(1);
    expect(keyed.headers.get('ratelimit-policy')).toBe('"partner";q=2;w=60');
    expect(keyed.headers.get('ratelimit-limit')).toBeNull(); // the address limiter did not count it
    expect((await partner.call('GET', snapshotPath(link.token), undefined, { ip })).status).toBe(200);
    await expectError(await partner.call('GET', snapshotPath(link.token), undefined, { ip }), 429, 'RATE_LIMITED');
    // Without a key, the same address still has its whole v0 budget.
    const unkeyed = await t.request(snapshotPath(link.token), { ip });
    expect(unkeyed.status).toBe(200);
    expect(unkeyed.headers.get('ratelimit-policy')).toBe('60;w=60');
    expect(unkeyed.headers.get('ratelimit-remaining')).toBe('59');
    expect(unkeyed.headers.get('ratelimit')).toBeNull();
    await expectError(
      await t.request(snapshotPath(link.token), { ip, headers: { authorization: 'Bearer pk_wrong' } }),
      401,
      'UNAUTHORIZED',
    );
    void founder;
  });

  it('bad keys draw on a budget per address: after 60 failures, 429', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 60; i++) {
      expect((await t.request('/api/v1/follows', { ip, headers: { authorization: 'Bearer pk_guess' } })).status).toBe(401);
    }
    const limited = await t.request('/api/v1/follows', { ip, headers: { authorization: 'Bearer pk_guess' } });
    await expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).not.toBeNull();
    void OPERATOR_SECRET;
  });
});
