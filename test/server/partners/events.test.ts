/**
 * Typed change events from real founder changes (PATCH, a new DD pack): every type, with before and
 * after values and a sentence; the follow's thresholds (what is held back is reported once it adds
 * up); digests on the server's clock; and the partner-view count they add.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { followEventSchema } from '../../../server/partners/schemas';
import { DISCLAIMER } from '../../../server/snapshots/snapshot';
import { founderWithLink, type Founder } from '../support/harness';
import {
  addEndpoint,
  bodies,
  createPartner,
  follow,
  type Partner,
  type Receiver,
  type V1App,
  withV1App,
  withReceiver,
} from '../support/v1';

let t: V1App;
let receiver: Receiver;
withV1App((app) => {
  t = app;
});
withReceiver((started) => {
  receiver = started;
});

const HOUR = 3600_000;
const eventList = z.object({
  data: z.object({
    events: z.array(
      followEventSchema.extend({
        delivery: z.object({ mode: z.string(), message_id: z.string().nullable(), status: z.string() }),
      }),
    ),
    next_cursor: z.string().nullable(),
  }),
});

async function eventsOf(partner: Partner) {
  return eventList.parse(await (await partner.call('GET', '/api/v1/events')).json()).data.events;
}

/** A founder (GROWTH_PROFILE: readiness 76, fundraise 68 → low band, one high gap, CBN + SEC_NIGERIA) and a partner following its link. */
async function followedCompany(
  name: string,
  rules?: Record<string, unknown>,
  profile: Record<string, unknown> = {},
): Promise<{ founder: Founder; partner: Partner; followId: string }> {
  const { founder, link } = await founderWithLink(t, { name, ...profile });
  const partner = await createPartner(t);
  const followed = await follow(partner, link.token, { endpoint_id: null, ...(rules ? { rules } : {}) });
  return { founder, partner, followId: followed.id };
}

async function patch(founder: Founder, body: Record<string, unknown>): Promise<void> {
  const response = await founder.call('PATCH', '/api/founder/organisation', body);
  expect(response.status, await response.clone().text()).toBe(200);
}

const changesOf = (event: { data: { changes?: { field: string; before: unknown; after: unknown }[] } }) =>
  (event.data.changes ?? []).map(({ field, before, after }) => ({ field, before, after }));

describe('each event type from a real founder change', () => {
  it('scores and band: snapshot.band_changed and snapshot.scores_changed with before, after and sentences', async () => {
    const { founder, partner, followId } = await followedCompany('Scores Ltd');
    await patch(founder, { readiness_score: 82, fundraise_score: 86 });
    const events = await eventsOf(partner);
    expect(events.map((e) => e.type)).toEqual(['snapshot.band_changed', 'snapshot.scores_changed']);
    const [band, scores] = events;
    expect(changesOf(band!)).toEqual([{ field: 'scores.fundraise_risk_band', before: 'low', after: 'investor_ready' }]);
    expect(changesOf(scores!)).toEqual([
      { field: 'scores.readiness_score', before: 76, after: 82 },
      { field: 'scores.fundraise_score', before: 68, after: 86 },
    ]);
    expect(scores!.data).toMatchObject({
      follow_id: followId,
      sequence: 2,
      company: { name: 'Scores Ltd' },
      summary: 'Scores Ltd: Readiness score 76 → 82 (+6); Fundraise score 68 → 86 (+18)',
      disclaimer: DISCLAIMER,
    });
    expect(band!.data.summary).toBe('Scores Ltd: Fundraising risk: Low → Investor ready');
    expect(band!.timestamp).toBe(t.clock.now().toISOString());
    expect(scores!.delivery).toEqual({ mode: 'none', message_id: null, status: 'none' });
    // The readiness label is a band too.
    await patch(founder, { readiness_score: 92 });
    const [label] = (await eventsOf(partner)).slice(2);
    expect(label?.type).toBe('snapshot.band_changed');
    expect(changesOf(label!)).toEqual([{ field: 'scores.readiness_label', before: 'Good Standing', after: 'Regulator Ready' }]);
  });

  it('gaps: opened, severity changed and resolved, matched by title; a gap only pushed out of the top 3 is not resolved', async () => {
    const { founder, partner } = await followedCompany('Gaps Ltd');
    const aml = {
      title: 'AML/CFT programme not yet board-approved',
      severity: 'high',
      regulatory_basis: 'CBN AML/CFT Regulations 2022',
    };
    const licence = { title: 'No PSP licence yet', severity: 'critical', regulatory_basis: 'CBN PSP framework' };
    await patch(founder, { gaps: [aml, licence] });
    await patch(founder, { gaps: [{ ...aml, severity: 'critical' }, licence] });
    await patch(founder, { gaps: [licence] });
    const events = await eventsOf(partner);
    expect(events.map((e) => [e.type, changesOf(e)])).toEqual([
      ['snapshot.gap_opened', [{ field: 'top_gaps', before: null, after: { title: licence.title, severity: 'critical' } }]],
      [
        'snapshot.gap_severity_changed',
        [
          {
            field: 'top_gaps',
            before: { title: aml.title, severity: 'high' },
            after: { title: aml.title, severity: 'critical' },
          },
        ],
      ],
      ['snapshot.gap_resolved', [{ field: 'top_gaps', before: { title: aml.title, severity: 'critical' }, after: null }]],
    ]);
    expect(events[0]?.data.summary).toBe('Gaps Ltd: New critical gap: No PSP licence yet');
    expect(events[2]?.data.summary).toBe(`Gaps Ltd: Gap resolved (critical): ${aml.title}`);

    // Three more critical gaps push the medium one out of the top 3: no event for it, only the new ones.
    const medium = { title: 'Privacy notice outdated', severity: 'medium', regulatory_basis: 'NDPA 2023' };
    await patch(founder, { gaps: [licence, medium] });
    const critical = (n: number) => ({ title: `Critical gap ${n}`, severity: 'critical', regulatory_basis: 'x' });
    await patch(founder, { gaps: [licence, medium, critical(1), critical(2)] });
    const later = (await eventsOf(partner)).slice(3);
    expect(later.map((e) => [e.type, changesOf(e).map((c) => JSON.stringify(c.after ?? c.before))])).toEqual([
      ['snapshot.gap_opened', [JSON.stringify({ title: medium.title, severity: 'medium' })]],
      ['snapshot.gap_opened', [critical(1), critical(2)].map((g) => JSON.stringify({ title: g.title, severity: 'critical' }))],
    ]);
  });

  it('regulators: added, removed, and the primary one moving, by name (codes in before and after)', async () => {
    const { founder, partner } = await followedCompany('Regulated Ltd');
    await patch(founder, { secondary_regulators: ['SEC_NIGERIA', 'NFIU'] });
    await patch(founder, { primary_regulator: 'SEC_NIGERIA', secondary_regulators: ['NFIU'] });
    const events = await eventsOf(partner);
    expect(events.map((e) => e.type)).toEqual(['snapshot.regulators_changed', 'snapshot.regulators_changed']);
    expect(changesOf(events[0]!)).toEqual([
      { field: 'licensing.secondary_regulators', before: ['SEC_NIGERIA'], after: ['SEC_NIGERIA', 'NFIU'] },
    ]);
    expect(events[0]?.data.summary).toBe(
      'Regulated Ltd: Other regulators: Securities and Exchange Commission, Nigeria → Securities and Exchange Commission, Nigeria · Nigerian Financial Intelligence Unit',
    );
    expect(changesOf(events[1]!)).toEqual([
      { field: 'licensing.primary_regulator', before: 'CBN', after: 'SEC_NIGERIA' },
      { field: 'licensing.secondary_regulators', before: ['SEC_NIGERIA', 'NFIU'], after: ['NFIU'] },
    ]);
    expect(events[1]?.data.summary).toBe(
      'Regulated Ltd: Primary regulator: Central Bank of Nigeria → Securities and Exchange Commission, Nigeria; ' +
        'Other regulators: Securities and Exchange Commission, Nigeria · Nigerian Financial Intelligence Unit → Nigerian Financial Intelligence Unit',
    );
  });

  it('a regulator is listed once: made primary, it leaves the others; the event says so truly, with no change that changes nothing', async () => {
    // Issue #34: SEC_NIGERIA primary, CBN secondary; the founder sets CBN as primary.
    const { founder, partner } = await followedCompany('Promoted Ltd', undefined, {
      primary_regulator: 'SEC_NIGERIA',
      secondary_regulators: ['CBN'],
    });
    await patch(founder, { primary_regulator: 'CBN' });
    const organisation = z
      .object({
        data: z.object({ organisation: z.object({ primary_regulator: z.string(), secondary_regulators: z.array(z.string()) }) }),
      })
      .parse(await (await founder.call('GET', '/api/founder/organisation')).json()).data.organisation;
    expect(organisation).toEqual({ primary_regulator: 'CBN', secondary_regulators: [] });
    const [event] = await eventsOf(partner);
    expect(changesOf(event!)).toEqual([
      { field: 'licensing.primary_regulator', before: 'SEC_NIGERIA', after: 'CBN' },
      { field: 'licensing.secondary_regulators', before: ['CBN'], after: [] },
    ]);
    expect(event?.data.summary).toBe(
      'Promoted Ltd: Primary regulator: Securities and Exchange Commission, Nigeria → Central Bank of Nigeria; Other regulators: Central Bank of Nigeria → none',
    );
    // Listed twice in one body: each once, the primary apart, the first mention's order kept. A code
    // the card has no name for is named as the card names it.
    await patch(founder, { primary_regulator: 'NFIU', secondary_regulators: ['XYZ_AUTHORITY', 'NFIU', 'CBN', 'XYZ_AUTHORITY'] });
    const [, second] = await eventsOf(partner);
    expect(changesOf(second!)).toEqual([
      { field: 'licensing.primary_regulator', before: 'CBN', after: 'NFIU' },
      { field: 'licensing.secondary_regulators', before: [], after: ['XYZ_AUTHORITY', 'CBN'] },
    ]);
    expect(second?.data.summary).toContain('Other regulators: none → Regulator code XYZ_AUTHORITY · Central Bank of Nigeria');
  });

  it('licensing (ARIP stage, product) and a new DD pack', async () => {
    const { founder, partner } = await followedCompany('Licensed Ltd');
    await patch(founder, { arip_stage: 'aip_active', product_classification: 'HYBRID' });
    t.clock.advance(HOUR);
    const pack = await founder.createPack();
    const events = await eventsOf(partner);
    expect(events.map((e) => e.type)).toEqual(['snapshot.licensing_changed', 'snapshot.pack_generated']);
    expect(changesOf(events[0]!)).toEqual([
      { field: 'licensing.arip_stage', before: 'formal_application', after: 'aip_active' },
      { field: 'licensing.product_classification', before: 'PAYMENT', after: 'HYBRID' },
    ]);
    expect(changesOf(events[1]!)[0]?.after).toEqual({
      generated_at: pack.generated_at,
      verification_hash: pack.verification_hash,
    });
    expect(events[1]?.data.summary).toBe(`Licensed Ltd: New DD pack (${pack.verification_hash})`);
  });

  it('a change that moves nothing a follow sees sends nothing (a name, the same values)', async () => {
    const { founder, partner } = await followedCompany('Quiet Ltd');
    await patch(founder, { readiness_score: 76, checklist_complete: 31 });
    expect(await eventsOf(partner)).toEqual([]);
  });

  it('one edit is one partner view per follow, however many events it sends; investor views are untouched', async () => {
    const { founder, partner } = await followedCompany('Counted Ltd');
    const linkViews = async () =>
      z
        .object({
          data: z.object({ share_links: z.array(z.object({ view_count: z.number(), partner_view_count: z.number() })) }),
        })
        .parse(await (await founder.call('GET', '/api/founder/share-links')).json()).data.share_links[0];
    expect(await linkViews()).toEqual({ view_count: 0, partner_view_count: 1 }); // the follow's own read
    await patch(founder, { readiness_score: 90, fundraise_score: 90 }); // label, band, scores: 2 events
    expect((await eventsOf(partner)).length).toBe(2);
    expect(await linkViews()).toEqual({ view_count: 0, partner_view_count: 2 });
    await patch(founder, { checklist_complete: 35 }); // one more edit, one more event
    expect(await linkViews()).toEqual({ view_count: 0, partner_view_count: 3 });
  });

  it('the events of one edit share a change_id, for every follow of the company; the next edit has its own', async () => {
    const { founder, partner, followId } = await followedCompany('Grouped Ltd');
    const other = await createPartner(t);
    const second = await founder.createLink();
    await follow(other, second.token, { endpoint_id: null });
    await patch(founder, { readiness_score: 92, fundraise_score: 90, primary_regulator: 'NFIU' }); // label, band, scores, regulators
    const mine = await eventsOf(partner);
    const theirs = await eventsOf(other);
    expect(mine.map((e) => e.type)).toEqual(['snapshot.band_changed', 'snapshot.scores_changed', 'snapshot.regulators_changed']);
    const [changeId] = new Set([...mine, ...theirs].map((e) => e.data.change_id));
    expect(new Set([...mine, ...theirs].map((e) => e.data.change_id))).toEqual(new Set([changeId]));
    expect(changeId).toMatch(/^chg_/);
    expect(mine.every((e) => e.data.follow_id === followId)).toBe(true);
    await patch(founder, { checklist_complete: 36 });
    const [next] = (await eventsOf(partner)).slice(3);
    expect(next?.data.change_id).toMatch(/^chg_/);
    expect(next?.data.change_id).not.toBe(changeId);
  });
});

describe('rules: thresholds and types', () => {
  it('min_score_delta: moves below it are held back and reported once they add up since the last event sent', async () => {
    const { founder, partner } = await followedCompany('Threshold Ltd', { min_score_delta: 5 });
    await patch(founder, { readiness_score: 78 }); // +2: held back
    await patch(founder, { readiness_score: 79 }); // +3 since the last one sent: held back
    expect(await eventsOf(partner)).toEqual([]);
    await patch(founder, { readiness_score: 82 }); // +6 since 76
    const [event] = await eventsOf(partner);
    expect(changesOf(event!)).toEqual([{ field: 'scores.readiness_score', before: 76, after: 82 }]);
    await patch(founder, { readiness_score: 80 }); // −2 since 82: held back
    expect(await eventsOf(partner)).toHaveLength(1);
  });

  it('types: only band changes', async () => {
    const { founder, partner } = await followedCompany('Bands Only Ltd', { types: ['snapshot.band_changed'] });
    await patch(founder, { readiness_score: 80, gaps: [] });
    expect(await eventsOf(partner)).toEqual([]);
    await patch(founder, { fundraise_score: 90 });
    expect((await eventsOf(partner)).map((e) => [e.type, changesOf(e)])).toEqual([
      ['snapshot.band_changed', [{ field: 'scores.fundraise_risk_band', before: 'low', after: 'investor_ready' }]],
    ]);
  });

  it('min_gap_severity: a medium gap is not sent, a critical one is; new rules apply from the next change', async () => {
    const { founder, partner, followId } = await followedCompany('Severe Ltd', { min_gap_severity: 'critical' });
    const medium = { title: 'Minor gap', severity: 'medium', regulatory_basis: 'x' };
    const critical = { title: 'Major gap', severity: 'critical', regulatory_basis: 'y' };
    await patch(founder, { gaps: [medium, critical] });
    const events = await eventsOf(partner);
    expect(events.map((e) => changesOf(e).map((c) => c.after))).toEqual([[{ title: 'Major gap', severity: 'critical' }]]);
    const updated = await partner.call('PATCH', `/api/v1/follows/${followId}`, { rules: {} });
    expect(updated.status).toBe(200);
    await patch(founder, { gaps: [critical] }); // the medium gap resolved: it was never sent as opened, nor is it now
    const later = (await eventsOf(partner)).slice(1);
    // The medium gap's opening was held back, so its baseline never had it: resolving it is no change.
    // The AML gap (high) was held back when resolved, and is reported now that rules allow it.
    expect(later.map((e) => [e.type, changesOf(e).map((c) => (c.before as { title: string } | null)?.title)])).toEqual([
      ['snapshot.gap_resolved', ['AML/CFT programme not yet board-approved']],
    ]);
  });
});

describe('digests', () => {
  it('daily: events are held until the day ends on the server clock, then one signed digest per endpoint carries them', async () => {
    const { founder, link } = await founderWithLink(t, { name: 'Digest Ltd' });
    const partner = await createPartner(t);
    const endpoint = await addEndpoint(partner, receiver.url);
    const followed = await follow(partner, link.token, { endpoint_id: endpoint.id, rules: { digest: 'daily' } });
    await patch(founder, { readiness_score: 80 });
    await patch(founder, { fundraise_score: 90 });
    await t.tick();
    const before = receiver.received.length;
    expect(before).toBe(0);
    expect((await eventsOf(partner)).map((e) => e.delivery)).toEqual([
      { mode: 'daily', message_id: null, status: 'held' },
      { mode: 'daily', message_id: null, status: 'held' },
      { mode: 'daily', message_id: null, status: 'held' },
    ]);
    // The dev clock (POST /api/dev/clock) moves the day on.
    const moved = await t.request('/api/dev/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 24 * HOUR }),
    });
    expect(moved.status).toBe(200);
    await t.tick();
    const digests = bodies(receiver);
    expect(digests).toHaveLength(1);
    expect(digests[0]?.type).toBe('digest.daily');
    expect(digests[0]?.data.summary).toBe('3 changes to 1 company (daily digest)');
    const items = z.array(followEventSchema).parse(digests[0]?.data.events);
    expect(items.map((e) => e.type)).toEqual(['snapshot.scores_changed', 'snapshot.band_changed', 'snapshot.scores_changed']);
    expect(items.every((e) => e.data.follow_id === followed.id)).toBe(true);
    const delivered = (await eventsOf(partner)).map((e) => e.delivery.status);
    expect(delivered).toEqual(['delivered', 'delivered', 'delivered']);
    await t.tick();
    expect(receiver.received).toHaveLength(1); // sent once
    receiver.received.length = 0;
  });

  it('weekly: held until Monday 00:00 UTC', async () => {
    const { founder, link } = await founderWithLink(t, { name: 'Weekly Ltd' });
    const partner = await createPartner(t);
    const endpoint = await addEndpoint(partner, receiver.url);
    await follow(partner, link.token, { endpoint_id: endpoint.id, rules: { digest: 'weekly' } });
    await patch(founder, { readiness_score: 50 });
    const now = t.clock.now();
    const daysToMonday = (8 - now.getUTCDay()) % 7 || 7;
    const monday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + daysToMonday);
    t.clock.advance(monday - now.getTime() - 1000);
    await t.tick();
    expect(receiver.received).toHaveLength(0);
    t.clock.advance(1000);
    await t.tick();
    expect(bodies(receiver).map((b) => b.type)).toEqual(['digest.weekly']);
    receiver.received.length = 0;
  });
});
