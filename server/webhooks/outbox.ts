/**
 * The outbox (`webhook_messages`): what is to be delivered, written inside the transaction of whatever
 * caused it, so a crash loses nothing and a rollback sends nothing. The dispatcher claims and sends it.
 */
import type { Queryable } from '../platform/db/driver';

export interface NewMessage {
  /** The `webhook-id`: an event's id or a digest's. */
  id: string;
  partner_id: string;
  endpoint_id: string;
  type: string;
  body: string;
}

/** Queues messages, due now, in the order given (their `seq` follows it). */
export async function enqueueMessages(tx: Queryable, messages: readonly NewMessage[], now: Date): Promise<void> {
  if (messages.length === 0) return;
  await tx.query(
    `INSERT INTO webhook_messages (id, partner_id, endpoint_id, type, body, status, next_attempt_at, created_at)
     SELECT r.id, r.partner_id, r.endpoint_id, r.type, r.body, 'pending', $2::timestamptz, $2::timestamptz
     FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(x, ord),
       jsonb_to_record(t.x) AS r(id text, partner_id text, endpoint_id text, type text, body text)
     ORDER BY t.ord`,
    [JSON.stringify(messages), now.toISOString()],
  );
}

/** Nothing more leaves for this partner (its key was revoked): its undelivered messages are cancelled. */
export async function cancelPartnerMessages(tx: Queryable, partnerId: string, reason: string): Promise<void> {
  await tx.query(
    `UPDATE webhook_messages SET status = 'cancelled', lease_token = NULL, last_error = $2
     WHERE partner_id = $1 AND status = 'pending'`,
    [partnerId, reason],
  );
}
