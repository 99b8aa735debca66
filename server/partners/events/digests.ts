/**
 * Digests: a follow whose rules ask for one keeps its events (`follow_events.digest`) until the day or
 * week they fall in has ended on the server's clock (days start at 00:00 UTC, weeks on Monday), then
 * one message per endpoint and period carries them all. Packed under SKIP LOCKED, so two instances
 * never put one event in two digests.
 */
import { z } from 'zod';
import type { Database } from '../../platform/db/driver';
import { followEventSchema, type DigestPeriod } from '../schemas';
import { newId } from '../../platform/tokens';
import { enqueueMessages } from '../../webhooks/outbox';

const DAY_MS = 24 * 3600_000;

/** Start of the period holding `at` (UTC). */
export function periodStart(period: DigestPeriod, at: Date): Date {
  const day = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  if (period === 'daily') return new Date(day);
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
  return new Date(day - weekday * DAY_MS);
}

const heldRow = z.object({
  id: z.string(),
  partner_id: z.string(),
  digest: z.enum(['daily', 'weekly']),
  payload: followEventSchema,
  created_at: z.date(),
  endpoint_id: z.string(),
});

/** Packs every held event whose period has ended; returns the number of digest messages queued. */
export async function packDigests(db: Database, now: Date, limit = 1000): Promise<number> {
  return db.transaction(async (tx) => {
    const result = await tx.query(
      `SELECT e.id, e.partner_id, e.digest, e.payload, e.created_at, COALESCE(f.endpoint_id, d.id) AS endpoint_id
       FROM follow_events e JOIN follows f ON f.id = e.follow_id
       LEFT JOIN LATERAL (SELECT w.id FROM webhook_endpoints w WHERE w.partner_id = e.partner_id AND w.status = 'enabled'
         ORDER BY w.created_at DESC, w.id DESC LIMIT 1) d ON true
       WHERE e.digest IS NOT NULL AND e.message_id IS NULL AND COALESCE(f.endpoint_id, d.id) IS NOT NULL
         AND ((e.digest = 'daily' AND e.created_at < $1::timestamptz) OR (e.digest = 'weekly' AND e.created_at < $2::timestamptz))
       ORDER BY e.seq LIMIT $3 FOR UPDATE OF e SKIP LOCKED`,
      [periodStart('daily', now).toISOString(), periodStart('weekly', now).toISOString(), limit],
    );
    const groups = new Map<string, z.infer<typeof heldRow>[]>();
    for (const raw of result.rows) {
      const row = heldRow.parse(raw);
      const key = `${row.endpoint_id} ${row.digest}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    for (const rows of groups.values()) {
      const first = rows[0];
      if (first === undefined) continue;
      const period = first.digest;
      const id = newId('dig');
      const companies = new Set(rows.map((row) => row.payload.data.company.name));
      const body = {
        type: `digest.${period}`,
        timestamp: now.toISOString(),
        data: {
          digest_id: id,
          period,
          period_start: periodStart(period, first.created_at).toISOString(),
          period_end: periodStart(period, now).toISOString(),
          summary: `${rows.length} ${rows.length === 1 ? 'change' : 'changes'} to ${companies.size} ${companies.size === 1 ? 'company' : 'companies'} (${period} digest)`,
          events: rows.map((row) => row.payload),
        },
      };
      await enqueueMessages(
        tx,
        [{ id, partner_id: first.partner_id, endpoint_id: first.endpoint_id, type: body.type, body: JSON.stringify(body) }],
        now,
      );
      await tx.query('UPDATE follow_events SET message_id = $1 WHERE id IN (SELECT jsonb_array_elements_text($2::jsonb))', [
        id,
        JSON.stringify(rows.map((row) => row.id)),
      ]);
    }
    return groups.size;
  });
}
