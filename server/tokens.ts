import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** 32 random bytes, base64url (43 chars): the share token, shown once at creation. */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Founder API key; only its hash is stored. */
export function newFounderKey(): string {
  return `fk_${randomBytes(32).toString('base64url')}`;
}

/** Secrets are stored only as SHA-256 (hex); lookups go by hash. High-entropy input, so no salt needed. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function newId(prefix: 'org' | 'pack' | 'link'): string {
  return `${prefix}_${randomUUID()}`;
}
