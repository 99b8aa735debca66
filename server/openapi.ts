/**
 * The OpenAPI 3.1 document (`GET /api/openapi.json`), generated from the same zod schemas the server
 * validates and answers with. Built once per app; routes are registered in the doc only (handlers are
 * plain Hono routes that parse their own input, so error envelopes stay uniform).
 */
import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import { z } from 'zod';
import { API_VERSION } from '../lib/core/labels';
import { snapshotSuccessEnvelopeSchema } from '../lib/core/schemas/snapshot';
import { SERVER_ERROR_CODES, type ServerErrorCode } from './http/errors';
import { SHARE_OPENAPI_PATH, SNAPSHOT_OPENAPI_PATH } from './paths';
import {
  createEndpointBody,
  createFollowBody,
  createPartnerKeyBody,
  createdEndpointSchema,
  createdPartnerKeySchema,
  digestSchema,
  endpointSchema,
  followEventSchema,
  followSchema,
  founderFollowSchema,
  partnerEventSchema,
  partnerKeySchema,
  replayBody,
  rotatePartnerKeyBody,
  updateFollowBody,
  updatePartnerKeyBody,
} from './partners/schemas';
import { snapshotSchema } from '../lib/core/schemas/snapshot';
import {
  createOrganisationBody,
  createShareLinkBody,
  createdShareLinkSchema,
  devClockBody,
  devClockData,
  emptyBody,
  healthData,
  organisationSchema,
  packSchema,
  shareLinkSummarySchema,
  updateOrganisationBody,
} from './schemas';

const errorEnvelope = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.enum(SERVER_ERROR_CODES),
});

const success = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data, meta: z.object({}) });

const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { description: 'e.g. `60;w=60`', schema: { type: 'string' as const } },
  'RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'integer' as const } },
  'RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' as const } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' as const } },
};

function errors(entries: Partial<Record<number, readonly ServerErrorCode[]>>): RouteConfig['responses'] {
  const responses: RouteConfig['responses'] = {};
  for (const [status, codes] of Object.entries(entries)) {
    if (!codes) continue;
    responses[status] = {
      description: `Error: ${codes.join(', ')}`,
      content: { 'application/json': { schema: errorEnvelope } },
      ...(status === '429'
        ? { headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } }
        : {}),
    };
  }
  return responses;
}

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

const body = <T extends z.ZodType>(schema: T, required = true) => ({
  required,
  content: { 'application/json': { schema } },
});

const founderAuth = [{ founderKey: [] }];
/** 421: a `Host` the server was not started with (DNS-rebinding defence), on every path. */
const COMMON_ERRORS = { 405: ['METHOD_NOT_ALLOWED'], 421: ['HOST_NOT_ALLOWED'], 500: ['INTERNAL_ERROR'] } as const;
const BODY_ERRORS = { 400: ['VALIDATION_ERROR'], 413: ['PAYLOAD_TOO_LARGE'], 415: ['UNSUPPORTED_MEDIA_TYPE'] } as const;
/** Founder and dev writes refuse requests a browser marks as coming from another web page. */
const WRITE_ERRORS = { ...BODY_ERRORS, 403: ['CROSS_ORIGIN_REQUEST'] } as const;

const routes = [
  createRoute({
    method: 'get',
    path: SNAPSHOT_OPENAPI_PATH,
    summary: 'Get compliance status',
    description: 'Counts one view. No authorization: the share token is the credential.',
    request: { params: z.object({ token: z.string() }) },
    responses: {
      200: { ...json(snapshotSuccessEnvelopeSchema, 'The snapshot'), headers: RATE_LIMIT_HEADERS },
      ...errors({ 404: ['NOT_FOUND'], 410: ['EXPIRED'], 429: ['RATE_LIMITED'], ...COMMON_ERRORS }),
    },
  }),
  createRoute({
    method: 'get',
    path: SHARE_OPENAPI_PATH,
    summary: 'Human investor view (HTML)',
    description: 'Counts one view and shares the rate-limit bucket with the API.',
    request: { params: z.object({ token: z.string() }) },
    responses: {
      200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } },
      404: {
        description: 'HTML error page (unknown, malformed or revoked token)',
        content: { 'text/html': { schema: z.string() } },
      },
      410: { description: 'HTML error page (expired)', content: { 'text/html': { schema: z.string() } } },
      421: { description: 'HTML error page (Host not allowed)', content: { 'text/html': { schema: z.string() } } },
      429: { description: 'HTML error page (rate limited)', content: { 'text/html': { schema: z.string() } } },
      500: { description: 'HTML error page (server fault)', content: { 'text/html': { schema: z.string() } } },
      ...errors({ 405: COMMON_ERRORS[405] }),
    },
  }),
  createRoute({
    method: 'get',
    path: '/api/health',
    summary: 'Health check',
    responses: {
      200: json(success(healthData), 'Healthy'),
      503: json(success(healthData), 'Database unavailable'),
      ...errors(COMMON_ERRORS),
    },
  }),
  createRoute({
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    responses: {
      200: json(z.looseObject({ openapi: z.string() }), 'The OpenAPI document'),
      ...errors(COMMON_ERRORS),
    },
  }),
  createRoute({
    method: 'post',
    path: '/api/founder/organisations',
    summary: 'Sign up an organisation',
    request: { body: body(createOrganisationBody) },
    responses: {
      201: json(success(z.object({ organisation: organisationSchema, founder_key: z.string() })), 'Created'),
      ...errors({ ...WRITE_ERRORS, ...COMMON_ERRORS }),
    },
  }),
  createRoute({
    method: 'get',
    path: '/api/founder/organisation',
    summary: 'Read the organisation',
    security: founderAuth,
    responses: {
      200: json(success(z.object({ organisation: organisationSchema })), 'The organisation'),
      ...errors({ 401: ['UNAUTHORIZED'], ...COMMON_ERRORS }),
    },
  }),
  createRoute({
    method: 'patch',
    path: '/api/founder/organisation',
    summary: 'Update the profile (scores recalculated)',
    security: founderAuth,
    request: { body: body(updateOrganisationBody) },
    responses: {
      200: json(success(z.object({ organisation: organisationSchema })), 'Updated'),
      ...errors({ ...WRITE_ERRORS, 401: ['UNAUTHORIZED'], ...COMMON_ERRORS }),
    },
  }),
  createRoute({
    method: 'post',
    path: '/api/founder/dd-packs',
    summary: 'Generate a Regulatory DD Pack',
    security: founderAuth,
    responses: {
      201: json(success(z.object({ pack: packSchema })), 'Generated'),
      ...errors({ ...BODY_ERRORS, 401: ['UNAUTHORIZED'], 403: ['TIER_REQUIRED', 'CROSS_ORIGIN_REQUEST'], ...COMMON_ERRORS }),
    },
  }),
  createRoute({
    method: 'post',
    path: '/api/founder/share-links',
    summary: 'Create an investor share link (valid 7 days)',
    security: founderAuth,
    request: { body: body(createShareLinkBody, false) },
    responses: {
      201: json(success(z.object({ share_link: createdShareLinkSchema })), 'Created; the token is shown only here'),
      ...errors({
        ...BODY_ERRORS,
        401: ['UNAUTHORIZED'],
        403: ['TIER_REQUIRED', 'CROSS_ORIGIN_REQUEST'],
        409: ['PACK_REQUIRED'],
        ...COMMON_ERRORS,
      }),
    },
  }),
  createRoute({
    method: 'get',
    path: '/api/founder/share-links',
    summary: 'List share links',
    security: founderAuth,
    responses: {
      200: json(success(z.object({ share_links: z.array(shareLinkSummarySchema) })), 'Share links'),
      ...errors({ 401: ['UNAUTHORIZED'], ...COMMON_ERRORS }),
    },
  }),
  createRoute({
    method: 'post',
    path: '/api/founder/share-links/{id}/revoke',
    summary: 'Revoke a share link (effective immediately)',
    security: founderAuth,
    request: { params: z.object({ id: z.string() }) },
    responses: {
      200: json(success(z.object({ share_link: shareLinkSummarySchema })), 'Revoked'),
      ...errors({ ...WRITE_ERRORS, 401: ['UNAUTHORIZED'], 404: ['NOT_FOUND'], ...COMMON_ERRORS }),
    },
  }),
  createRoute({
    method: 'get',
    path: '/api/founder/follows',
    summary: 'Who follows this organisation’s links (version 1), by partner name',
    security: founderAuth,
    responses: {
      200: json(success(z.object({ follows: z.array(founderFollowSchema) })), 'Follows'),
      ...errors({ 401: ['UNAUTHORIZED'], ...COMMON_ERRORS }),
    },
  }),
] as const;

const partnerAuth = [{ partnerKey: [] }];
/** Every keyed response carries the key's quota headers (IETF structured form). */
const KEY_QUOTA_HEADERS = {
  'RateLimit-Policy': { description: 'e.g. `"partner";q=120;w=60`', schema: { type: 'string' as const } },
  RateLimit: { description: 'e.g. `"partner";r=119;t=42`', schema: { type: 'string' as const } },
};
const KEYED_ERRORS = { 401: ['UNAUTHORIZED'], 429: ['RATE_LIMITED'], ...COMMON_ERRORS } as const;
const keyed = <T extends z.ZodType>(schema: T, description: string) => ({
  ...json(schema, description),
  headers: KEY_QUOTA_HEADERS,
});
const idParam = { params: z.object({ id: z.string() }) };

/** Version 1: the partner API (keyed) and the operator API (with `--operator-secret`). */
const v1Routes = [
  createRoute({
    method: 'get',
    path: '/api/v1/partner',
    summary: 'The partner this key belongs to, and its quota',
    security: partnerAuth,
    responses: {
      200: keyed(
        success(z.object({ partner: z.object({ id: z.string(), name: z.string(), quota_per_minute: z.int() }) })),
        'Partner',
      ),
      ...errors(KEYED_ERRORS),
    },
  }),
  createRoute({
    method: 'post',
    path: '/api/v1/webhook-endpoints',
    summary: 'Register a webhook endpoint (HTTPS, public address); its signing secret is shown once',
    security: partnerAuth,
    request: { body: body(createEndpointBody) },
    responses: {
      201: keyed(success(z.object({ endpoint: createdEndpointSchema })), 'Created'),
      ...errors({ ...BODY_ERRORS, 409: ['CONFLICT'], ...KEYED_ERRORS }),
    },
  }),
  createRoute({
    method: 'get',
    path: '/api/v1/webhook-endpoints',
    summary: 'List webhook endpoints with their delivery status',
    security: partnerAuth,
    responses: { 200: keyed(success(z.object({ endpoints: z.array(endpointSchema) })), 'Endpoints'), ...errors(KEYED_ERRORS) },
  }),
  createRoute({
    method: 'get',
    path: '/api/v1/webhook-endpoints/{id}',
    summary: 'One webhook endpoint: enabled or disabled (and why), failures, message counts',
    security: partnerAuth,
    request: idParam,
    responses: {
      200: keyed(success(z.object({ endpoint: endpointSchema })), 'Endpoint'),
      ...errors({ 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
    },
  }),
  createRoute({
    method: 'delete',
    path: '/api/v1/webhook-endpoints/{id}',
    summary: 'Delete a webhook endpoint (its undelivered messages go with it)',
    security: partnerAuth,
    request: idParam,
    responses: {
      200: keyed(success(z.object({ deleted: z.string() })), 'Deleted'),
      ...errors({ 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
    },
  }),
  createRoute({
    method: 'post',
    path: '/api/v1/webhook-endpoints/{id}/enable',
    summary: 'Enable a disabled endpoint again; its pending messages go out',
    security: partnerAuth,
    request: idParam,
    responses: {
      200: keyed(success(z.object({ endpoint: endpointSchema })), 'Enabled'),
      ...errors({ ...BODY_ERRORS, 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
    },
  }),
  createRoute({
    method: 'post',
    path: '/api/v1/webhook-endpoints/{id}/replay',
    summary: 'Queue messages again with their own webhook-id (failed ones, or all since a time) and enable the endpoint',
    security: partnerAuth,
    request: { ...idParam, body: body(replayBody, false) },
    responses: {
      200: keyed(success(z.object({ endpoint: endpointSchema, replayed: z.int() })), 'Queued again'),
      ...errors({ ...BODY_ERRORS, 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
    },
  }),
  createRoute({
    method: 'post',
    path: '/api/v1/follows',
    summary: 'Follow a company with a share token you hold (201; 200 when already followed)',
    description:
      'Answers with the snapshot the follow starts from: one partner view of the link. Unknown, malformed or revoked token: 404 NOT_FOUND; expired: 410 EXPIRED.',
    security: partnerAuth,
    request: { body: body(createFollowBody) },
    responses: {
      201: keyed(success(z.object({ follow: followSchema, snapshot: snapshotSchema })), 'Following'),
      200: keyed(success(z.object({ follow: followSchema, snapshot: snapshotSchema })), 'Already following'),
      ...errors({ ...BODY_ERRORS, 404: ['NOT_FOUND'], 410: ['EXPIRED'], ...KEYED_ERRORS }),
    },
  }),
  createRoute({
    method: 'get',
    path: '/api/v1/follows',
    summary: 'List follows (`?status=active|ended`)',
    security: partnerAuth,
    request: { query: z.object({ status: z.enum(['active', 'ended']).optional() }) },
    responses: {
      200: keyed(success(z.object({ follows: z.array(followSchema) })), 'Follows'),
      ...errors({ 400: ['VALIDATION_ERROR'], ...KEYED_ERRORS }),
    },
  }),
  createRoute({
    method: 'get',
    path: '/api/v1/follows/{id}',
    summary: 'One follow',
    security: partnerAuth,
    request: idParam,
    responses: {
      200: keyed(success(z.object({ follow: followSchema })), 'Follow'),
      ...errors({ 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
    },
  }),
  createRoute({
    method: 'patch',
    path: '/api/v1/follows/{id}',
    summary: 'Change a follow’s rules or endpoint (from the next change on)',
    security: partnerAuth,
    request: { ...idParam, body: body(updateFollowBody) },
    responses: {
      200: keyed(success(z.object({ follow: followSchema })), 'Updated'),
      ...errors({ ...BODY_ERRORS, 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
    },
  }),
  createRoute({
    method: 'delete',
    path: '/api/v1/follows/{id}',
    summary: 'Stop following (idempotent; no event)',
    security: partnerAuth,
    request: idParam,
    responses: {
      200: keyed(success(z.object({ follow: followSchema })), 'Ended'),
      ...errors({ 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
    },
  }),
  createRoute({
    method: 'get',
    path: '/api/v1/events',
    summary: 'Your events, oldest first, with their delivery state (`?follow_id=`, `?after=<cursor>`, `?limit=`)',
    description: `Webhook bodies: one event (${followEventSchema.shape.type.options.join(', ')}) or a digest (digest.daily, digest.weekly).`,
    security: partnerAuth,
    request: {
      query: z.object({ follow_id: z.string().optional(), after: z.string().optional(), limit: z.string().optional() }),
    },
    responses: {
      200: keyed(success(z.object({ events: z.array(partnerEventSchema), next_cursor: z.string().nullable() })), 'Events'),
      ...errors({ 400: ['VALIDATION_ERROR'], ...KEYED_ERRORS }),
    },
  }),
  createRoute({
    method: 'post',
    path: '/api/operator/partner-keys',
    summary: 'Operator: create a partner key (shown once)',
    security: [{ operatorSecret: [] }],
    request: { body: body(createPartnerKeyBody) },
    responses: {
      201: json(success(z.object({ partner_key: createdPartnerKeySchema })), 'Created'),
      ...errors({ ...WRITE_ERRORS, 401: ['UNAUTHORIZED'], 429: ['RATE_LIMITED'], ...COMMON_ERRORS }),
    },
  }),
  createRoute({
    method: 'get',
    path: '/api/operator/partner-keys',
    summary: 'Operator: list partner keys (never the keys themselves)',
    security: [{ operatorSecret: [] }],
    responses: {
      200: json(success(z.object({ partner_keys: z.array(partnerKeySchema) })), 'Partner keys'),
      ...errors({ 401: ['UNAUTHORIZED'], 429: ['RATE_LIMITED'], ...COMMON_ERRORS }),
    },
  }),
  createRoute({
    method: 'get',
    path: '/api/operator/partner-keys/{id}',
    summary: 'Operator: one partner key',
    security: [{ operatorSecret: [] }],
    request: idParam,
    responses: {
      200: json(success(z.object({ partner_key: partnerKeySchema })), 'Partner key'),
      ...errors({ 401: ['UNAUTHORIZED'], 404: ['NOT_FOUND'], 429: ['RATE_LIMITED'], ...COMMON_ERRORS }),
    },
  }),
  createRoute({
    method: 'patch',
    path: '/api/operator/partner-keys/{id}',
    summary: 'Operator: rename a partner or change its quota',
    security: [{ operatorSecret: [] }],
    request: { ...idParam, body: body(updatePartnerKeyBody) },
    responses: {
      200: json(success(z.object({ partner_key: partnerKeySchema })), 'Updated'),
      ...errors({ ...WRITE_ERRORS, 401: ['UNAUTHORIZED'], 404: ['NOT_FOUND'], 429: ['RATE_LIMITED'], ...COMMON_ERRORS }),
    },
  }),
  createRoute({
    method: 'post',
    path: '/api/operator/partner-keys/{id}/rotate',
    summary: 'Operator: a new key for the partner; the old one stops now or after `grace_seconds`',
    security: [{ operatorSecret: [] }],
    request: { ...idParam, body: body(rotatePartnerKeyBody, false) },
    responses: {
      200: json(success(z.object({ partner_key: createdPartnerKeySchema })), 'Rotated'),
      ...errors({
        ...WRITE_ERRORS,
        401: ['UNAUTHORIZED'],
        404: ['NOT_FOUND'],
        409: ['CONFLICT'],
        429: ['RATE_LIMITED'],
        ...COMMON_ERRORS,
      }),
    },
  }),
  createRoute({
    method: 'post',
    path: '/api/operator/partner-keys/{id}/revoke',
    summary: 'Operator: revoke a partner key now (its follows end, undelivered messages are cancelled)',
    security: [{ operatorSecret: [] }],
    request: idParam,
    responses: {
      200: json(success(z.object({ partner_key: partnerKeySchema })), 'Revoked'),
      ...errors({ ...WRITE_ERRORS, 401: ['UNAUTHORIZED'], 404: ['NOT_FOUND'], 429: ['RATE_LIMITED'], ...COMMON_ERRORS }),
    },
  }),
] as const;

const devRoutes = [
  createRoute({
    method: 'get',
    path: '/api/dev/clock',
    summary: 'Dev only: read the server clock',
    responses: { 200: json(success(devClockData), 'Current clock time'), ...errors(COMMON_ERRORS) },
  }),
  createRoute({
    method: 'post',
    path: '/api/dev/clock',
    summary: 'Dev only: move the server clock forward',
    description:
      'A JSON body (415 for other types). Refused with 403 CROSS_ORIGIN_REQUEST when a browser marks it as coming from another web page (Origin, Sec-Fetch-Site).',
    request: { body: body(devClockBody) },
    responses: { 200: json(success(devClockData), 'New clock time'), ...errors({ ...WRITE_ERRORS, ...COMMON_ERRORS }) },
  }),
  createRoute({
    method: 'post',
    path: '/api/dev/reset',
    summary: 'Dev only: clear rate-limit state',
    description:
      'No body needed (a JSON body, if any). Refused with 403 CROSS_ORIGIN_REQUEST when a browser marks it as coming from another web page (Origin, Sec-Fetch-Site).',
    request: { body: body(emptyBody) },
    responses: {
      200: json(success(devClockData.extend({ rate_limits_cleared: z.literal(true) })), 'Cleared'),
      ...errors({ ...WRITE_ERRORS, ...COMMON_ERRORS }),
    },
  }),
] as const;

export function buildOpenApiDocument(options: { dev: boolean }): unknown {
  const doc = new OpenAPIHono();
  doc.openAPIRegistry.registerComponent('securitySchemes', 'founderKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'The founder_key returned at sign-up',
  });
  doc.openAPIRegistry.registerComponent('securitySchemes', 'partnerKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'A partner key (pk_…) from the operator; its own quota per minute',
  });
  doc.openAPIRegistry.registerComponent('securitySchemes', 'operatorSecret', {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator secret the server was started with (--operator-secret)',
  });
  // What the server POSTs to a partner's endpoint (OpenAPI 3.1 `webhooks`), signed per Standard Webhooks.
  const webhookHeaders = z.object({
    'webhook-id': z.string(),
    'webhook-timestamp': z.string(),
    'webhook-signature': z.string(),
  });
  for (const [name, schema, summary] of [
    ['followEvent', followEventSchema, 'One change event (or follow.ended)'],
    ['digest', digestSchema, 'A daily or weekly digest of held events'],
  ] as const) {
    doc.openAPIRegistry.registerWebhook({
      method: 'post',
      path: name,
      summary,
      request: { headers: webhookHeaders, body: body(schema) },
      responses: { 200: { description: 'Any 2xx: delivered. Anything else (3xx included) is retried.' } },
    });
  }
  for (const route of routes) doc.openAPIRegistry.registerPath(route);
  for (const route of v1Routes) doc.openAPIRegistry.registerPath(route);
  if (options.dev) for (const route of devRoutes) doc.openAPIRegistry.registerPath(route);
  return doc.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Compliance status sharing service (Compliance Lens dev server)',
      version: API_VERSION,
      description:
        'Read-only compliance snapshots behind founder-created share tokens, plus the founder and dev APIs of the bundled server, and version 1: partner keys, follows and signed change events delivered by webhook (Standard Webhooks; bodies: the WebhookEvent and WebhookDigest schemas). Every error uses the envelope {success:false, error, code}.',
    },
  });
}
