/**
 * The service's Ed25519 signing keys (issue #36), kept in `signing_keys`: one active key signs every
 * snapshot answer; a retired key stays, so answers it signed still verify against the published set.
 * The private key is stored as PKCS#8 PEM: whoever reads the database can sign as the service, the
 * same trust the database already holds (it decides what a snapshot says).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { z } from 'zod';
import type { Database, Queryable } from '../platform/db/driver';

export interface SigningKey {
  /** RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key. */
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  createdAt: Date;
  retiredAt: Date | null;
}

const keyRow = z.object({
  kid: z.string(),
  private_key: z.string(),
  created_at: z.coerce.date(),
  retired_at: z.coerce.date().nullable(),
});

function fromRow(row: unknown): SigningKey {
  const parsed = keyRow.parse(row);
  const privateKey = createPrivateKey(parsed.private_key);
  return {
    kid: parsed.kid,
    privateKey,
    publicKey: createPublicKey(privateKey),
    createdAt: parsed.created_at,
    retiredAt: parsed.retired_at,
  };
}

export async function publicJwk(publicKey: KeyObject) {
  const jwk = await exportJWK(publicKey);
  return { kty: 'OKP' as const, crv: 'Ed25519' as const, x: z.string().parse(jwk.x) };
}

export async function thumbprint(publicKey: KeyObject): Promise<string> {
  return calculateJwkThumbprint(await publicJwk(publicKey), 'sha256');
}

async function insertNewKey(db: Queryable, now: Date): Promise<void> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // ON CONFLICT: another instance starting at the same time made the active key first; keep theirs.
  await db.query('INSERT INTO signing_keys (kid, private_key, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    await thumbprint(publicKey),
    pem,
    now,
  ]);
}

const SELECT_KEYS = 'SELECT kid, private_key, created_at, retired_at FROM signing_keys';

/** Every key, the active one first, then the retired ones newest first. */
export async function listSigningKeys(db: Queryable): Promise<SigningKey[]> {
  const result = await db.query(`${SELECT_KEYS} ORDER BY retired_at DESC NULLS FIRST, created_at DESC`);
  return result.rows.map(fromRow);
}

/** The active key, made on first use (the first start). */
export async function ensureSigningKeys(db: Queryable, now: Date): Promise<SigningKey[]> {
  const keys = await listSigningKeys(db);
  if (keys[0] && keys[0].retiredAt === null) return keys;
  await insertNewKey(db, now);
  return listSigningKeys(db);
}

/** Retires the active key now and makes a new one; returns every key, the new one first. */
export async function rotateSigningKey(db: Database, now: Date): Promise<SigningKey[]> {
  await db.transaction(async (tx) => {
    // Two rotations at once (two operators, two instances) must not both retire and insert.
    await tx.query('SELECT pg_advisory_xact_lock(727275)');
    await tx.query('UPDATE signing_keys SET retired_at = $1 WHERE retired_at IS NULL', [now]);
    await insertNewKey(tx, now);
  });
  return listSigningKeys(db);
}
