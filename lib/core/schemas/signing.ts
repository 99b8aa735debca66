import { z } from 'zod';
import { COPY_FORMAT, COPY_HEADERS, COPY_VERSION, serviceOrigin, type VerifiableCopy } from '../signing/copy';
import type { PublishedSigningJwk, SigningJwk } from '../signing/verify';
import { timestampSchema } from './snapshot';

/**
 * Signed snapshots (issue #36): the JWK Set a service publishes at `/.well-known/jwks.json`
 * (server/signing/signer.ts serves it) and the verifiable copy file (lib/core/signing/copy.ts).
 */

/** A published key: `signed_from` is the first `created` it signed with; `signed_until`, retired keys only, the next key's `signed_from` (unix seconds). */
export const publishedJwkSchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string(),
  kid: z.string(),
  alg: z.literal('EdDSA'),
  use: z.literal('sig'),
  signed_from: z.int(),
  signed_until: z.int().optional(),
}) satisfies z.ZodType<PublishedSigningJwk>;
export const jwksSchema = z.object({ keys: z.array(publishedJwkSchema) });
export type PublishedJwk = z.infer<typeof publishedJwkSchema>;
export type Jwks = z.infer<typeof jwksSchema>;

const isOrigin = (value: string) => {
  try {
    return serviceOrigin(value) === value;
  } catch {
    return false;
  }
};

/**
 * A verifiable copy as read from a file. Strict: a field the format does not name (a URL, a token) is
 * refused, not carried along.
 */
export const verifiableCopySchema = z.strictObject({
  format: z.literal(COPY_FORMAT),
  version: z.literal(COPY_VERSION),
  origin: z.string().refine(isOrigin, 'an origin: http(s)://host[:port], no path'),
  saved_at: timestampSchema,
  status: z.int().min(100).max(599),
  headers: z
    .object(
      Object.fromEntries(COPY_HEADERS.map((name) => [name, z.string()])) as Record<(typeof COPY_HEADERS)[number], z.ZodString>,
    )
    .catchall(z.string()),
  body_base64: z.base64(),
  key: publishedJwkSchema,
});

// The schema and the zod-free interface of lib/core/signing describe the same thing.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameCopy: Same<z.infer<typeof verifiableCopySchema>, VerifiableCopy<PublishedJwk>> = true;
const keyFits: PublishedJwk extends SigningJwk ? true : false = true;
void sameCopy;
void keyFits;

/** `text` parsed as `schema`, or one line saying what is wrong with it. */
function parseJson<T>(schema: z.ZodType<T>, text: string, what: string): { ok: true; value: T } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: `it is not JSON, so not ${what}` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, message: `it is not ${what}${where}: ${issue?.message ?? 'invalid'}` };
}

export const parseVerifiableCopy = (text: string) => parseJson(verifiableCopySchema, text, 'a verifiable copy');
export const parseJwks = (text: string) => parseJson(jwksSchema, text, 'a JWK Set');
