/**
 * Machine-readable error codes. The first three are the spec's (part 7); the rest are ours, for what
 * the spec leaves "not shown" (see docs/api-decisions.md).
 */
export const API_ERROR_CODES = [
  'NOT_FOUND',
  'EXPIRED',
  'RATE_LIMITED',
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'TIER_REQUIRED',
  'PACK_REQUIRED',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INTERNAL_ERROR',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
