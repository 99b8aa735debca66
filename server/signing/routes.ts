/**
 * Signed snapshots (issue #36): the middleware that signs every answer of the snapshot API, the
 * public key set at `/.well-known/jwks.json`, and the operator's key rotation.
 */
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../platform/app-env';
import { emptyBody } from '../platform/http/body';
import { COMMON_ERRORS, errors, json, jsonBody, SECURITY, success, WRITE_ERRORS } from '../platform/http/openapi';
import { serve, type ServerApp } from '../platform/http/routes';
import { jwksSchema } from '../../lib/core/schemas/signing';
import { JWKS_PATH } from '../../lib/core/signing/wire';
import type { SnapshotSigner } from './signer';
import { knownBody } from '../platform/http/known-body';

/** Keys change rarely and a retired key stays published: a verifier may keep the set for an hour. */
export const JWKS_MAX_AGE_SECONDS = 3600;
/** What a browser page reading the snapshot API may see of the signature. */
export const SIGNATURE_HEADERS = ['Content-Digest', 'Token-Free-Digest', 'Signature-Input', 'Signature'];

/** The share token a snapshot path names (its last segment, decoded), or '' for none. */
function pathToken(path: string): string {
  const segment = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Runs outside every other middleware of the snapshot paths, so what they answer (421, 429, 401, the
 * route's 200/404/410, 405, a 500 from onError) is signed as sent; HEAD gets GET's headers.
 */
export function signAnswers(signer: SnapshotSigner): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    // A CORS preflight attests nothing (no body, no content type, never shown to a script).
    if (c.req.method === 'OPTIONS') return;
    // One way for every answer: its exact bytes (as its route noted them, or read once), then its fields.
    let body = knownBody(c);
    if (!body) {
      const { status, statusText, headers } = c.res;
      const read = new Uint8Array(await c.res.arrayBuffer());
      // Cleared first: Hono's setter would copy the old answer's headers onto the new one.
      c.res = undefined;
      c.res = new Response(read, { status, statusText, headers });
      body = read;
    }
    const fields = await signer.signatureHeaders(
      c.res.status,
      c.res.headers.get('content-type') ?? '',
      body,
      pathToken(c.req.path),
    );
    for (const [name, value] of Object.entries(fields)) c.res.headers.set(name, value);
  };
}

export function jwksRoutes(app: ServerApp, signer: SnapshotSigner): void {
  serve(
    app,
    createRoute({
      method: 'get',
      path: JWKS_PATH,
      summary: 'The public keys that sign snapshot answers (JWK Set, RFC 7517)',
      description: 'Not a view, not rate-limited. Retired keys stay, with `signed_until`.',
      responses: { 200: json(jwksSchema, 'JWK Set'), ...errors(COMMON_ERRORS) },
    }),
    async (c) => {
      c.header('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
      return c.body(JSON.stringify(await signer.jwks()), 200, { 'Content-Type': 'application/jwk-set+json' });
    },
  );
}

/** Registered after the operator API's secret check (server/partners/operator-routes.ts). */
export function signingOperatorRoutes(app: ServerApp, signer: SnapshotSigner): void {
  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/operator/signing-keys/rotate',
      summary: 'Operator: retire the snapshot signing key and sign with a new one',
      security: SECURITY.operatorSecret,
      request: { body: jsonBody(emptyBody, false) },
      responses: {
        200: json(success(jwksSchema.extend({ active_kid: z.string() })), 'Rotated: every key, the new one first'),
        ...errors({ ...WRITE_ERRORS, 401: ['UNAUTHORIZED'], 429: ['RATE_LIMITED'], ...COMMON_ERRORS }),
      },
    }),
    async (c) => {
      const jwks = await signer.rotate();
      return c.json({ success: true as const, data: { active_kid: jwks.keys[0]?.kid ?? '', keys: jwks.keys }, meta: {} }, 200);
    },
  );
}
