/**
 * Partner API keys: created, listed, rotated and revoked by the operator (CLI `keys …` or the operator
 * API), presented by partners as `Authorization: Bearer pk_…`. Only SHA-256 hashes are stored.
 */
import { z } from 'zod';
import type { Database, Queryable } from '../platform/db/driver';
import { ApiError } from '../platform/http/errors';
import { newId, newPartnerKey, sha256Hex } from '../platform/tokens';
import type { PartnerIdentity } from '../platform/app-env';
import { cancelPartnerMessages } from '../webhooks/outbox';
import { DEFAULT_PARTNER_QUOTA_PER_MINUTE, type CreatePartnerKeyBody, type PartnerKeyView } from './schemas';

const partnerRow = z.object({
  id: z.string(),
  name: z.string(),
  key_hint: z.string(),
  quota_per_minute: z.number(),
  created_at: z.date(),
  rotated_at: z.date().nullable(),
  revoked_at: z.date().nullable(),
  previous_key_expires_at: z.date().nullable(),
});
type PartnerRow = z.infer<typeof partnerRow>;

const PARTNER_COLUMNS = 'id, name, key_hint, quota_per_minute, created_at, rotated_at, revoked_at, previous_key_expires_at';

/** `pk_AbCdEf…`: enough to tell keys apart, far too little to guess one. */
function keyHint(key: string): string {
  return `${key.slice(0, 9)}…`;
}

function toView(row: PartnerRow, now: Date): PartnerKeyView {
  const graceLeft = row.previous_key_expires_at !== null && row.previous_key_expires_at.getTime() > now.getTime();
  return {
    id: row.id,
    name: row.name,
    key_hint: row.key_hint,
    quota_per_minute: row.quota_per_minute,
    status: row.revoked_at === null ? 'active' : 'revoked',
    created_at: row.created_at.toISOString(),
    rotated_at: row.rotated_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    previous_key_expires_at: graceLeft && row.previous_key_expires_at ? row.previous_key_expires_at.toISOString() : null,
  };
}

export const PARTNER_KEY_NOT_FOUND_MESSAGE = 'No partner key with this id.';
const NOT_FOUND = () => new ApiError(404, 'NOT_FOUND', PARTNER_KEY_NOT_FOUND_MESSAGE);

export async function createPartnerKey(
  db: Queryable,
  now: Date,
  body: CreatePartnerKeyBody,
  options: { isDemo?: boolean; key?: string } = {},
): Promise<PartnerKeyView & { key: string }> {
  const key = options.key ?? newPartnerKey();
  const result = await db.query(
    `INSERT INTO partners (id, name, key_hash, key_hint, quota_per_minute, is_demo, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz) RETURNING ${PARTNER_COLUMNS}`,
    [
      newId('ptn'),
      body.name,
      sha256Hex(key),
      keyHint(key),
      body.quota_per_minute ?? DEFAULT_PARTNER_QUOTA_PER_MINUTE,
      options.isDemo ?? false,
      now.toISOString(),
    ],
  );
  return { ...toView(partnerRow.parse(result.rows[0]), now), key };
}

export async function listPartnerKeys(db: Queryable, now: Date): Promise<PartnerKeyView[]> {
  const result = await db.query(`SELECT ${PARTNER_COLUMNS} FROM partners ORDER BY created_at, id`);
  return result.rows.map((row) => toView(partnerRow.parse(row), now));
}

export async function getPartnerKey(db: Queryable, now: Date, id: string): Promise<PartnerKeyView> {
  const result = await db.query(`SELECT ${PARTNER_COLUMNS} FROM partners WHERE id = $1`, [id]);
  const row = result.rows[0];
  if (row === undefined) throw NOT_FOUND();
  return toView(partnerRow.parse(row), now);
}

export async function updatePartnerKey(
  db: Queryable,
  now: Date,
  id: string,
  patch: { name?: string; quota_per_minute?: number },
): Promise<PartnerKeyView> {
  const result = await db.query(
    `UPDATE partners SET name = COALESCE($2, name), quota_per_minute = COALESCE($3, quota_per_minute)
     WHERE id = $1 RETURNING ${PARTNER_COLUMNS}`,
    [id, patch.name ?? null, patch.quota_per_minute ?? null],
  );
  const row = result.rows[0];
  if (row === undefined) throw NOT_FOUND();
  return toView(partnerRow.parse(row), now);
}

/**
 * A new key for the same partner (its follows, endpoints and quota stay). The old key stops working at
 * once, or after `graceSeconds` so that a partner can deploy the new one first. A revoked key cannot be rotated.
 */
export async function rotatePartnerKey(
  db: Queryable,
  now: Date,
  id: string,
  graceSeconds = 0,
): Promise<PartnerKeyView & { key: string }> {
  const key = newPartnerKey();
  const graceUntil = new Date(now.getTime() + graceSeconds * 1000);
  const result = await db.query(
    `UPDATE partners SET previous_key_hash = CASE WHEN $5 > 0 THEN key_hash END,
       previous_key_expires_at = CASE WHEN $5 > 0 THEN $4::timestamptz END,
       key_hash = $2, key_hint = $3, rotated_at = $6::timestamptz
     WHERE id = $1 AND revoked_at IS NULL RETURNING ${PARTNER_COLUMNS}`,
    [id, sha256Hex(key), keyHint(key), graceUntil.toISOString(), graceSeconds, now.toISOString()],
  );
  const row = result.rows[0];
  if (row === undefined) {
    await getPartnerKey(db, now, id); // 404 when unknown
    throw new ApiError(409, 'CONFLICT', 'This partner key is revoked: create a new one instead.');
  }
  return { ...toView(partnerRow.parse(row), now), key };
}

/**
 * Revokes a key at once (idempotent: the first revocation time stays). The partner's follows end
 * (`key_revoked`, no event: nobody is left to tell) and its undelivered messages are cancelled, so no
 * founder data leaves after revocation.
 */
export async function revokePartnerKey(db: Database, now: Date, id: string): Promise<PartnerKeyView> {
  return db.transaction(async (tx) => {
    const result = await tx.query(
      `UPDATE partners SET revoked_at = COALESCE(revoked_at, $2::timestamptz), previous_key_hash = NULL,
         previous_key_expires_at = NULL
       WHERE id = $1 RETURNING ${PARTNER_COLUMNS}`,
      [id, now.toISOString()],
    );
    const row = result.rows[0];
    if (row === undefined) throw NOT_FOUND();
    await tx.query(
      `UPDATE follows SET status = 'ended', ended_reason = 'key_revoked', ended_at = $2::timestamptz
       WHERE partner_id = $1 AND status = 'active'`,
      [id, now.toISOString()],
    );
    await cancelPartnerMessages(tx, id, 'partner key revoked');
    return toView(partnerRow.parse(row), now);
  });
}

const authRow = z.object({
  id: z.string(),
  name: z.string(),
  quota_per_minute: z.number(),
  revoked_at: z.date().nullable(),
});

export type PartnerAuthentication = { status: 'ok'; partner: PartnerIdentity } | { status: 'unknown' } | { status: 'revoked' };

/** Who holds `key`: its current hash, or its previous one during a rotation's grace period. */
export async function authenticatePartner(db: Queryable, key: string, now: Date): Promise<PartnerAuthentication> {
  const hash = sha256Hex(key);
  const result = await db.query(
    `SELECT id, name, quota_per_minute, revoked_at FROM partners
     WHERE key_hash = $1 OR (previous_key_hash = $1 AND previous_key_expires_at > $2::timestamptz) LIMIT 1`,
    [hash, now.toISOString()],
  );
  const row = result.rows[0];
  if (row === undefined) return { status: 'unknown' };
  const partner = authRow.parse(row);
  if (partner.revoked_at !== null) return { status: 'revoked' };
  return { status: 'ok', partner: { id: partner.id, name: partner.name, quotaPerMinute: partner.quota_per_minute } };
}
