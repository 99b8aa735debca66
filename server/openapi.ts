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
  for (const route of routes) doc.openAPIRegistry.registerPath(route);
  if (options.dev) for (const route of devRoutes) doc.openAPIRegistry.registerPath(route);
  return doc.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Compliance status sharing service (Compliance Lens dev server)',
      version: API_VERSION,
      description:
        'Read-only compliance snapshots behind founder-created share tokens, plus the founder and dev APIs of the bundled server. Every error uses the envelope {success:false, error, code}.',
    },
  });
}
