/**
 * The pieces every route declaration shares (envelopes, error answers, auth schemes, quota headers),
 * and the document itself: `GET /api/openapi.json` is generated from the routes the app serves
 * (server/platform/http/routes.ts), so a route that is not mounted (dev, operator) is not listed.
 */
import type { RouteConfig } from '@hono/zod-openapi';
import { z } from 'zod';
import { API_VERSION } from '../../../lib/core/labels';
import { SERVER_ERROR_CODES, type ServerErrorCode } from './errors';
import type { ServerApp } from './routes';

const errorEnvelope = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.enum(SERVER_ERROR_CODES),
});

/** `{ success: true, data, meta: {} }` */
export const success = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data, meta: z.object({}) });

export const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { description: 'e.g. `60;w=60`', schema: { type: 'string' as const } },
  'RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'integer' as const } },
  'RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' as const } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' as const } },
};

type Responses = RouteConfig['responses'];

/** Error answers by status, each naming its codes ("Error: TIER_REQUIRED, CROSS_ORIGIN_REQUEST"). */
export function errors(entries: Partial<Record<number, readonly ServerErrorCode[]>>): Responses {
  const responses: Responses = {};
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

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A JSON request body; `required: false` when an empty body (counted as `{}`) will do. */
export const jsonBody = <T extends z.ZodType>(schema: T, required = true) => ({
  required,
  content: { 'application/json': { schema } },
});

/** 421: a `Host` the server was not started with (DNS-rebinding defence), on every path. */
export const COMMON_ERRORS = { 405: ['METHOD_NOT_ALLOWED'], 421: ['HOST_NOT_ALLOWED'], 500: ['INTERNAL_ERROR'] } as const;
export const BODY_ERRORS = { 400: ['VALIDATION_ERROR'], 413: ['PAYLOAD_TOO_LARGE'], 415: ['UNSUPPORTED_MEDIA_TYPE'] } as const;
/** Founder, operator and dev writes refuse requests a browser marks as coming from another web page. */
export const WRITE_ERRORS = { ...BODY_ERRORS, 403: ['CROSS_ORIGIN_REQUEST'] } as const;

export const SECURITY = {
  founderKey: [{ founderKey: [] }],
  partnerKey: [{ partnerKey: [] }],
  operatorSecret: [{ operatorSecret: [] }],
};

/** Every keyed response carries the key's quota headers (IETF structured form). */
const KEY_QUOTA_HEADERS = {
  'RateLimit-Policy': { description: 'e.g. `"partner";q=120;w=60`', schema: { type: 'string' as const } },
  RateLimit: { description: 'e.g. `"partner";r=119;t=42`', schema: { type: 'string' as const } },
};
export const KEYED_ERRORS = { 401: ['UNAUTHORIZED'], 429: ['RATE_LIMITED'], ...COMMON_ERRORS } as const;
/** A success answer of the partner API, with the key's quota headers. */
export const keyed = <T extends z.ZodType>(schema: T, description: string) => ({
  ...json(schema, description),
  headers: KEY_QUOTA_HEADERS,
});

/** A path parameter that is an id; one that cannot be an id is answered like an unknown one, with `notFound`. */
export const idParams = (notFound: string) =>
  z.object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, notFound),
  });

/** The security schemes the routes name. */
export function registerSecuritySchemes(app: ServerApp): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'founderKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'The founder_key returned at sign-up',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'partnerKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'A partner key (pk_…) from the operator; its own quota per minute',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'operatorSecret', {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator secret the server was started with (--operator-secret)',
  });
}

/** The OpenAPI 3.1 document of what `app` serves. */
export function openApiDocument(app: ServerApp): unknown {
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Compliance status sharing service (Compliance Lens dev server)',
      version: API_VERSION,
      description:
        'Read-only compliance snapshots behind founder-created share tokens, plus the founder and dev APIs of the bundled server, and version 1: partner keys, follows and signed change events delivered by webhook (Standard Webhooks; bodies: the followEvent and digest webhooks). Every error uses the envelope {success:false, error, code}.',
    },
  });
}
