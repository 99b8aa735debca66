/**
 * The operator API: partner keys, behind `Authorization: Bearer <operator secret>`. Mounted only when
 * the server was given a secret (`--operator-secret` or `OPERATOR_SECRET`); otherwise its paths are 404.
 */
import { createRoute } from '@hono/zod-openapi';
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv, RouteDeps } from '../platform/app-env';
import { emptyBody } from '../platform/http/body';
import { ApiError } from '../platform/http/errors';
import { COMMON_ERRORS, errors, idParams, json, jsonBody, SECURITY, success, WRITE_ERRORS } from '../platform/http/openapi';
import { serve, type ServerApp } from '../platform/http/routes';
import type { ClockedStore } from '../platform/rate-limit/store';
import { clientKey } from '../platform/rate-limit/middleware';
import { sha256Hex } from '../platform/tokens';
import { AUTH_FAILURES_PER_WINDOW, bearerCredential } from './auth';
import {
  createPartnerKey,
  getPartnerKey,
  listPartnerKeys,
  PARTNER_KEY_NOT_FOUND_MESSAGE,
  revokePartnerKey,
  rotatePartnerKey,
  updatePartnerKey,
} from './keys';
import {
  createdPartnerKeySchema,
  createPartnerKeyBody,
  partnerKeySchema,
  rotatePartnerKeyBody,
  updatePartnerKeyBody,
} from './schemas';

export interface OperatorRouteDeps extends RouteDeps {
  secret: string;
  /** Where failed secret checks are counted, per client address (the rate limiter's store). */
  store: ClockedStore;
}

/** Compares digests, so neither the secret's length nor its bytes leak through timing. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(sha256Hex(given), 'hex'), Buffer.from(sha256Hex(expected), 'hex'));
}

function requireOperator(deps: OperatorRouteDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const given = bearerCredential(c);
    if (given !== undefined && sameSecret(given, deps.secret)) return next();
    const failures = await deps.store.increment(`authfail:${clientKey(c, deps.config.trustProxy)}`);
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

const ok = <T extends object>(data: T) => ({ success: true as const, data, meta: {} });
const OPERATOR_ERRORS = { 401: ['UNAUTHORIZED'], 429: ['RATE_LIMITED'], ...COMMON_ERRORS } as const;

export function operatorRoutes(app: ServerApp, deps: OperatorRouteDeps): void {
  const { db, clock } = deps;
  // Every path under the prefix, known or not, needs the secret first (an unknown one is then 404).
  app.use('/api/operator/*', requireOperator(deps));
  const operator = { security: SECURITY.operatorSecret };
  const keyParams = idParams(PARTNER_KEY_NOT_FOUND_MESSAGE);

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/operator/partner-keys',
      summary: 'Operator: create a partner key (shown once)',
      ...operator,
      request: { body: jsonBody(createPartnerKeyBody) },
      responses: {
        201: json(success(z.object({ partner_key: createdPartnerKeySchema })), 'Created'),
        ...errors({ ...WRITE_ERRORS, ...OPERATOR_ERRORS }),
      },
    }),
    async (c, input) => c.json(ok({ partner_key: await createPartnerKey(db, clock.now(), input.body) }), 201),
  );

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/operator/partner-keys',
      summary: 'Operator: list partner keys (never the keys themselves)',
      ...operator,
      responses: {
        200: json(success(z.object({ partner_keys: z.array(partnerKeySchema) })), 'Partner keys'),
        ...errors(OPERATOR_ERRORS),
      },
    }),
    async (c) => c.json(ok({ partner_keys: await listPartnerKeys(db, clock.now()) }), 200),
  );

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/operator/partner-keys/{id}',
      summary: 'Operator: one partner key',
      ...operator,
      request: { params: keyParams },
      responses: {
        200: json(success(z.object({ partner_key: partnerKeySchema })), 'Partner key'),
        ...errors({ 404: ['NOT_FOUND'], ...OPERATOR_ERRORS }),
      },
    }),
    async (c, input) => c.json(ok({ partner_key: await getPartnerKey(db, clock.now(), input.params.id) }), 200),
  );

  serve(
    app,
    createRoute({
      method: 'patch',
      path: '/api/operator/partner-keys/{id}',
      summary: 'Operator: rename a partner or change its quota',
      ...operator,
      request: { params: keyParams, body: jsonBody(updatePartnerKeyBody) },
      responses: {
        200: json(success(z.object({ partner_key: partnerKeySchema })), 'Updated'),
        ...errors({ ...WRITE_ERRORS, 404: ['NOT_FOUND'], ...OPERATOR_ERRORS }),
      },
    }),
    async (c, input) => {
      const partnerKey = await updatePartnerKey(db, clock.now(), input.params.id, input.body);
      return c.json(ok({ partner_key: partnerKey }), 200);
    },
  );

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/operator/partner-keys/{id}/rotate',
      summary: 'Operator: a new key for the partner; the old one stops now or after `grace_seconds`',
      ...operator,
      request: { params: keyParams, body: jsonBody(rotatePartnerKeyBody, false) },
      responses: {
        200: json(success(z.object({ partner_key: createdPartnerKeySchema })), 'Rotated'),
        ...errors({ ...WRITE_ERRORS, 404: ['NOT_FOUND'], 409: ['CONFLICT'], ...OPERATOR_ERRORS }),
      },
    }),
    async (c, input) => {
      const grace = input.body.grace_seconds ?? 0;
      return c.json(ok({ partner_key: await rotatePartnerKey(db, clock.now(), input.params.id, grace) }), 200);
    },
  );

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/operator/partner-keys/{id}/revoke',
      summary: 'Operator: revoke a partner key now (its follows end, undelivered messages are cancelled)',
      ...operator,
      request: { params: keyParams, body: jsonBody(emptyBody, false) },
      responses: {
        200: json(success(z.object({ partner_key: partnerKeySchema })), 'Revoked'),
        ...errors({ ...WRITE_ERRORS, 404: ['NOT_FOUND'], ...OPERATOR_ERRORS }),
      },
    }),
    async (c, input) => c.json(ok({ partner_key: await revokePartnerKey(db, clock.now(), input.params.id) }), 200),
  );
}
