/**
 * Signs snapshot answers (issue #36): `Content-Digest` (RFC 9530) over the exact body bytes,
 * `Token-Free-Digest` over the body with its share token replaced (lib/core/signing/token-free.ts, what
 * a verifiable copy keeps), and an RFC 9421 signature labelled `snapshot` over the status, the content
 * type and both digests. The keys
 * are read from the database once and kept (KeyObject and kid), so a signature costs a SHA-256 and
 * one Ed25519 sign, not a query. The wire values (label, tag, covered components) and the JWK Set's
 * schema live in lib/core (signing/wire.ts, schemas/signing.ts), which verifiers share.
 */
import { createHash, sign } from 'node:crypto';
import { serializeDictionary, type BareItem, type InnerList, type Item } from 'structured-headers';
import type { PublishedJwk } from '../../lib/core/schemas/signing';
import {
  DIGEST_ALG,
  SIGNATURE_ALG,
  SIGNATURE_LABEL,
  SERVER_SIGNED_COMPONENTS,
  SIGNATURE_PARAMS,
  SIGNATURE_TAG,
  TOKEN_FREE_DIGEST,
} from '../../lib/core/signing/wire';
import { tokenFreeBody } from '../../lib/core/signing/token-free';
import { headerLookup, signatureBase } from '../../lib/core/signing/message';
import type { Clock } from '../platform/clock';
import type { Database } from '../platform/db/driver';
import { ensureSigningKeys, publicJwk, rotateSigningKey, type SigningKey } from './keys';

/**
 * How long this process trusts its copy of the keys: a rotation made elsewhere (the CLI, another
 * instance on the same PostgreSQL) is picked up within this time. A rotation through this process's
 * operator API applies at once.
 */
export const KEY_REFRESH_MS = 60_000;

interface KeySet {
  active: SigningKey;
  jwks: { keys: PublishedJwk[] };
  loadedAt: number;
}

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

async function keySet(keys: SigningKey[], loadedAt: number): Promise<KeySet> {
  const [active] = keys;
  if (!active || active.retiredAt !== null) throw new Error('no active signing key');
  const published = await Promise.all(
    keys.map(async (key): Promise<PublishedJwk> => ({
      ...(await publicJwk(key.publicKey)),
      kid: key.kid,
      alg: 'EdDSA',
      use: 'sig',
      signed_from: unixSeconds(key.createdAt),
      ...(key.retiredAt ? { signed_until: unixSeconds(key.retiredAt) } : {}),
    })),
  );
  return { active, jwks: { keys: published }, loadedAt };
}

/** `sha-256=:<base64>:`: an RFC 8941 dictionary of one byte sequence, written out (the library's serialiser took as long as the hash). */
export function contentDigest(body: Uint8Array): string {
  return `${DIGEST_ALG}=:${createHash('sha256').update(body).digest('base64')}:`;
}

export class SnapshotSigner {
  #current: Promise<KeySet> | undefined;
  #refreshing = false;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The server's clock (the dev clock when moved), so a test brings a refresh forward as it does expiry. */
  #now(): number {
    return this.clock.now().getTime();
  }

  #read(): Promise<KeySet> {
    const at = this.#now();
    return ensureSigningKeys(this.db, this.clock.now()).then((keys) => keySet(keys, at));
  }

  #keys(): Promise<KeySet> {
    const current = this.#current;
    if (!current) {
      const loading = this.#read();
      this.#current = loading;
      // A failed first read is not kept: the next answer tries again.
      loading.catch(() => {
        if (this.#current === loading) this.#current = undefined;
      });
      return loading;
    }
    void current.then(
      (set) => this.#refreshIfStale(current, set),
      () => undefined,
    );
    return current;
  }

  /** Answers keep the keys in hand while a fresh copy is read; a failed read is tried again later. */
  #refreshIfStale(current: Promise<KeySet>, set: KeySet): void {
    if (this.#refreshing || this.#now() - set.loadedAt <= KEY_REFRESH_MS) return;
    this.#refreshing = true;
    void this.#read()
      .then(
        (next) => {
          if (this.#current === current) this.#current = Promise.resolve(next);
        },
        () => undefined,
      )
      .finally(() => {
        this.#refreshing = false;
      });
  }

  /** The JWK Set of every key, active and retired. */
  async jwks(): Promise<{ keys: PublishedJwk[] }> {
    return (await this.#keys()).jwks;
  }

  async rotate(): Promise<{ keys: PublishedJwk[] }> {
    const set = await keySet(await rotateSigningKey(this.db, this.clock.now()), this.#now());
    this.#current = Promise.resolve(set);
    return set.jwks;
  }

  /**
   * The signature fields of an answer (status, content type, exact body bytes) for share token
   * `token`, as the path named it: `Content-Digest`, `Token-Free-Digest`, `Signature-Input`,
   * `Signature`. The base is built by lib/core/signing's `signatureBase`, the verifier's own, rather
   * than by `http-message-signatures`: the library spent about 85 µs of its 125 µs per answer around
   * the 40 µs signature (measured in `npm run bench`), and Ed25519 is deterministic, so a test holds
   * these fields byte for byte to the library's (test/server/signing/signed-snapshots.test.ts).
   */
  async signatureHeaders(status: number, contentType: string, body: Uint8Array, token: string): Promise<Record<string, string>> {
    const { active } = await this.#keys();
    const fields: Record<string, string> = {
      'content-type': contentType,
      'content-digest': contentDigest(body),
      [TOKEN_FREE_DIGEST]: contentDigest(tokenFreeBody(body, token)),
    };
    const params = {
      created: Math.floor(this.clock.now().getTime() / 1000),
      keyid: active.kid,
      alg: SIGNATURE_ALG,
      tag: SIGNATURE_TAG,
    } satisfies Record<(typeof SIGNATURE_PARAMS)[number], string | number>;
    const input: InnerList = [
      SERVER_SIGNED_COMPONENTS.map((name): Item => [name, new Map<string, BareItem>()]),
      new Map(SIGNATURE_PARAMS.map((name): [string, string | number] => [name, params[name]])),
    ];
    const base = signatureBase(status, headerLookup(fields), input);
    if (typeof base !== 'string') throw new Error(`cannot sign: no ${base.missing}`);
    const signature = sign(null, Buffer.from(base), active.privateKey);
    return {
      'Content-Digest': fields['content-digest'] ?? '',
      'Token-Free-Digest': fields[TOKEN_FREE_DIGEST] ?? '',
      'Signature-Input': serializeDictionary({ [SIGNATURE_LABEL]: input }),
      Signature: serializeDictionary({ [SIGNATURE_LABEL]: [signature, new Map()] }),
    };
  }
}
