/**
 * Writes follow events, inside the transaction of the change that caused them: the founder's PATCH,
 * a new DD pack, a revocation, or (from the dispatcher's sweep) an expiry. An event for a follow with
 * a webhook endpoint and no digest is also its outbox message (`webhook_messages`, same id), so a
 * crash after the commit loses nothing and one before it leaves no event for a change that never was.
 */
import { z } from 'zod';
import type { Queryable } from '../db/driver';
import { defaultEndpointId } from '../partners/endpoints';
import { DISCLAIMER } from '../snapshot';
import { newId } from '../tokens';
import {
  followRulesSchema,
  type FollowEndReason,
  type FollowEvent,
  type FollowEventType,
  type FollowRules,
} from '../partners/schemas';
import { eventSummary, followChanges, type PendingEvent } from './changes';
import { followStateSchema, readLinkStates, type FollowState, type LinkState } from './state';

const activeFollowRow = z.object({
  id: z.string(),
  partner_id: z.string(),
  share_link_id: z.string(),
  endpoint_id: z.string().nullable(),
  rules: followRulesSchema,
  baseline: followStateSchema,
  event_seq: z.number(),
});
type ActiveFollow = z.infer<typeof activeFollowRow>;

const FOLLOW_COLUMNS = 'f.id, f.partner_id, f.share_link_id, f.endpoint_id, f.rules, f.baseline, f.event_seq';

/** What a recording did: how many messages it queued for delivery (the dispatcher is nudged when > 0). */
export interface Recorded {
  events: number;
  messages: number;
}

const NONE: Recorded = { events: 0, messages: 0 };
const add = (a: Recorded, b: Recorded): Recorded => ({ events: a.events + b.events, messages: a.messages + b.messages });

const END_SUMMARY: Readonly<Record<FollowEndReason, string>> = {
  revoked: 'the founder revoked the share link; this follow has ended',
  expired: 'the share link expired; this follow has ended',
  unfollowed: 'the follow was removed',
  key_revoked: 'the partner key was revoked',
};

interface Emit {
  type: FollowEventType;
  data: Omit<FollowEvent['data'], 'event_id' | 'follow_id' | 'sequence'>;
  /** Carries snapshot data: counted as a partner view of the link. */
  snapshotData: boolean;
}

/** Inserts a follow's events (and their outbox messages) and moves its sequence on. */
async function writeEvents(
  tx: Queryable,
  follow: ActiveFollow,
  emits: readonly Emit[],
  now: Date,
  baseline?: FollowState,
): Promise<Recorded> {
  if (emits.length === 0) {
    if (baseline !== undefined) await saveBaseline(tx, follow.id, baseline);
    return NONE;
  }
  const digest = follow.rules.digest ?? null;
  // A follow without an endpoint of its own uses the partner's newest enabled one, as it is now.
  const endpointId = follow.endpoint_id ?? (digest === null ? await defaultEndpointId(tx, follow.partner_id) : null);
  let messages = 0;
  let sequence = follow.event_seq;
  for (const emit of emits) {
    sequence += 1;
    const id = newId('evt');
    const event: FollowEvent = {
      type: emit.type,
      timestamp: now.toISOString(),
      data: { event_id: id, follow_id: follow.id, sequence, ...emit.data },
    };
    const queued = digest === null && endpointId !== null;
    await tx.query(
      `INSERT INTO follow_events (id, partner_id, follow_id, type, payload, digest, message_id, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8::timestamptz)`,
      [id, follow.partner_id, follow.id, emit.type, JSON.stringify(event), digest, queued ? id : null, now.toISOString()],
    );
    if (queued) {
      await tx.query(
        `INSERT INTO webhook_messages (id, partner_id, endpoint_id, type, body, status, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, 'pending', $6::timestamptz, $6::timestamptz)`,
        [id, follow.partner_id, endpointId, emit.type, JSON.stringify(event), now.toISOString()],
      );
      messages += 1;
    }
  }
  const views = emits.filter((emit) => emit.snapshotData).length;
  if (views > 0) {
    await tx.query('UPDATE share_links SET partner_view_count = partner_view_count + $2 WHERE id = $1', [
      follow.share_link_id,
      views,
    ]);
  }
  if (baseline === undefined) await tx.query('UPDATE follows SET event_seq = $2 WHERE id = $1', [follow.id, sequence]);
  else {
    await tx.query('UPDATE follows SET event_seq = $2, baseline = $3::jsonb WHERE id = $1', [
      follow.id,
      sequence,
      JSON.stringify(baseline),
    ]);
  }
  return { events: emits.length, messages };
}

function snapshotEmits(company: string, events: readonly PendingEvent[]): Emit[] {
  return events.map((event) => ({
    type: event.type,
    data: {
      company: { name: company },
      summary: eventSummary(company, event.changes),
      changes: event.changes,
      disclaimer: DISCLAIMER,
    },
    snapshotData: true,
  }));
}

/** Ends a follow and tells its partner (`follow.ended`), unless the partner ended it. */
export async function endFollow(
  tx: Queryable,
  follow: ActiveFollow,
  company: string,
  reason: FollowEndReason,
  now: Date,
): Promise<Recorded> {
  await tx.query(
    `UPDATE follows SET status = 'ended', ended_reason = $2, ended_at = $3::timestamptz WHERE id = $1 AND status = 'active'`,
    [follow.id, reason, now.toISOString()],
  );
  if (reason === 'unfollowed' || reason === 'key_revoked') return NONE;
  return writeEvents(
    tx,
    follow,
    [
      {
        type: 'follow.ended',
        data: { company: { name: company }, summary: `${company}: ${END_SUMMARY[reason]}`, reason },
        snapshotData: false,
      },
    ],
    now,
  );
}

/** The state a follow moves to; ends it when its link is revoked or expired. */
async function advanceFollow(tx: Queryable, follow: ActiveFollow, link: LinkState, now: Date): Promise<Recorded> {
  if (link.revokedAt !== null) return endFollow(tx, follow, link.company, 'revoked', now);
  if (link.expiresAt.getTime() <= now.getTime()) return endFollow(tx, follow, link.company, 'expired', now);
  const { events, baseline } = followChanges(follow.baseline, link.state, follow.rules, now);
  return writeEvents(tx, follow, snapshotEmits(link.company, events), now, baseline);
}

async function saveBaseline(tx: Queryable, followId: string, baseline: FollowState): Promise<void> {
  await tx.query('UPDATE follows SET baseline = $2::jsonb WHERE id = $1', [followId, JSON.stringify(baseline)]);
}

async function advanceAll(tx: Queryable, follows: readonly ActiveFollow[], now: Date): Promise<Recorded> {
  const links = await readLinkStates(tx, [...new Set(follows.map((follow) => follow.share_link_id))], now);
  let recorded = NONE;
  for (const follow of follows) {
    const link = links.get(follow.share_link_id);
    if (link) recorded = add(recorded, await advanceFollow(tx, follow, link, now));
  }
  return recorded;
}

/**
 * The company changed (profile, gaps, a new DD pack): every active follow of its links works out what
 * changed since the last event it sent. Follow rows are locked, so the expiry sweep and another change
 * wait for this one.
 */
export async function recordCompanyChange(tx: Queryable, orgId: string, now: Date): Promise<Recorded> {
  const result = await tx.query(
    `SELECT ${FOLLOW_COLUMNS} FROM follows f JOIN share_links l ON l.id = f.share_link_id
     WHERE l.org_id = $1 AND f.status = 'active' ORDER BY f.id FOR UPDATE OF f`,
    [orgId],
  );
  return advanceAll(
    tx,
    result.rows.map((row) => activeFollowRow.parse(row)),
    now,
  );
}

/** A link was revoked: its follows end. */
export async function recordLinkChange(tx: Queryable, linkId: string, now: Date): Promise<Recorded> {
  const result = await tx.query(
    `SELECT ${FOLLOW_COLUMNS} FROM follows f WHERE f.share_link_id = $1 AND f.status = 'active' ORDER BY f.id FOR UPDATE OF f`,
    [linkId],
  );
  return advanceAll(
    tx,
    result.rows.map((row) => activeFollowRow.parse(row)),
    now,
  );
}

/**
 * Follows whose link expired by `now` (time passing changes nothing in the database, so the
 * dispatcher sweeps for them). SKIP LOCKED: another instance's sweep, or a change holding a follow,
 * takes those; this one takes the rest.
 */
export async function recordExpiries(tx: Queryable, now: Date, limit = 100): Promise<Recorded> {
  const result = await tx.query(
    `SELECT ${FOLLOW_COLUMNS} FROM follows f JOIN share_links l ON l.id = f.share_link_id
     WHERE f.status = 'active' AND (l.expires_at <= $1::timestamptz OR l.revoked_at IS NOT NULL)
     ORDER BY l.expires_at LIMIT $2 FOR UPDATE OF f SKIP LOCKED`,
    [now.toISOString(), limit],
  );
  return advanceAll(
    tx,
    result.rows.map((row) => activeFollowRow.parse(row)),
    now,
  );
}

/** Parses a follow row for ending it from elsewhere (the partner's unfollow). */
export function parseActiveFollow(row: unknown): ActiveFollow {
  return activeFollowRow.parse(row);
}
export { FOLLOW_COLUMNS };
export type { ActiveFollow, FollowRules };
