/**
 * A partner's webhook endpoints: where its events are delivered, each with its own signing secret
 * (Standard Webhooks `whsec_…`, shown once). The secret signs every delivery, so it is stored as
 * written, unlike keys and tokens (docs/security.md section 6).
 */
import { z } from 'zod';
import type { Database, Queryable } from '../platform/db/driver';
import { ApiError } from '../platform/http/errors';
import { newId, newWebhookSecret } from '../platform/tokens';
import type { EndpointView } from './schemas';

const endpointRow = z.object({
  id: z.string(),
  url: z.string(),
  status: z.enum(['enabled', 'disabled']),
  disabled_reason: z.string().nullable(),
  disabled_at: z.date().nullable(),
  failure_streak: z.number(),
  failing_since: z.date().nullable(),
  last_success_at: z.date().nullable(),
  last_failure_at: z.date().nullable(),
  last_error: z.string().nullable(),
  created_at: z.date(),
  pending: z.coerce.number(),
  delivered: z.coerce.number(),
  failed: z.coerce.number(),
});

const ENDPOINT_SELECT = `SELECT e.id, e.url, e.status, e.disabled_reason, e.disabled_at, e.failure_streak, e.failing_since,
  e.last_success_at, e.last_failure_at, e.last_error, e.created_at,
  (SELECT count(*) FROM webhook_messages m WHERE m.endpoint_id = e.id AND m.status = 'pending') AS pending,
  (SELECT count(*) FROM webhook_messages m WHERE m.endpoint_id = e.id AND m.status = 'delivered') AS delivered,
  (SELECT count(*) FROM webhook_messages m WHERE m.endpoint_id = e.id AND m.status IN ('failed', 'cancelled')) AS failed
  FROM webhook_endpoints e`;

const iso = (date: Date | null) => date?.toISOString() ?? null;

function toView(raw: unknown): EndpointView {
  const row = endpointRow.parse(raw);
  return {
    id: row.id,
    url: row.url,
    status: row.status,
    disabled_reason: row.disabled_reason,
    disabled_at: iso(row.disabled_at),
    failure_streak: row.failure_streak,
    failing_since: iso(row.failing_since),
    last_success_at: iso(row.last_success_at),
    last_failure_at: iso(row.last_failure_at),
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    messages: { pending: row.pending, delivered: row.delivered, failed: row.failed },
  };
}

export const ENDPOINT_NOT_FOUND_MESSAGE = 'No webhook endpoint with this id.';
const notFound = () => new ApiError(404, 'NOT_FOUND', ENDPOINT_NOT_FOUND_MESSAGE);
export const MAX_ENDPOINTS_PER_PARTNER = 20;

export async function createEndpoint(
  db: Queryable,
  now: Date,
  partnerId: string,
  url: string,
  options: { secret?: string } = {},
): Promise<EndpointView & { secret: string }> {
  const count = await db.query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE partner_id = $1', [partnerId]);
  if (z.object({ n: z.number() }).parse(count.rows[0]).n >= MAX_ENDPOINTS_PER_PARTNER) {
    throw new ApiError(409, 'CONFLICT', `A partner may have at most ${MAX_ENDPOINTS_PER_PARTNER} webhook endpoints.`);
  }
  const id = newId('we');
  const secret = options.secret ?? newWebhookSecret();
  await db.query(
    `INSERT INTO webhook_endpoints (id, partner_id, url, secret, status, created_at)
     VALUES ($1, $2, $3, $4, 'enabled', $5::timestamptz)`,
    [id, partnerId, url, secret, now.toISOString()],
  );
  return { ...(await getEndpoint(db, partnerId, id)), secret };
}

export async function getEndpoint(db: Queryable, partnerId: string, id: string): Promise<EndpointView> {
  const result = await db.query(`${ENDPOINT_SELECT} WHERE e.id = $1 AND e.partner_id = $2`, [id, partnerId]);
  const row = result.rows[0];
  if (row === undefined) throw notFound();
  return toView(row);
}

export async function listEndpoints(db: Queryable, partnerId: string): Promise<EndpointView[]> {
  const result = await db.query(`${ENDPOINT_SELECT} WHERE e.partner_id = $1 ORDER BY e.created_at, e.id`, [partnerId]);
  return result.rows.map(toView);
}

/** Deleting an endpoint drops its undelivered messages; its follows keep their events for `GET /api/v1/events`. */
export async function deleteEndpoint(db: Queryable, partnerId: string, id: string): Promise<void> {
  const result = await db.query('DELETE FROM webhook_endpoints WHERE id = $1 AND partner_id = $2', [id, partnerId]);
  if (result.rowCount === 0) throw notFound();
}

/** Turns a disabled endpoint back on: its failure streak starts again, pending messages go out. */
export async function enableEndpoint(db: Queryable, partnerId: string, id: string): Promise<EndpointView> {
  const result = await db.query(
    `UPDATE webhook_endpoints SET status = 'enabled', disabled_at = NULL, disabled_reason = NULL, failure_streak = 0,
       failing_since = NULL WHERE id = $1 AND partner_id = $2`,
    [id, partnerId],
  );
  if (result.rowCount === 0) throw notFound();
  return getEndpoint(db, partnerId, id);
}

/**
 * Queues messages of this endpoint again, with their own ids (a receiver that has one already drops
 * it), and enables the endpoint: what a partner does once its receiver works again.
 */
export async function replayEndpoint(
  db: Database,
  now: Date,
  partnerId: string,
  id: string,
  options: { since?: string; status?: 'failed' | 'all' },
): Promise<{ endpoint: EndpointView; replayed: number }> {
  return db.transaction(async (tx) => {
    await enableEndpoint(tx, partnerId, id);
    const statuses = options.status === 'all' ? ['failed', 'cancelled', 'delivered'] : ['failed', 'cancelled'];
    const result = await tx.query(
      `UPDATE webhook_messages SET status = 'pending', attempts = 0, next_attempt_at = $3::timestamptz,
         lease_token = NULL, lease_expires_at = NULL
       WHERE endpoint_id = $1 AND partner_id = $2 AND status IN (SELECT jsonb_array_elements_text($4::jsonb))
         AND created_at >= $5::timestamptz`,
      [id, partnerId, now.toISOString(), JSON.stringify(statuses), options.since ?? new Date(0).toISOString()],
    );
    // Pending messages waiting out a back-off go now too.
    await tx.query(
      `UPDATE webhook_messages SET next_attempt_at = $3::timestamptz
       WHERE endpoint_id = $1 AND partner_id = $2 AND status = 'pending' AND next_attempt_at > $3::timestamptz`,
      [id, partnerId, now.toISOString()],
    );
    return { endpoint: await getEndpoint(tx, partnerId, id), replayed: result.rowCount };
  });
}

/** The endpoint a new follow uses when it names none: the partner's newest enabled one, if any. */
export async function defaultEndpointId(db: Queryable, partnerId: string): Promise<string | null> {
  const result = await db.query(
    `SELECT id FROM webhook_endpoints WHERE partner_id = $1 AND status = 'enabled' ORDER BY created_at DESC, id DESC LIMIT 1`,
    [partnerId],
  );
  const row = result.rows[0];
  return row === undefined ? null : z.object({ id: z.string() }).parse(row).id;
}

/** 404 unless the endpoint is this partner's. */
export async function requireOwnEndpoint(db: Queryable, partnerId: string, id: string): Promise<void> {
  const result = await db.query('SELECT 1 FROM webhook_endpoints WHERE id = $1 AND partner_id = $2', [id, partnerId]);
  if (result.rows.length === 0) throw notFound();
}
