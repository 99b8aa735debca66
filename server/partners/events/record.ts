/**
 * Writes follow events, inside the transaction of the change that caused them: the founder's PATCH,
 * a new DD pack, a revocation, or (from the dispatcher's sweep) an expiry. An event for a follow with
 * a webhook endpoint and no digest is also its outbox message (`webhook_messages`, same id), so a
 * crash after the commit loses nothing and one before it leaves no event for a change that never was.
 */
import { z } from 'zod';
import type { Queryable } from '../../platform/db/driver';
import { defaultEndpointId } from '../../webhooks/endpoints';
import { enqueueMessages, type NewMessage } from '../../webhooks/outbox';
import { DISCLAIMER } from '../../snapshots/snapshot';
import { newId } from '../../platform/tokens';
import { followRulesSchema, type FollowEndReason, type FollowEvent, type FollowEventType, type FollowRules } from '../schemas';
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

/** What a recording did: how many events it wrote and how many of them are queued for delivery. */
export interface Recorded {
  events: number;
  messages: number;
}

const END_SUMMARY: Readonly<Record<FollowEndReason, string>> = {
  revoked: 'the founder revoked the share link; this follow has ended',
  expired: 'the share link expired; this follow has ended',
  unfollowed: 'the follow was removed',
  key_revoked: 'the partner key was revoked',
};

interface Emit {
  type: FollowEventType;
  data: Omit<FollowEvent['data'], 'event_id' | 'change_id' | 'follow_id' | 'sequence'>;
  /** Carries snapshot data: counted as a partner view of the link. */
  snapshotData: boolean;
}

/**
 * The rows one recording writes, gathered over all its follows and written in a few statements at
 * the end (a PATCH reaching 100 follows is 5 statements, not 400: PGlite runs one at a time).
 */
class Writes {
  readonly events: Record<string, string | null>[] = [];
  readonly messages: NewMessage[] = [];
  readonly views = new Map<string, number>();
  readonly follows = new Map<string, { event_seq: number; baseline: FollowState | null }>();
  private readonly defaultEndpoints = new Map<string, string | null>();
  /** One id per company per recording: the events of one founder edit (or pack, or revocation) share it. */
  private readonly changeIds = new Map<string, string>();

  constructor(
    private readonly tx: Queryable,
    private readonly now: Date,
  ) {}

  /** A follow without an endpoint of its own uses the partner's newest enabled one, as it is now. */
  async endpointFor(follow: ActiveFollow): Promise<string | null> {
    if (follow.endpoint_id !== null) return follow.endpoint_id;
    if (!this.defaultEndpoints.has(follow.partner_id)) {
      this.defaultEndpoints.set(follow.partner_id, await defaultEndpointId(this.tx, follow.partner_id));
    }
    return this.defaultEndpoints.get(follow.partner_id) ?? null;
  }

  private changeIdOf(orgId: string): string {
    let id = this.changeIds.get(orgId);
    if (id === undefined) this.changeIds.set(orgId, (id = newId('chg')));
    return id;
  }

  async add(follow: ActiveFollow, link: LinkState, emits: readonly Emit[], baseline: FollowState | null): Promise<void> {
    const digest = follow.rules.digest ?? null;
    const endpointId = digest === null && emits.length > 0 ? await this.endpointFor(follow) : null;
    const changeId = this.changeIdOf(link.orgId);
    let sequence = follow.event_seq;
    for (const emit of emits) {
      sequence += 1;
      const id = newId('evt');
      const event: FollowEvent = {
        type: emit.type,
        timestamp: this.now.toISOString(),
        data: { event_id: id, change_id: changeId, follow_id: follow.id, sequence, ...emit.data },
      };
      const body = JSON.stringify(event);
      const queued = endpointId !== null;
      this.events.push({
        id,
        partner_id: follow.partner_id,
        follow_id: follow.id,
        type: emit.type,
        payload: body,
        digest,
        message_id: queued ? id : null,
      });
      if (queued) this.messages.push({ id, partner_id: follow.partner_id, endpoint_id: endpointId, type: emit.type, body });
    }
    // What one change tells one follow is one partner view, however many typed events carry it.
    if (emits.some((emit) => emit.snapshotData))
      this.views.set(follow.share_link_id, (this.views.get(follow.share_link_id) ?? 0) + 1);
    if (emits.length > 0 || baseline !== null) this.follows.set(follow.id, { event_seq: sequence, baseline });
  }

  async flush(): Promise<Recorded> {
    const now = this.now.toISOString();
    if (this.events.length > 0) {
      // WITH ORDINALITY keeps the events in the order they were made, so `seq` follows it.
      await this.tx.query(
        `INSERT INTO follow_events (id, partner_id, follow_id, type, payload, digest, message_id, created_at)
         SELECT r.id, r.partner_id, r.follow_id, r.type, r.payload::jsonb, r.digest, r.message_id, $2::timestamptz
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(x, ord),
           jsonb_to_record(t.x) AS r(id text, partner_id text, follow_id text, type text, payload text, digest text, message_id text)
         ORDER BY t.ord`,
        [JSON.stringify(this.events), now],
      );
    }
    await enqueueMessages(this.tx, this.messages, this.now);
    if (this.views.size > 0) {
      await this.tx.query(
        `UPDATE share_links l SET partner_view_count = l.partner_view_count + r.n
         FROM jsonb_to_recordset($1::jsonb) AS r(id text, n int) WHERE l.id = r.id`,
        [JSON.stringify([...this.views].map(([id, n]) => ({ id, n })))],
      );
    }
    if (this.follows.size > 0) {
      await this.tx.query(
        `UPDATE follows f SET event_seq = r.event_seq, baseline = COALESCE(r.baseline, f.baseline)
         FROM jsonb_to_recordset($1::jsonb) AS r(id text, event_seq int, baseline jsonb) WHERE f.id = r.id`,
        [JSON.stringify([...this.follows].map(([id, update]) => ({ id, ...update })))],
      );
    }
    return { events: this.events.length, messages: this.messages.length };
  }
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

async function markEnded(tx: Queryable, follow: ActiveFollow, reason: FollowEndReason, now: Date): Promise<void> {
  await tx.query(
    `UPDATE follows SET status = 'ended', ended_reason = $2, ended_at = $3::timestamptz WHERE id = $1 AND status = 'active'`,
    [follow.id, reason, now.toISOString()],
  );
}

/** The partner ended the follow (or lost its key): no event, nobody needs telling. */
export async function endFollowQuietly(tx: Queryable, follow: ActiveFollow, reason: 'unfollowed', now: Date): Promise<void> {
  await markEnded(tx, follow, reason, now);
}

/** The state a follow moves to; ends it (telling its partner) when its link is revoked or expired. */
async function advanceFollow(tx: Queryable, writes: Writes, follow: ActiveFollow, link: LinkState, now: Date): Promise<void> {
  const ended: FollowEndReason | null =
    link.revokedAt !== null ? 'revoked' : link.expiresAt.getTime() <= now.getTime() ? 'expired' : null;
  if (ended !== null) {
    await markEnded(tx, follow, ended, now);
    const data = { company: { name: link.company }, summary: `${link.company}: ${END_SUMMARY[ended]}`, reason: ended };
    await writes.add(follow, link, [{ type: 'follow.ended', data, snapshotData: false }], null);
    return;
  }
  const { events, baseline } = followChanges(follow.baseline, link.state, follow.rules, now);
  await writes.add(follow, link, snapshotEmits(link.company, events), baseline);
}

async function advanceAll(tx: Queryable, follows: readonly ActiveFollow[], now: Date): Promise<Recorded> {
  const links = await readLinkStates(tx, [...new Set(follows.map((follow) => follow.share_link_id))], now);
  const writes = new Writes(tx, now);
  for (const follow of follows) {
    const link = links.get(follow.share_link_id);
    if (link) await advanceFollow(tx, writes, follow, link, now);
  }
  return writes.flush();
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
