import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorCode } from '../../lib/api/errors';
import type { ErrorEnvelope } from '../../lib/snapshot/schema';

/** A failure with a known status and code; anything else thrown becomes 500 INTERNAL_ERROR. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function errorEnvelope(code: ApiErrorCode, message: string): ErrorEnvelope {
  return { success: false, error: message, code };
}

export function sendError(c: Context, status: ContentfulStatusCode, code: ApiErrorCode, message: string): Response {
  return c.json(errorEnvelope(code, message), status);
}

/**
 * One message for unknown, malformed and revoked tokens, so a caller cannot tell them apart.
 */
export const TOKEN_NOT_FOUND_MESSAGE = 'No compliance snapshot is available for this share token.';
export const EXPIRED_MESSAGE = 'This share link has expired. Ask the founder for a new link.';
export const RATE_LIMITED_MESSAGE = 'Too many requests: the limit is 60 per minute per client address.';
export const INTERNAL_ERROR_MESSAGE = 'Internal server error.';
