/** Codes of a failed snapshot result. zod-free: the content script checks them with its own guards. */
export const SNAPSHOT_ERROR_CODES = [
  'NOT_FOUND',
  'EXPIRED',
  'RATE_LIMITED',
  'NETWORK',
  'TIMEOUT',
  'INVALID_RESPONSE',
  'FORBIDDEN_ORIGIN',
] as const;
export type SnapshotErrorCode = (typeof SNAPSHOT_ERROR_CODES)[number];
