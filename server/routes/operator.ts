/**
 * The operator API: partner keys, behind `Authorization: Bearer <operator secret>`. Mounted only when
 * the server was given a secret (`--operator-secret` or `OPERATOR_SECRET`); otherwise its paths are 404.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../app-types';
import { readJson } from '../http/body';
import { ApiError } from '../http/errors';
import { allowOnly } from '../http/methods';
import { AUTH_FAILURES_PER_WINDOW, bearerCredential } from '../http/partner-auth';
import {
  createPartnerKey,
  getPartnerKey,
  listPartnerKeys,
  revokePartnerKey,
  rotatePartnerKey,
  updatePartnerKey,
} from '../partners/keys';
import { createPartnerKeyBody, rotatePartnerKeyBody, updatePartnerKeyBody } from '../partners/schemas';
import { clientKey } from '../rate-limit/middleware';
import { emptyBody } from '../schemas';
import { sha256Hex } from '../tokens';

const KEY_ID = /^[A-Za-z0-9_-]{1,100}$/;

function keyId(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!KEY_ID.test(id)) throw new ApiError(404, 'NOT_FOUND', 'No partner key with this id.');
  return id;
}

/** Compares digests, so neither the secret's length nor its bytes leak through timing. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(sha256Hex(given), 'hex'), Buffer.from(sha256Hex(expected), 'hex'));
}

function requireOperator(deps: AppDeps, secret: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const given = bearerCredential(c);
    if (given !== undefined && sameSecret(given, secret)) return next();
    const failures = await deps.rateLimiter.store.increment(`authfail:${clientKey(c, deps.config.trustProxy)}`);
    if (failures.totalHits > AUTH_FAILURES_PER_WINDOW) {
      throw new ApiError(429, 'RATE_LIMITED', 'Too many requests with a bad operator secret from this address.', {
        'Retry-After': '60',
      });
    }
    throw new ApiError(401, 'UNAUTHORIZED', given === undefined ? 'Missing operator secret.' : 'Invalid operator secret.', {
      'WWW-Authenticate': 'Bearer',
    });
  };
}

const ok = <T extends object>(c: Context, data: T, status: 200 | 201 = 200) => c.json({ success: true, data, meta: {} }, status);

export function registerOperatorRoutes(app: Hono<AppEnv>, deps: AppDeps, secret: string): void {
  const { db, clock } = deps;
  app.use('/api/operator/*', requireOperator(deps, secret));

  app.post('/api/operator/partner-keys', async (c) => {
    const body = await readJson(c, createPartnerKeyBody);
    return ok(c, { partner_key: await createPartnerKey(db, clock.now(), body) }, 201);
  });
  app.get('/api/operator/partner-keys', async (c) => ok(c, { partner_keys: await listPartnerKeys(db, clock.now()) }));
  allowOnly(app, '/api/operator/partner-keys', ['GET', 'POST']);

  app.get('/api/operator/partner-keys/:id', async (c) => ok(c, { partner_key: await getPartnerKey(db, clock.now(), keyId(c)) }));
  app.patch('/api/operator/partner-keys/:id', async (c) => {
    const id = keyId(c);
    const body = await readJson(c, updatePartnerKeyBody);
    return ok(c, { partner_key: await updatePartnerKey(db, clock.now(), id, body) });
  });
  allowOnly(app, '/api/operator/partner-keys/:id', ['GET', 'PATCH']);

  app.post('/api/operator/partner-keys/:id/rotate', async (c) => {
    const id = keyId(c);
    const body = await readJson(c, rotatePartnerKeyBody);
    return ok(c, { partner_key: await rotatePartnerKey(db, clock.now(), id, body.grace_seconds ?? 0) });
  });
  allowOnly(app, '/api/operator/partner-keys/:id/rotate', ['POST']);

  app.post('/api/operator/partner-keys/:id/revoke', async (c) => {
    const id = keyId(c);
    await readJson(c, emptyBody);
    return ok(c, { partner_key: await revokePartnerKey(db, clock.now(), id) });
  });
  allowOnly(app, '/api/operator/partner-keys/:id/revoke', ['POST']);
}
