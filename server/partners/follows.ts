/**
 * Follows: a partner presents a share token it holds (the founder consented by sharing it) and is
 * told when that company changes, until the link is revoked or expires. The follow's baseline is the
 * snapshot at follow time, which the answer returns (one partner view of the link).
 */
import { z } from 'zod';
import { isValidTokenShape } from '../../lib/core/token';
import type { SnapshotSuccessEnvelope } from '../../lib/core/schemas/snapshot';
import type { Database, Queryable } from '../platform/db/driver';
import { EXPIRED_MESSAGE, TOKEN_NOT_FOUND_MESSAGE, ApiError } from '../platform/http/errors';
import { endFollowQuietly, FOLLOW_COLUMNS, parseActiveFollow } from './events/record';
import { readLinkStates } from './events/state';
import { newId, sha256Hex } from '../platform/tokens';
import { requireOwnEndpoint } from '../webhooks/endpoints';
import { deliveryStates } from '../webhooks/messages';
import {
  FOLLOW_END_REASONS,
  followEventSchema,
  followRulesSchema,
  type FollowRules,
  type FollowView,
  type FounderFollowView,
  type PartnerEventView,
} from './schemas';

const followRow = z.object({
  id: z.string(),
  company: z.string(),
  status: z.enum(['active', 'ended']),
  ended_reason: z.enum(FOLLOW_END_REASONS).nullable(),
  endpoint_id: z.string().nullable(),
  rules: followRulesSchema,
  expires_at: z.date(),
  event_seq: z.number(),
  created_at: z.date(),
  ended_at: z.date().nullable(),
});

const FOLLOW_SELECT = `SELECT f.id, o.name AS company, f.status, f.ended_reason, f.endpoint_id, f.rules, l.expires_at,
  f.event_seq, f.created_at, f.ended_at
  FROM follows f JOIN share_links l ON l.id = f.share_link_id JOIN organisations o ON o.id = l.org_id`;

function toView(raw: unknown): FollowView {
  const row = followRow.parse(raw);
  return {
    id: row.id,
    company: { name: row.company },
    status: row.status,
    ended_reason: row.ended_reason,
    endpoint_id: row.endpoint_id,
    rules: row.rules,
    share_expires_at: row.expires_at.toISOString(),
    events_sent: row.event_seq,
    created_at: row.created_at.toISOString(),
    ended_at: row.ended_at?.toISOString() ?? null,
  };
}

export const FOLLOW_NOT_FOUND_MESSAGE = 'No follow with this id.';
const notFound = () => new ApiError(404, 'NOT_FOUND', FOLLOW_NOT_FOUND_MESSAGE);

const linkRow = z.object({ id: z.string(), expires_at: z.date(), revoked_at: z.date().nullable() });
const idRow = z.object({ id: z.string() });

export interface CreatedFollow {
  follow: FollowView;
  /** The snapshot the follow starts from, as the snapshot endpoint would show it (links included). */
  snapshot: SnapshotSuccessEnvelope['data'];
  created: boolean;
}

/**
 * Follows the link behind `token`: 404 NOT_FOUND for an unknown, malformed or revoked token and 410
 * EXPIRED for an expired one, exactly as the snapshot endpoint answers. Following a link already
 * followed gives the same follow back (200), with the snapshot now.
 */
export async function createFollow(
  db: Database,
  now: Date,
  partnerId: string,
  input: { token: string; endpoint_id?: string | null; rules?: FollowRules },
  links: (token: string) => SnapshotSuccessEnvelope['data']['links'],
): Promise<CreatedFollow> {
  if (!isValidTokenShape(input.token)) throw new ApiError(404, 'NOT_FOUND', TOKEN_NOT_FOUND_MESSAGE);
  return db.transaction(async (tx) => {
    const found = await tx.query('SELECT id, expires_at, revoked_at FROM share_links WHERE token_hash = $1 FOR SHARE', [
      sha256Hex(input.token),
    ]);
    const link = found.rows[0] === undefined ? null : linkRow.parse(found.rows[0]);
    if (link === null || link.revoked_at !== null) throw new ApiError(404, 'NOT_FOUND', TOKEN_NOT_FOUND_MESSAGE);
    if (link.expires_at.getTime() <= now.getTime()) throw new ApiError(410, 'EXPIRED', EXPIRED_MESSAGE);

    const existing = await tx.query("SELECT id FROM follows WHERE partner_id = $1 AND share_link_id = $2 AND status = 'active'", [
      partnerId,
      link.id,
    ]);
    let followId = existing.rows[0] === undefined ? null : idRow.parse(existing.rows[0]).id;
    const state = (await readLinkStates(tx, [link.id], now)).get(link.id);
    if (state === undefined) throw new ApiError(404, 'NOT_FOUND', TOKEN_NOT_FOUND_MESSAGE);
    const created = followId === null;
    if (followId === null) {
      if (input.endpoint_id) await requireOwnEndpoint(tx, partnerId, input.endpoint_id);
      // None named: each event goes to the partner's newest enabled endpoint when it is written.
      const endpointId = input.endpoint_id ?? null;
      followId = newId('fol');
      await tx.query(
        `INSERT INTO follows (id, partner_id, share_link_id, endpoint_id, status, rules, baseline, created_at)
         VALUES ($1, $2, $3, $4, 'active', $5::jsonb, $6::jsonb, $7::timestamptz)`,
        [
          followId,
          partnerId,
          link.id,
          endpointId,
          JSON.stringify(input.rules ?? {}),
          JSON.stringify(state.state),
          now.toISOString(),
        ],
      );
    }
    // The answer carries the snapshot: a read of it, counted apart from investor views.
    await tx.query('UPDATE share_links SET partner_view_count = partner_view_count + 1 WHERE id = $1', [link.id]);
    const follow = await getFollowIn(tx, partnerId, followId);
    return { follow, snapshot: { ...state.snapshot.data, links: links(input.token) }, created };
  });
}

async function getFollowIn(q: Queryable, partnerId: string, id: string): Promise<FollowView> {
  const result = await q.query(`${FOLLOW_SELECT} WHERE f.id = $1 AND f.partner_id = $2`, [id, partnerId]);
  const row = result.rows[0];
  if (row === undefined) throw notFound();
  return toView(row);
}

export const getFollow = getFollowIn;

export async function listFollows(db: Queryable, partnerId: string, status?: 'active' | 'ended'): Promise<FollowView[]> {
  const result = await db.query(
    `${FOLLOW_SELECT} WHERE f.partner_id = $1 AND ($2::text IS NULL OR f.status = $2) ORDER BY f.created_at, f.id`,
    [partnerId, status ?? null],
  );
  return result.rows.map(toView);
}

/** New rules apply from the next change on; a new endpoint gets the events written from now on. */
export async function updateFollow(
  db: Queryable,
  partnerId: string,
  id: string,
  patch: { endpoint_id?: string | null; rules?: FollowRules },
): Promise<FollowView> {
  if (patch.endpoint_id) await requireOwnEndpoint(db, partnerId, patch.endpoint_id);
  const result = await db.query(
    `UPDATE follows SET rules = COALESCE($3::jsonb, rules),
       endpoint_id = CASE WHEN $4 THEN $5 ELSE endpoint_id END
     WHERE id = $1 AND partner_id = $2`,
    [
      id,
      partnerId,
      patch.rules === undefined ? null : JSON.stringify(patch.rules),
      patch.endpoint_id !== undefined,
      patch.endpoint_id ?? null,
    ],
  );
  if (result.rowCount === 0) throw notFound();
  return getFollowIn(db, partnerId, id);
}

/** The partner stops following (idempotent). No event: the partner asked for it. */
export async function deleteFollow(db: Database, now: Date, partnerId: string, id: string): Promise<FollowView> {
  return db.transaction(async (tx) => {
    const result = await tx.query(
      `SELECT ${FOLLOW_COLUMNS}, f.status FROM follows f WHERE f.id = $1 AND f.partner_id = $2 FOR UPDATE`,
      [id, partnerId],
    );
    const row = result.rows[0];
    if (row === undefined) throw notFound();
    if (z.object({ status: z.string() }).parse(row).status === 'active') {
      await endFollowQuietly(tx, parseActiveFollow(row), 'unfollowed', now);
    }
    return getFollowIn(tx, partnerId, id);
  });
}

const eventRow = z.object({
  payload: followEventSchema,
  digest: z.enum(['daily', 'weekly']).nullable(),
  message_id: z.string().nullable(),
  seq: z.coerce.number(),
});

/** A partner's events, oldest first, after the `after` cursor (the previous page's `next_cursor`), each with its delivery. */
export async function listEvents(
  db: Queryable,
  partnerId: string,
  options: { followId?: string; after?: number; limit: number },
): Promise<{ events: PartnerEventView[]; next_cursor: string | null }> {
  const result = await db.query(
    `SELECT e.payload, e.digest, e.message_id, e.seq FROM follow_events e
     WHERE e.partner_id = $1 AND ($2::text IS NULL OR e.follow_id = $2) AND e.seq > $3
     ORDER BY e.seq LIMIT $4`,
    [partnerId, options.followId ?? null, options.after ?? 0, options.limit],
  );
  const rows = result.rows.map((raw) => eventRow.parse(raw));
  const states = await deliveryStates(
    db,
    rows.flatMap((row) => (row.message_id === null ? [] : [row.message_id])),
  );
  const events = rows.map((row): PartnerEventView => {
    const state = row.message_id === null ? undefined : states.get(row.message_id);
    return {
      ...row.payload,
      delivery: {
        mode: row.digest ?? (row.message_id === null ? 'none' : 'immediate'),
        message_id: row.message_id,
        status: state?.status ?? (row.digest !== null ? 'held' : 'none'),
        attempts: state?.attempts ?? 0,
        last_attempt: state?.last_attempt ?? null,
        next_attempt_at: state?.next_attempt_at ?? null,
      },
    };
  });
  const last = rows.at(-1);
  return { events, next_cursor: rows.length === options.limit && last ? String(last.seq) : null };
}

const founderFollowRow = z.object({
  id: z.string(),
  share_link_id: z.string(),
  label: z.string().nullable(),
  partner_name: z.string(),
  status: z.enum(['active', 'ended']),
  ended_reason: z.enum(FOLLOW_END_REASONS).nullable(),
  event_seq: z.number(),
  created_at: z.date(),
  ended_at: z.date().nullable(),
});

/** Who follows this organisation's links, by partner name (the founder API). */
export async function listFollowersOfOrganisation(db: Queryable, orgId: string): Promise<FounderFollowView[]> {
  const result = await db.query(
    `SELECT f.id, f.share_link_id, l.label, p.name AS partner_name, f.status, f.ended_reason, f.event_seq, f.created_at, f.ended_at
     FROM follows f JOIN share_links l ON l.id = f.share_link_id JOIN partners p ON p.id = f.partner_id
     WHERE l.org_id = $1 ORDER BY f.created_at, f.id`,
    [orgId],
  );
  return result.rows.map((raw) => {
    const row = founderFollowRow.parse(raw);
    return {
      id: row.id,
      share_link_id: row.share_link_id,
      share_link_label: row.label,
      partner: { name: row.partner_name },
      status: row.status,
      ended_reason: row.ended_reason,
      events_sent: row.event_seq,
      created_at: row.created_at.toISOString(),
      ended_at: row.ended_at?.toISOString() ?? null,
    };
  });
}
