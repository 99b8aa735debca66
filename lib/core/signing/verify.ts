/**
 * Verifies a signed snapshot answer (issue #36) from what a reader kept of it: the status, the header
 * values and the exact body bytes, against a JWK Set. Web Crypto (`Ed25519`, `SHA-256`) and
 * `structured-headers` only, so the same code runs in Node 20+, Chromium and Firefox.
 *
 * The RFC 9421 signature base is built here by hand (`signatureBase` in message.ts, which the server signs too)
 * rather than with `http-message-signatures`: its entry module loads Node's `crypto` and `constants`, and its
 * `verifyMessage` hands the base to the key as a Node `Buffer` (a global browsers and the extension's
 * worker lack), so it does not bundle for a browser without Node shims. For a response whose covered
 * components are `@status` and plain header fields, the base is one line per component and the
 * signature parameters (RFC 9421 section 2.5), which is all the snapshot signature uses; anything else
 * (other derived components, component parameters such as `;sf` or `;req`) is refused, not guessed.
 */
import { arrayBufferToBase64, parseDictionary, type Dictionary, type InnerList, type Item } from 'structured-headers';
import {
  DIGEST_ALG,
  SIGNATURE_ALG,
  SIGNATURE_LABEL,
  SIGNATURE_TAG,
  SIGNED_COMPONENTS,
  type TOKEN_FREE_DIGEST,
  type InvalidReason,
} from './wire';
import { signatureBase, type SignedResponse } from './message';

/**
 * The members of a published key the verifier reads (`lib/core/schemas/signing.ts` has the whole
 * schema). `signed_from` and `signed_until` are unix seconds, like the signature's `created`.
 */
export interface SigningJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  signed_from?: number;
  signed_until?: number;
}

/** A key as a service publishes it in its key set (`publishedJwkSchema` in lib/core/schemas/signing.ts parses one). */
export interface PublishedSigningJwk extends SigningJwk {
  alg: 'EdDSA';
  use: 'sig';
  signed_from: number;
  signed_until?: number;
}

export interface SigningJwks<K extends SigningJwk = SigningJwk> {
  keys: readonly K[];
}

export { INVALID_REASONS, type InvalidReason } from './wire';

export type Verdict<K extends SigningJwk = SigningJwk> =
  | {
      state: 'verified';
      kid: string;
      /** The signature's `created`, unix seconds, and as a date. */
      created: number;
      signedAt: Date;
      /** The key of the set that verified it. */
      key: K;
      /** The covered components, in the order signed (the snapshot's three, perhaps more). */
      components: readonly string[];
    }
  | { state: 'unsigned'; message: string }
  | { state: 'invalid'; reason: InvalidReason; message: string };

const invalid = (reason: InvalidReason, message: string): Verdict<never> => ({ state: 'invalid', reason, message });

const subtle = () => globalThis.crypto.subtle;

/** A copy whose buffer is a plain ArrayBuffer (what Web Crypto's types ask for). */
export const ownBytes = (bytes: Uint8Array): Uint8Array<ArrayBuffer> =>
  bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

const base64url = (bytes: ArrayBuffer) => arrayBufferToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

interface ImportedKey {
  /** RFC 7638 thumbprint of the key, to hold its `kid` to. */
  thumbprint: string;
  /** null: `x` is not an Ed25519 public key. */
  key: CryptoKey | null;
}

/**
 * Imported keys by `x` (the thumbprint depends on it alone): a key is imported and hashed once, so a
 * verification costs one SHA-256 of the body and one Ed25519 verification. Bounded: a key set read
 * from a file could hold any number of keys.
 */
const imported = new Map<string, Promise<ImportedKey>>();
const MAX_IMPORTED_KEYS = 64;

async function importKey(jwk: SigningJwk): Promise<ImportedKey> {
  // RFC 7638: the required members in lexicographic order, no whitespace.
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  const thumbprint = base64url(await subtle().digest('SHA-256', new TextEncoder().encode(canonical)));
  try {
    const key = await subtle().importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
    return { thumbprint, key };
  } catch {
    return { thumbprint, key: null };
  }
}

function cachedKey(jwk: SigningJwk): Promise<ImportedKey> {
  const known = imported.get(jwk.x);
  if (known) return known;
  if (imported.size >= MAX_IMPORTED_KEYS) imported.clear();
  const loading = importKey(jwk);
  imported.set(jwk.x, loading);
  return loading;
}

/** A dictionary field, or a reason why it is not one. */
function dictionary(value: string, name: string): Dictionary | string {
  try {
    return parseDictionary(value);
  } catch {
    return `${name} is not a structured dictionary (RFC 8941)`;
  }
}

interface SignatureInput {
  components: string[];
  input: InnerList;
  created: number;
  keyid: string;
}

/** A header field's name as a covered component: an RFC 9110 token, lower case (RFC 9421 section 2.1). */
const FIELD_NAME = /^[a-z0-9!#$%&'*+\-.^_`|~]+$/;

/** The `snapshot` entry of Signature-Input, checked against the wire contract. */
function readInput(entry: InnerList | Item): SignatureInput | Verdict<never> {
  const [members, params] = entry;
  if (!Array.isArray(members)) return invalid('malformed', `Signature-Input's "${SIGNATURE_LABEL}" is not an inner list`);
  const components: string[] = [];
  for (const [name, componentParams] of members) {
    if (typeof name !== 'string') return invalid('malformed', 'a covered component is not a string');
    if (componentParams.size > 0 || (name !== '@status' && !FIELD_NAME.test(name))) {
      return invalid('unsupported-component', `the covered component ${JSON.stringify(name)} is not one this verifier derives`);
    }
    if (components.includes(name)) return invalid('malformed', `the component "${name}" is covered twice`);
    components.push(name);
  }
  const missing = SIGNED_COMPONENTS.filter((name) => !components.includes(name));
  if (missing.length > 0)
    return invalid('missing-component', `the signature does not cover ${missing.map((m) => `"${m}"`).join(', ')}`);

  const alg = params.get('alg');
  if (alg !== SIGNATURE_ALG)
    return invalid('wrong-alg', `the signature's alg is ${JSON.stringify(alg ?? null)}, not "${SIGNATURE_ALG}"`);
  const tag = params.get('tag');
  if (tag !== SIGNATURE_TAG)
    return invalid('wrong-tag', `the signature's tag is ${JSON.stringify(tag ?? null)}, not "${SIGNATURE_TAG}"`);
  const keyid = params.get('keyid');
  if (typeof keyid !== 'string' || keyid === '') return invalid('malformed', 'the signature has no keyid');
  const created = params.get('created');
  if (typeof created !== 'number' || !Number.isSafeInteger(created) || created < 0) {
    return invalid('malformed', 'the signature has no created time (integer unix seconds)');
  }
  return { components, input: [members, params], created, keyid };
}

/**
 * Which digest field binds the body: `content-digest` for an answer as received; `token-free-digest`
 * for a verifiable copy, whose body has the share token replaced (token-free.ts).
 */
export type BodyDigest = 'content-digest' | typeof TOKEN_FREE_DIGEST;

/** Whether the `field` digest holds the SHA-256 of the body: null when it does, else the verdict saying why not. */
export async function checkDigest(response: SignedResponse, field: BodyDigest): Promise<Verdict<never> | null> {
  const header = response.headers.get(field);
  if (header === null) return invalid('missing-component', `the answer has no ${field}`);
  const parsed = dictionary(header, field);
  if (typeof parsed === 'string') return invalid('malformed', parsed);
  const entry = parsed.get(DIGEST_ALG);
  if (!entry || !(entry[0] instanceof ArrayBuffer)) {
    return invalid('malformed', `${field} has no ${DIGEST_ALG} byte sequence`);
  }
  const actual = new Uint8Array(await subtle().digest('SHA-256', ownBytes(response.body)));
  return sameBytes(actual, new Uint8Array(entry[0]))
    ? null
    : invalid('digest-mismatch', `the body is not the one signed: its SHA-256 differs from ${field}`);
}

/**
 * The verdict on `response` against `jwks`: verified (by which key, when), unsigned (no signature
 * fields at all), or invalid with a machine reason and a sentence saying why.
 */
export async function verifySignedResponse<K extends SigningJwk>(
  response: SignedResponse,
  jwks: SigningJwks<K>,
  bodyDigest: BodyDigest = 'content-digest',
): Promise<Verdict<K>> {
  const inputHeader = response.headers.get('signature-input');
  const signatureHeader = response.headers.get('signature');
  if (inputHeader === null && signatureHeader === null) {
    return { state: 'unsigned', message: 'the answer carries no signature (no Signature-Input, no Signature)' };
  }
  if (inputHeader === null || signatureHeader === null) {
    return invalid(
      'incomplete',
      `the answer has ${inputHeader === null ? 'a Signature but no Signature-Input' : 'a Signature-Input but no Signature'}`,
    );
  }
  const inputs = dictionary(inputHeader, 'Signature-Input');
  if (typeof inputs === 'string') return invalid('malformed', inputs);
  const signatures = dictionary(signatureHeader, 'Signature');
  if (typeof signatures === 'string') return invalid('malformed', signatures);

  const inputEntry = inputs.get(SIGNATURE_LABEL);
  const signatureEntry = signatures.get(SIGNATURE_LABEL);
  if (!inputEntry && !signatureEntry) {
    const labels = [...new Set([...inputs.keys(), ...signatures.keys()])];
    return invalid(
      'wrong-label',
      `no signature is labelled "${SIGNATURE_LABEL}" (found ${labels.map((l) => `"${l}"`).join(', ') || 'none'})`,
    );
  }
  if (!inputEntry || !signatureEntry) {
    return invalid('incomplete', `only ${inputEntry ? 'Signature-Input' : 'Signature'} has a "${SIGNATURE_LABEL}" entry`);
  }
  const signature = signatureEntry[0];
  if (!(signature instanceof ArrayBuffer)) return invalid('malformed', `Signature's "${SIGNATURE_LABEL}" is not a byte sequence`);

  const signed = readInput(inputEntry);
  if ('state' in signed) return signed;
  if (!signed.components.includes(bodyDigest)) {
    return invalid('missing-component', `the signature does not cover "${bodyDigest}", which this body is checked against`);
  }
  const base = signatureBase(response.status, response.headers, signed.input);
  if (typeof base !== 'string') return invalid('missing-component', `the covered header ${base.missing} is absent`);
  const digestFailure = await checkDigest(response, bodyDigest);
  if (digestFailure) return digestFailure;

  const key = jwks.keys.find((candidate) => candidate.kid === signed.keyid);
  if (!key) return invalid('unknown-kid', `key ${signed.keyid} is not in the key set`);
  if (key.kty !== 'OKP' || key.crv !== 'Ed25519') return invalid('bad-key', `key ${key.kid} is not an Ed25519 key`);
  const { thumbprint, key: cryptoKey } = await cachedKey(key);
  if (thumbprint !== key.kid) return invalid('bad-key', `key ${key.kid} is not named by its thumbprint (RFC 7638)`);
  if (!cryptoKey) return invalid('bad-key', `key ${key.kid} is not an Ed25519 public key`);
  if (
    (key.signed_from !== undefined && signed.created < key.signed_from) ||
    (key.signed_until !== undefined && signed.created > key.signed_until)
  ) {
    return invalid('outside-key-dates', `the signature's time is outside the dates key ${key.kid} signed between`);
  }

  const good = await subtle().verify({ name: 'Ed25519' }, cryptoKey, signature, new TextEncoder().encode(base));
  if (!good) return invalid('bad-signature', 'the signature does not match the status, headers and parameters received');
  return {
    state: 'verified',
    kid: key.kid,
    created: signed.created,
    signedAt: new Date(signed.created * 1000),
    key,
    components: signed.components,
  };
}
