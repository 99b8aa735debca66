import { z } from 'zod';

/**
 * Signed snapshots (issue #36): the JWK Set a service publishes at `/.well-known/jwks.json`
 * (server/signing/signer.ts serves it).
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
});
export const jwksSchema = z.object({ keys: z.array(publishedJwkSchema) });
export type PublishedJwk = z.infer<typeof publishedJwkSchema>;
export type Jwks = z.infer<typeof jwksSchema>;
