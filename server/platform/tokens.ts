import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** 32 random bytes, base64url (43 chars): the share token, shown once at creation. */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Founder API key; only its hash is stored. */
export function newFounderKey(): string {
  return `fk_${randomBytes(32).toString('base64url')}`;
}

/** Partner API key (`Authorization: Bearer pk_…`); only its hash is stored. */
export function newPartnerKey(): string {
  return `pk_${randomBytes(32).toString('base64url')}`;
}

/** A webhook endpoint's signing secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Secrets are stored only as SHA-256 (hex); lookups go by hash. High-entropy input, so no salt needed. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export type IdPrefix = 'org' | 'pack' | 'link' | 'ptn' | 'we' | 'fol' | 'evt' | 'dig' | 'chg';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomUUID()}`;
}
