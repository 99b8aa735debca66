/**
 * The wire contract of signed snapshot answers (issue #36, docs/api.md "Signed snapshots"): the server
 * signs with these values (server/signing/signer.ts) and the verifier checks them, so each is written
 * once, here.
 */

/** The label of the RFC 9421 signature in `Signature-Input` and `Signature`. */
export const SIGNATURE_LABEL = 'snapshot';
/** Its `tag` parameter: what kind of statement the signature makes. */
export const SIGNATURE_TAG = 'compliance-snapshot';
/** Its `alg` parameter (RFC 9421 section 3.3.6). */
export const SIGNATURE_ALG = 'ed25519';
/**
 * The components every snapshot signature covers, in this order. More may be added later; these
 * three stay, and a verifier requires them.
 */
export const SIGNED_COMPONENTS = ['@status', 'content-type', 'content-digest'] as const;
/**
 * The digest (same form as `Content-Digest`) of the body with its share token replaced by `{token}`
 * (token-free.ts). The server covers it after the three above; a verifiable copy keeps that body, so
 * a copy can be checked without holding the token.
 */
export const TOKEN_FREE_DIGEST = 'token-free-digest';
/** What the server covers: the contract's three, then the token-free digest. */
export const SERVER_SIGNED_COMPONENTS = [...SIGNED_COMPONENTS, TOKEN_FREE_DIGEST] as const;
/** The signature parameters the server sets, in this order. */
export const SIGNATURE_PARAMS = ['created', 'keyid', 'alg', 'tag'] as const;
/** The `Content-Digest` algorithm (RFC 9530) the server uses and the verifier requires. */
export const DIGEST_ALG = 'sha-256';
/** Where a service publishes its JWK Set of snapshot signing keys. */
export const JWKS_PATH = '/.well-known/jwks.json';

/** Why an answer's signature fails (the verifier's verdict; the background's too, in lib/core/schemas/results.ts). */
export const INVALID_REASONS = [
  /** Signature-Input without Signature, or the reverse. */
  'incomplete',
  /** A signature field, Content-Digest or a signature parameter is not what the RFCs allow. */
  'malformed',
  /** There are signatures, but none labelled `snapshot`. */
  'wrong-label',
  'wrong-alg',
  'wrong-tag',
  /** A component the snapshot signature must cover is not covered, or a covered header is absent. */
  'missing-component',
  /** A covered component this verifier does not derive (it refuses rather than guesses). */
  'unsupported-component',
  /** Content-Digest (or, for a copy, the token-free digest) does not match the body bytes. */
  'digest-mismatch',
  /** The signature's `keyid` is not in the key set. */
  'unknown-kid',
  /** The key's `kid` is not its RFC 7638 thumbprint, or its `x` is not an Ed25519 public key. */
  'bad-key',
  /** `created` is outside the dates the key signed between (`signed_from`, `signed_until`). */
  'outside-key-dates',
  /** The Ed25519 signature does not match the status, headers and parameters received. */
  'bad-signature',
] as const;
export type InvalidReason = (typeof INVALID_REASONS)[number];
