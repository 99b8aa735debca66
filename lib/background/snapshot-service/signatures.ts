import { jwksSchema, type Jwks } from '../../core/schemas/signing';
import type { SavableCopy, SignatureVerdict } from '../../core/schemas/results';
import { buildVerifiableCopy } from '../../core/signing/copy';
import { tokenFreeBody } from '../../core/signing/token-free';
import type { SignedResponse } from '../../core/signing/message';
import { checkDigest, verifySignedResponse, type Verdict } from '../../core/signing/verify';
import { JWKS_PATH, TOKEN_FREE_DIGEST } from '../../core/signing/wire';
import { readBodyCapped, SERVICE_REQUEST, type FetchLike } from './http';

/** A service's key set is fetched again for a key id it does not hold at most this often. */
export const JWKS_REFETCH_MS = 60_000;
const JWKS_TIMEOUT_MS = 5_000;
/** A key set is a few hundred bytes per key: anything near this is not one. */
const JWKS_MAX_BYTES = 64 * 1024;

export interface SignatureCheckerDeps {
  fetch: FetchLike;
  now: () => number;
}

export interface SignatureChecker {
  /**
   * The verdict on one answer of `origin`'s snapshot endpoint for share token `token` (never throws).
   * A verified one carries its verifiable copy, token-free, when the service signs that form.
   */
  check(origin: string, response: SignedResponse, token: string): Promise<SignatureVerdict>;
}

interface KnownKeys {
  jwks: Jwks | null;
  fetchedAt: number;
}

/**
 * Checks each answer's signature against its service's published JWK Set (issue #36). The set is
 * fetched from the service's own origin (it counts no view), kept in the worker's memory, and fetched
 * again when an answer names a key it does not hold, at most once a minute per service: a page or a
 * service cannot make the worker fetch it more often. An unsigned answer costs no fetch.
 */
export function createSignatureChecker({ fetch, now }: SignatureCheckerDeps): SignatureChecker {
  const known = new Map<string, KnownKeys>();
  const fetching = new Map<string, Promise<KnownKeys>>();

  async function download(origin: string): Promise<Jwks | null> {
    try {
      const signal = AbortSignal.timeout(JWKS_TIMEOUT_MS);
      const response = await fetch(`${origin}${JWKS_PATH}`, { ...SERVICE_REQUEST, signal });
      if (!response.ok) return null;
      const body = await readBodyCapped(response, JWKS_MAX_BYTES, signal);
      const parsed = jwksSchema.safeParse(JSON.parse(new TextDecoder().decode(body)));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** The service's keys: fetched when none are known, or (`stale`) when the last fetch is a minute old. */
  function keysOf(origin: string, stale: boolean): Promise<KnownKeys> {
    const held = known.get(origin);
    if (held && !(stale && now() - held.fetchedAt >= JWKS_REFETCH_MS)) return Promise.resolve(held);
    let pending = fetching.get(origin);
    if (!pending) {
      pending = download(origin).then((jwks) => {
        // A failed fetch keeps the keys known before (a key set does not lose keys), and is retried a minute on.
        const entry = { jwks: jwks ?? held?.jwks ?? null, fetchedAt: now() };
        known.set(origin, entry);
        fetching.delete(origin);
        return entry;
      });
      fetching.set(origin, pending);
    }
    return pending;
  }

  /**
   * The answer's copy, or null if it cannot be made. Its signature was just verified over the same
   * base, so the copy checks (as `npm run verify` will) exactly when its token-free body matches the
   * signed token-free digest: one SHA-256, not a second Ed25519 verification.
   */
  async function copyOf(
    origin: string,
    response: SignedResponse,
    verdict: Extract<Verdict<Jwks['keys'][number]>, { state: 'verified' }>,
    token: string,
  ): Promise<SavableCopy | null> {
    try {
      const tokenFree = { ...response, body: tokenFreeBody(response.body, token) };
      if ((await checkDigest(tokenFree, TOKEN_FREE_DIGEST)) !== null) return null;
      const { saved_at: _unset, ...copy } = buildVerifiableCopy(response, verdict, {
        serviceUrl: origin,
        savedAt: new Date(now()),
        token,
      });
      return copy;
    } catch {
      return null;
    }
  }

  const toVerdict = async (origin: string, response: SignedResponse, jwks: Jwks, token: string): Promise<SignatureVerdict> => {
    const verdict = await verifySignedResponse(response, jwks);
    if (verdict.state === 'verified') {
      const copy = await copyOf(origin, response, verdict, token);
      return { state: 'verified', kid: verdict.kid, signedAt: verdict.created * 1000, ...(copy ? { copy } : {}) };
    }
    if (verdict.state === 'unsigned') return { state: 'unsigned' };
    return { state: 'invalid', reason: verdict.reason, message: verdict.message };
  };

  return {
    async check(origin, response, token) {
      try {
        if (response.headers.get('signature-input') === null && response.headers.get('signature') === null) {
          return { state: 'unsigned' };
        }
        let keys = await keysOf(origin, false);
        let verdict = keys.jwks ? await toVerdict(origin, response, keys.jwks, token) : null;
        if (verdict === null || (verdict.state === 'invalid' && verdict.reason === 'unknown-kid')) {
          // A key published since the set was fetched (a rotation): fetched again, at most once a minute.
          keys = await keysOf(origin, true);
          verdict = keys.jwks ? await toVerdict(origin, response, keys.jwks, token) : null;
        }
        return verdict ?? { state: 'unchecked', message: `The keys of ${origin} could not be fetched to check the signature.` };
      } catch {
        return { state: 'unchecked', message: 'The signature could not be checked.' };
      }
    },
  };
}
