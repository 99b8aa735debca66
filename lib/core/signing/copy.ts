/**
 * The verifiable copy (issue #36): a signed snapshot answer kept as a `.json` file that anyone can
 * check offline. It holds what the signature covers and nothing of the share token: the service's
 * origin (not the URL, whose path is the token), the status, the signed header values, the body with
 * its token replaced by `{token}` (token-free.ts; the signature covers that form's digest) and the key
 * that verified it. Its schema is `verifiableCopySchema`
 * (lib/core/schemas/signing.ts); these functions are zod-free.
 */
import { arrayBufferToBase64, base64ToArrayBuffer } from 'structured-headers';
import { headerLookup, type SignedResponse } from './message';
import {
  ownBytes,
  verifySignedResponse,
  type SigningJwk,
  type PublishedSigningJwk,
  type InvalidReason,
  type SigningJwks,
  type Verdict,
} from './verify';
import { tokenFreeBody } from './token-free';
import { TOKEN_FREE_DIGEST } from './wire';

export const COPY_FORMAT = 'compliance-lens/verifiable-copy';
export const COPY_VERSION = 1;
/** The header values every copy holds: those the signature covers besides the status, and the signature itself. */
export const COPY_HEADERS = ['content-type', 'content-digest', TOKEN_FREE_DIGEST, 'signature-input', 'signature'] as const;

export type CopyHeaders = Record<(typeof COPY_HEADERS)[number], string> & Record<string, string>;

export interface VerifiableCopy<K extends SigningJwk = SigningJwk> {
  format: typeof COPY_FORMAT;
  version: typeof COPY_VERSION;
  /** The service's origin (`https://host[:port]`): never the URL, whose path holds the share token. */
  origin: string;
  /** When the copy was made (ISO 8601, UTC). */
  saved_at: string;
  status: number;
  /**
   * The four of COPY_HEADERS, and any further header the signature covers (a later server may cover
   * more; only covered headers are kept).
   */
  headers: CopyHeaders;
  /** The body's exact bytes with its share token replaced by `{token}`, base64 (RFC 4648 section 4). */
  body_base64: string;
  /** The key that verified the answer when it was saved, as its service published it. */
  key: K;
}

/** A copy less the time it is saved (set when a reader saves it): what the extension keeps and passes around. */
export type SavableCopy<K extends SigningJwk = PublishedSigningJwk> = Omit<VerifiableCopy<K>, 'saved_at'>;

type Verified<K extends SigningJwk> = Extract<Verdict<K>, { state: 'verified' }>;

/** The origin of `url`, refused when it has none (`data:`, `file:`…). */
export function serviceOrigin(url: string): string {
  const origin = new URL(url).origin;
  if (origin === 'null' || !/^https?:\/\//.test(origin)) throw new Error(`${url} has no http(s) origin`);
  return origin;
}

/**
 * The copy of `response`, which `verdict` (verifySignedResponse's, for this very response) verified,
 * fetched for share token `token`. `serviceUrl` may be the snapshot URL: only its origin is kept.
 * Throws for an answer whose signature does not cover the token-free digest: its copy would have to
 * hold the token.
 */
export function buildVerifiableCopy<K extends SigningJwk>(
  response: SignedResponse,
  verdict: Verified<K>,
  options: { serviceUrl: string; savedAt: Date; token: string },
): VerifiableCopy<K> {
  if (!verdict.components.includes(TOKEN_FREE_DIGEST)) {
    throw new Error(`the signature does not cover ${TOKEN_FREE_DIGEST}: a copy would have to hold the share token`);
  }
  const names = [...COPY_HEADERS, ...verdict.components.filter((name) => !name.startsWith('@'))];
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = response.headers.get(name);
    if (value === null) throw new Error(`the response has no ${name}: it is not the one verified`);
    headers[name] = value;
  }
  return {
    format: COPY_FORMAT,
    version: COPY_VERSION,
    origin: serviceOrigin(options.serviceUrl),
    saved_at: options.savedAt.toISOString(),
    status: response.status,
    headers: headers as CopyHeaders,
    body_base64: arrayBufferToBase64(ownBytes(tokenFreeBody(response.body, options.token))),
    key: verdict.key,
  };
}

/** `compliance-snapshot-kobo-vault-custody-ltd-2026-11-28.json`: the company as far as a file name can say it, and the day saved (UTC). */
export function copyFileName(company: string, savedAt: Date): string {
  const slug = company
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return `compliance-snapshot-${slug || 'copy'}-${savedAt.toISOString().slice(0, 10)}.json`;
}

/** Which check a copy's verdict comes from: the service's key set (who signed), or the key inside the file (unchanged since saved). */
export type CopyCheck = 'key-set' | 'copy-key';

export interface CopyVerdict<K extends SigningJwk> {
  check: CopyCheck;
  verdict: Verdict<K>;
}

/** The response a copy holds, or why it holds none. */
export function responseOf(copy: VerifiableCopy): SignedResponse | string {
  let body: Uint8Array;
  try {
    body = new Uint8Array(base64ToArrayBuffer(copy.body_base64));
  } catch {
    return 'the body is not base64';
  }
  return { status: copy.status, headers: headerLookup(copy.headers), body };
}

/**
 * Verifies a copy against the service's key set `jwks` (which proves who signed it), or, without one,
 * against only the key inside the file (which proves the copy is unchanged since it was saved with
 * that key, not who holds the key). With a key set, the file's key must be the one that verified.
 */
export async function verifyCopy<K extends SigningJwk>(copy: VerifiableCopy<K>, jwks?: SigningJwks<K>): Promise<CopyVerdict<K>> {
  const check: CopyCheck = jwks ? 'key-set' : 'copy-key';
  const fail = (reason: InvalidReason, message: string): CopyVerdict<K> => ({
    check,
    verdict: { state: 'invalid', reason, message },
  });
  const response = responseOf(copy);
  if (typeof response === 'string') return fail('malformed', response);
  const verdict = await verifySignedResponse(response, jwks ?? { keys: [copy.key] }, TOKEN_FREE_DIGEST);
  if (verdict.state !== 'verified') {
    if (!jwks && verdict.state === 'invalid' && verdict.reason === 'unknown-kid') {
      return fail('unknown-kid', `the signature names a key other than the one inside the file (${copy.key.kid})`);
    }
    return { check, verdict };
  }
  if (verdict.key.kid !== copy.key.kid || verdict.key.x !== copy.key.x) {
    return fail('bad-key', `the key inside the file (${copy.key.kid}) is not the one that signed (${verdict.key.kid})`);
  }
  // Nothing but what the signature covers belongs in a copy.
  const covered = new Set<string>([...COPY_HEADERS, ...verdict.components]);
  const extra = Object.keys(copy.headers).filter((name) => !covered.has(name));
  if (extra.length > 0) return fail('malformed', `the copy holds headers the signature does not cover: ${extra.join(', ')}`);
  return { check, verdict };
}
