import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { API_ERROR_CODES } from '../../../lib/core/api-errors';
import type { ErrorEnvelope } from '../../../lib/core/schemas/snapshot';

/**
 * Codes that only the bundled server's local defences answer with (docs/security.md section 5): the
 * snapshot API a reader sees never produces them, so they stay out of lib's shared list.
 */
export const LOCAL_DEFENCE_ERROR_CODES = ['HOST_NOT_ALLOWED', 'CROSS_ORIGIN_REQUEST'] as const;
/**
 * Codes of version 1's partner and operator APIs (docs/api-decisions.md): a request that conflicts
 * with the state of what it names (e.g. rotating a revoked key). The snapshot endpoint never answers them.
 */
export const V1_ERROR_CODES = ['CONFLICT'] as const;
/** Every code the bundled server can answer with. */
export const SERVER_ERROR_CODES = [...API_ERROR_CODES, ...LOCAL_DEFENCE_ERROR_CODES, ...V1_ERROR_CODES] as const;
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

/** A failure with a known status and code; anything else thrown becomes 500 INTERNAL_ERROR. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ServerErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function errorEnvelope(code: ServerErrorCode, message: string): ErrorEnvelope {
  return { success: false, error: message, code };
}

export function sendError(c: Context, status: ContentfulStatusCode, code: ServerErrorCode, message: string): Response {
  return c.json(errorEnvelope(code, message), status);
}

/**
 * One message for unknown, malformed and revoked tokens, so a caller cannot tell them apart.
 */
export const TOKEN_NOT_FOUND_MESSAGE = 'No compliance snapshot is available for this share token.';
export const EXPIRED_MESSAGE = 'This share link has expired. Ask the founder for a new link.';
export const RATE_LIMITED_MESSAGE = 'Too many requests: the limit is 60 per minute per client address.';
export const INTERNAL_ERROR_MESSAGE = 'Internal server error.';
export const HOST_NOT_ALLOWED_MESSAGE =
  'This server does not answer requests addressed to this host name (Host header). It answers localhost, 127.0.0.1, ' +
  '[::1] and the names it was started with; start it with --allowed-host NAME to add one. Refusing other names ' +
  'keeps a web page that rebinds its own domain to this machine (DNS rebinding) from reading or driving it.';
export const CROSS_ORIGIN_REQUEST_MESSAGE =
  'Cross-origin browser requests cannot change state on this server: the Origin or Sec-Fetch-Site header shows ' +
  'this request comes from another web page. Call the founder and dev APIs from a script, test or terminal.';
