/**
 * What a partner can see of its messages' delivery, as Svix and Stripe show it: each attempt with its
 * time, the receiver's status or the error, and how long it took, so a late event explains itself.
 */
import { z } from 'zod';
import type { Queryable } from '../platform/db/driver';
import { ApiError } from '../platform/http/errors';
import { MESSAGE_STATUSES, type AttemptView, type DeliveryState, type MessageView } from './schemas';

export const MESSAGE_NOT_FOUND_MESSAGE = 'No webhook message with this id.';

const attemptRow = z.object({
  attempted_at: z.date(),
  status: z.number().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number(),
  delivered: z.boolean(),
});

const toAttempt = (row: z.infer<typeof attemptRow>): AttemptView => ({ ...row, attempted_at: row.attempted_at.toISOString() });

const messageRow = z.object({
  id: z.string(),
  type: z.string(),
  endpoint_id: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  created_at: z.date(),
  next_attempt_at: z.date(),
  delivered_at: z.date().nullable(),
});

/** One of this partner's messages by its `webhook-id`, with every attempt (404 for another partner's). */
export async function getMessage(db: Queryable, partnerId: string, id: string): Promise<MessageView> {
  const found = await db.query(
    'SELECT id, type, endpoint_id, status, created_at, next_attempt_at, delivered_at FROM webhook_messages WHERE id = $1 AND partner_id = $2',
    [id, partnerId],
  );
  if (found.rows[0] === undefined) throw new ApiError(404, 'NOT_FOUND', MESSAGE_NOT_FOUND_MESSAGE);
  const message = messageRow.parse(found.rows[0]);
  const attempts = await db.query(
    'SELECT attempted_at, status, error, duration_ms, delivered FROM webhook_attempts WHERE message_id = $1 ORDER BY id',
    [id],
  );
  return {
    id: message.id,
    type: message.type,
    endpoint_id: message.endpoint_id,
    status: message.status,
    created_at: message.created_at.toISOString(),
    next_attempt_at: message.status === 'pending' ? message.next_attempt_at.toISOString() : null,
    delivered_at: message.delivered_at?.toISOString() ?? null,
    attempts: attempts.rows.map((row) => toAttempt(attemptRow.parse(row))),
  };
}

const stateRow = z.object({
  id: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  next_attempt_at: z.date(),
  attempt_count: z.number(),
  attempted_at: z.date().nullable(),
  attempt_status: z.number().nullable(),
  attempt_error: z.string().nullable(),
  duration_ms: z.number().nullable(),
  delivered: z.boolean().nullable(),
});

/** The delivery state of each of these messages (those that exist), for a list of events. */
export async function deliveryStates(db: Queryable, ids: readonly string[]): Promise<Map<string, DeliveryState>> {
  const states = new Map<string, DeliveryState>();
  if (ids.length === 0) return states;
  const result = await db.query(
    `SELECT m.id, m.status, m.next_attempt_at, COALESCE(a.n, 0)::int AS attempt_count, l.attempted_at, l.status AS attempt_status,
       l.error AS attempt_error, l.duration_ms, l.delivered
     FROM webhook_messages m
     LEFT JOIN LATERAL (SELECT count(*)::int AS n FROM webhook_attempts x WHERE x.message_id = m.id) a ON true
     LEFT JOIN LATERAL (SELECT * FROM webhook_attempts x WHERE x.message_id = m.id ORDER BY x.id DESC LIMIT 1) l ON true
     WHERE m.id IN (SELECT jsonb_array_elements_text($1::jsonb))`,
    [JSON.stringify(ids)],
  );
  for (const raw of result.rows) {
    const row = stateRow.parse(raw);
    const last =
      row.attempted_at === null || row.duration_ms === null || row.delivered === null
        ? null
        : toAttempt({
            attempted_at: row.attempted_at,
            status: row.attempt_status,
            error: row.attempt_error,
            duration_ms: row.duration_ms,
            delivered: row.delivered,
          });
    states.set(row.id, {
      status: row.status,
      attempts: row.attempt_count,
      last_attempt: last,
      next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    });
  }
  return states;
}
