/**
 * Follows: a partner follows with a share token in each of its states; a follow ends (and its partner
 * is told) when the link is revoked or expires; founders see their followers by partner name; a
 * follow's reads count as partner views, apart from investor views.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { snapshotSchema } from '../../../lib/core/schemas/snapshot';
import type { Database } from '../../../server/platform/db/driver';
import { followSchema, founderFollowSchema } from '../../../server/partners/schemas';
import { expectError, founderWithLink, signUp, snapshotPath } from '../support/harness';
import { createPartner, follow, type V1App, withV1App } from '../support/v1';

let db: Database;
let t: V1App;
withV1App((app, database) => {
  t = app;
  db = database;
});

const DAY = 24 * 3600_000;
const followEnvelope = z.object({
  success: z.literal(true),
  data: z.object({ follow: followSchema, snapshot: snapshotSchema }),
  meta: z.object({}),
});
const eventsEnvelope = z.object({
  data: z.object({
    events: z.array(
      z.object({
        type: z.string(),
        data: z.looseObject({ follow_id: z.string(), summary: z.string(), reason: z.string().optional() }),
      }),
    ),
  }),
});
const listed = z.object({
  data: z.object({
    share_links: z.array(z.looseObject({ id: z.string(), view_count: z.number(), partner_view_count: z.number() })),
  }),
});

async function partnerEvents(partner: Awaited<ReturnType<typeof createPartner>>) {
  return eventsEnvelope.parse(await (await partner.call('GET', '/api/v1/events')).json()).data.events;
}

describe('POST /api/v1/follows', () => {
  it('an active token: 201, the follow (active, the company) and the snapshot it starts from, one partner view', async () => {
    const { founder, link } = await founderWithLink(t, { name: 'Follow Me Ltd' });
    const partner = await createPartner(t, { name: 'Baobab Capital' });
    const response = await partner.call('POST', '/api/v1/follows', { token: link.token });
    expect(response.status).toBe(201);
    const body = followEnvelope.parse(await response.json());
    expect(body.data.follow).toMatchObject({
      status: 'active',
      company: { name: 'Follow Me Ltd' },
      ended_reason: null,
      rules: {},
    });
    expect(body.data.follow.id).toMatch(/^fol_/);
    expect(body.data.follow.share_expires_at).toBe(link.expires_at);
    expect(body.data.snapshot.company.name).toBe('Follow Me Ltd');
    expect(body.data.snapshot.links.human_summary_url).toBe(link.share_url);
    expect(body.data.snapshot.disclaimer.length).toBeGreaterThan(100);

    // Following again: the same follow (200), not a second one.
    const again = await partner.call('POST', '/api/v1/follows', { token: link.token });
    expect(again.status).toBe(200);
    expect(followEnvelope.parse(await again.json()).data.follow.id).toBe(body.data.follow.id);

    // Partner reads are counted apart: investor views stay 0.
    const links = listed.parse(await (await founder.call('GET', '/api/founder/share-links')).json()).data.share_links;
    expect(links.find((l) => l.id === link.id)).toMatchObject({ view_count: 0, partner_view_count: 2 });
  });

  it('unknown, malformed and revoked tokens are 404 NOT_FOUND, an expired one 410 EXPIRED, as the snapshot endpoint', async () => {
    const partner = await createPartner(t);
    const { founder, link } = await founderWithLink(t);
    const revoked = await founder.createLink();
    expect((await founder.call('POST', `/api/founder/share-links/${revoked.id}/revoke`, {})).status).toBe(200);
    for (const token of ['A'.repeat(43), 'short', '../../etc', revoked.token]) {
      await expectError(await partner.call('POST', '/api/v1/follows', { token }), 404, 'NOT_FOUND');
      expect((await t.request(snapshotPath(token.replace(/\//g, '%2F')))).status).toBe(404);
    }
    t.clock.advance(7 * DAY);
    await expectError(await partner.call('POST', '/api/v1/follows', { token: link.token }), 410, 'EXPIRED');
    expect((await t.request(snapshotPath(link.token))).status).toBe(410);
    await expectError(await partner.call('POST', '/api/v1/follows', {}), 400, 'VALIDATION_ERROR');
    await expectError(await partner.call('POST', '/api/v1/follows', { token: 1 }), 400, 'VALIDATION_ERROR');
    const badRule = await expectError(
      await partner.call('POST', '/api/v1/follows', { token: link.token, rules: { min_score_delta: 0 } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(badRule.error).toContain('`rules.min_score_delta`');
  });

  it("an endpoint id must be the partner's own", async () => {
    const { link } = await founderWithLink(t);
    const partner = await createPartner(t);
    await expectError(
      await partner.call('POST', '/api/v1/follows', { token: link.token, endpoint_id: 'we_someone_else' }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('follows end', () => {
  it('when the founder revokes the link: status ended (revoked), and the partner gets follow.ended', async () => {
    const { founder, link } = await founderWithLink(t, { name: 'Revoking Ltd' });
    const partner = await createPartner(t);
    const followed = await follow(partner, link.token);
    expect(followed.status).toBe('active');
    expect((await founder.call('POST', `/api/founder/share-links/${link.id}/revoke`, {})).status).toBe(200);
    const read = followEnvelope.shape.data.shape.follow;
    const after = z
      .object({ data: z.object({ follow: read }) })
      .parse(await (await partner.call('GET', `/api/v1/follows/${followed.id}`)).json());
    expect(after.data.follow).toMatchObject({ status: 'ended', ended_reason: 'revoked' });
    const events = await partnerEvents(partner);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'follow.ended', data: { follow_id: followed.id, reason: 'revoked' } });
    expect(events[0]?.data.summary).toBe('Revoking Ltd: the founder revoked the share link; this follow has ended');
  });

  it('when the link expires: the worker ends it on the server clock and tells the partner', async () => {
    const { link } = await founderWithLink(t, { name: 'Expiring Ltd' });
    const partner = await createPartner(t);
    const followed = await follow(partner, link.token);
    t.clock.advance(7 * DAY - 1000);
    await t.tick();
    expect(await partnerEvents(partner)).toEqual([]);
    t.clock.advance(1000);
    await t.tick();
    const events = await partnerEvents(partner);
    expect(events.map((e) => [e.type, e.data.reason])).toEqual([['follow.ended', 'expired']]);
    const list = z
      .object({ data: z.object({ follows: z.array(followSchema) }) })
      .parse(await (await partner.call('GET', '/api/v1/follows?status=ended')).json());
    expect(list.data.follows.map((f) => [f.id, f.ended_reason])).toEqual([[followed.id, 'expired']]);
    await t.tick();
    expect(await partnerEvents(partner)).toHaveLength(1); // told once
  });

  it('when the partner unfollows (DELETE): ended, no event; deleting again is the same answer', async () => {
    const { link } = await founderWithLink(t);
    const partner = await createPartner(t);
    const followed = await follow(partner, link.token);
    const first = await partner.call('DELETE', `/api/v1/follows/${followed.id}`);
    expect(first.status).toBe(200);
    const body = z.object({ data: z.object({ follow: followSchema }) }).parse(await first.json());
    expect(body.data.follow).toMatchObject({ status: 'ended', ended_reason: 'unfollowed' });
    expect((await partner.call('DELETE', `/api/v1/follows/${followed.id}`)).status).toBe(200);
    expect(await partnerEvents(partner)).toEqual([]);
    await expectError(await partner.call('DELETE', '/api/v1/follows/fol_unknown'), 404, 'NOT_FOUND');
    // Another partner cannot see or end it.
    const other = await createPartner(t);
    await expectError(await other.call('GET', `/api/v1/follows/${followed.id}`), 404, 'NOT_FOUND');
    // A new follow of the same link can start again.
    expect((await follow(partner, link.token)).id).not.toBe(followed.id);
  });

  it('when the operator revokes the partner key: its follows end without events', async () => {
    const { link } = await founderWithLink(t);
    const partner = await createPartner(t);
    await follow(partner, link.token);
    const revoke = await t.request(`/api/operator/partner-keys/${partner.id}/revoke`, {
      method: 'POST',
      headers: { authorization: 'Bearer operator-secret-for-tests' },
    });
    expect(revoke.status).toBe(200);
    const rows = await db.query('SELECT status, ended_reason FROM follows WHERE partner_id = $1', [partner.id]);
    expect(rows.rows).toEqual([{ status: 'ended', ended_reason: 'key_revoked' }]);
  });
});

describe('founders see who follows', () => {
  it('GET /api/founder/follows lists followers by partner name, with their state', async () => {
    const founder = await signUp(t, { name: 'Watched Ltd' });
    await founder.createPack();
    const first = await founder.createLink();
    const second = await founder.createLink();
    const acacia = await createPartner(t, { name: 'Acacia Fund' });
    const baobab = await createPartner(t, { name: 'Baobab Capital' });
    await follow(acacia, first.token);
    await follow(baobab, second.token);
    await founder.call('POST', `/api/founder/share-links/${second.id}/revoke`, {});
    const response = await founder.call('GET', '/api/founder/follows');
    expect(response.status).toBe(200);
    const { follows } = z.object({ data: z.object({ follows: z.array(founderFollowSchema) }) }).parse(await response.json()).data;
    const rows = follows.map((f) => [f.partner.name, f.share_link_id, f.status, f.ended_reason]);
    expect(rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['Acacia Fund', first.id, 'active', null],
      ['Baobab Capital', second.id, 'ended', 'revoked'],
    ]);
    await expectError(await t.request('/api/founder/follows'), 401, 'UNAUTHORIZED');
  });
});
