/**
 * Signed answers for the verifier's tests, made the way the server makes them but not with its code:
 * `http-message-signatures` builds the signature base and headers, node:crypto signs, jose names the
 * key. So the verifier's hand-built base is held to the library's.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { httpbis } from 'http-message-signatures';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import type { PublishedJwk } from '@/lib/core/schemas/signing';
import type { SignedResponse } from '@/lib/core/signing/message';
import {
  SERVER_SIGNED_COMPONENTS,
  SIGNATURE_ALG,
  SIGNATURE_LABEL,
  SIGNATURE_PARAMS,
  SIGNATURE_TAG,
} from '@/lib/core/signing/wire';

export interface TestKey {
  privateKey: KeyObject;
  jwk: PublishedJwk;
}

export async function testKey(signedFrom = 1_700_000_000): Promise<TestKey> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const x = (await exportJWK(publicKey)).x ?? '';
  const kid = await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x }, 'sha256');
  return { privateKey, jwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig', signed_from: signedFrom } };
}

export const contentDigestOf = (bytes: Uint8Array | string) => `sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`;

/** The share token the test answers were fetched for (and that a test body may name). */
export const TEST_TOKEN = 'Tk9UX0FfUkVBTF9UT0tFTl9CVVRfTE9OR19FTk9VR0g';

/** The body with `token` replaced by `{token}`, done independently of lib/core/signing/token-free.ts (latin1 keeps every byte). */
export const withoutToken = (body: Uint8Array, token: string): Buffer =>
  Buffer.from(Buffer.from(body).toString('latin1').replaceAll(token, '{token}'), 'latin1');

export interface SignOptions {
  status?: number;
  body?: string | Uint8Array;
  contentType?: string;
  /** Unix seconds. */
  created?: number;
  label?: string;
  tag?: string;
  alg?: string;
  fields?: string[];
  /** Further headers of the answer (signed when named in `fields`). */
  headers?: Record<string, string>;
  /** The token the answer was fetched for: its token-free digest replaces it (default TEST_TOKEN). */
  token?: string;
}

export const CREATED = 1_782_000_000;

/** A signed answer as a reader keeps it: status, headers and body bytes. */
export async function signedAnswer(key: TestKey, options: SignOptions = {}): Promise<SignedResponse & { headers: Headers }> {
  const body =
    typeof options.body === 'string' || options.body === undefined
      ? new TextEncoder().encode(options.body ?? '{"company":{"name":"Kobo"}}')
      : options.body;
  const status = options.status ?? 200;
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? 'application/json; charset=UTF-8',
    'content-digest': contentDigestOf(body),
    'token-free-digest': contentDigestOf(withoutToken(body, options.token ?? TEST_TOKEN)),
    ...options.headers,
  };
  const signed = await httpbis.signMessage(
    {
      key: {
        id: key.jwk.kid,
        alg: options.alg ?? SIGNATURE_ALG,
        sign: (data) => Promise.resolve(sign(null, data, key.privateKey)),
      },
      name: options.label ?? SIGNATURE_LABEL,
      fields: options.fields ?? [...SERVER_SIGNED_COMPONENTS],
      params: [...SIGNATURE_PARAMS],
      paramValues: { created: new Date((options.created ?? CREATED) * 1000), tag: options.tag ?? SIGNATURE_TAG },
    },
    { status, headers },
  );
  const all = new Headers(headers);
  for (const name of ['Signature-Input', 'Signature']) all.set(name, String(signed.headers[name]));
  return { status, headers: all, body };
}

/** `answer` with one header set (or removed, with null). */
export function withHeader<T extends SignedResponse & { headers: Headers }>(answer: T, name: string, value: string | null): T {
  const headers = new Headers(answer.headers);
  if (value === null) headers.delete(name);
  else headers.set(name, value);
  return { ...answer, headers };
}
