import { z } from 'zod';
import { READINESS_LABELS, RISK_BANDS } from '../labels';
import { MAX_BADGE_FACE_TEXT, MAX_BADGE_STRING } from '../limits';
import { TONES } from '../palette';
import { snapshotMetaSchema, snapshotSchema, timestampSchema } from './snapshot';
import { isValidTokenShape } from '../token';
import { SNAPSHOT_ERROR_CODES, type SnapshotErrorCode } from '../result-codes';
import { INVALID_REASONS } from '../signing/wire';
import { verifiableCopySchema } from './signing';
import type { SignatureSummary } from '../signing/summary';
import type { SavableCopy } from '../signing/copy';

/**
 * What the snapshot service answers. These cross the messaging boundary, so receivers parse them with
 * these schemas. Times are epoch milliseconds (what the UI components take), except `expiredAt`, which
 * is the API's own ISO timestamp.
 */

// Defined without zod so the content script's guards can check codes too (lib/protocol/guarded/content-answers.ts).
export { SNAPSHOT_ERROR_CODES, type SnapshotErrorCode } from '../result-codes';

const epochMs = z.number().int().nonnegative();

/**
 * How long a snapshot request may take before it is given up (TIMEOUT), hover and watchlist alike
 * (issue #33 item 4); the card says it is still waiting at half of it.
 */
export const SNAPSHOT_DEADLINE_MS = 8_000;

/**
 * What went wrong, in the extension's own terms (the UI words it in the reader's language; issue #33
 * item 6): no connection, no answer in time, the connection dropped while reading, a server fault, a
 * status the API does not define, a body that is not JSON, one that is not a snapshot, one too large.
 */
export const ERROR_REASONS = [
  'unreachable',
  'timeout',
  'interrupted',
  'server-error',
  'unexpected-status',
  'not-json',
  'schema',
  'too-large',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

/**
 * A verified answer as a verifiable copy keeps it, less the time of saving (set when a reader saves
 * it): token-free, so it may travel in messages and storage (lib/core/signing/copy.ts).
 */
export const savableCopySchema = verifiableCopySchema.omit({ saved_at: true }) satisfies z.ZodType<SavableCopy>;
export type { SavableCopy, SignatureSummary };

const verifiedSchema = z.object({ state: z.literal('verified'), kid: z.string().max(200), signedAt: epochMs });
const otherVerdictSchemas = [
  z.object({ state: z.literal('unsigned') }),
  z.object({ state: z.literal('invalid'), reason: z.enum(INVALID_REASONS), message: z.string().max(500) }),
  z.object({ state: z.literal('unchecked'), message: z.string().max(500) }),
] as const;

/**
 * What the background found of the service's signature on the answer (issue #36): verified (by which
 * key, signed when), unsigned (a service that does not sign), invalid (it fails: not presented as the
 * service's), or unchecked (the service's keys could not be fetched to check it).
 */
export const signatureVerdictSchema = z.discriminatedUnion('state', [
  /** `copy`: what "Save a verifiable copy" writes; absent when the service signs no token-free digest. */
  verifiedSchema.extend({ copy: savableCopySchema.optional() }),
  ...otherVerdictSchemas,
]);
/** A verdict as a watch's history keeps it for each refresh: without the copy. */
export const signatureSummarySchema = z.discriminatedUnion('state', [
  verifiedSchema,
  ...otherVerdictSchemas,
]) satisfies z.ZodType<SignatureSummary>;

export function signatureSummary(verdict: SignatureVerdict): SignatureSummary {
  if (verdict.state !== 'verified') return verdict;
  return { state: verdict.state, kid: verdict.kid, signedAt: verdict.signedAt };
}
export type SignatureVerdict = z.infer<typeof signatureVerdictSchema>;

export const snapshotReadySchema = z.object({
  status: z.literal('ready'),
  snapshot: snapshotSchema,
  meta: snapshotMetaSchema,
  fetchedAt: epochMs,
  fromCache: z.boolean(),
  /** Set when the service's `api_version` differs from the one this build understands. */
  apiVersionWarning: z.string().optional(),
  /** The answer's signature, as checked when it was fetched (absent in entries cached before checking). */
  signature: signatureVerdictSchema.optional(),
});
export type SnapshotReady = z.infer<typeof snapshotReadySchema>;

export const snapshotErrorSchema = z.object({
  status: z.literal('error'),
  code: z.enum(SNAPSHOT_ERROR_CODES),
  /** The extension's own account of the failure, in English (logs, exports); the UI words `reason` instead. */
  message: z.string(),
  /** What went wrong, for the technical details the UI words in the reader's language. */
  reason: z.enum(ERROR_REASONS).optional(),
  /** The error text the service itself sent (its envelope's `error`): shown as the service's own words. */
  serviceMessage: z.string().max(1000).optional(),
  /** `schema`: the fields of the answer that did not match the API. */
  fields: z.array(z.string().max(200)).max(10).optional(),
  /** RATE_LIMITED: when the origin may be asked again. */
  retryAt: epochMs.optional(),
  /** EXPIRED: the share's expiry, when known. */
  expiredAt: timestampSchema.optional(),
  /**
   * NOT_FOUND for a link this browser once loaded: the founder withdrew it. The API answers 404 alike
   * for a revoked token and one that never existed, so only what the browser saw tells them apart.
   */
  withdrawn: z.literal(true).optional(),
  /** When the answer came from the network (terminal results from the cache keep it). */
  fetchedAt: epochMs.optional(),
  fromCache: z.boolean().optional(),
  /** NETWORK / INVALID_RESPONSE: the HTTP status, when there was a response. */
  httpStatus: z.number().int().optional(),
  /** FORBIDDEN_ORIGIN: the origin is configured but the user has not granted host access yet. */
  permissionRequired: z.boolean().optional(),
});
export type SnapshotError = z.infer<typeof snapshotErrorSchema>;

export const snapshotResultSchema = z.discriminatedUnion('status', [snapshotReadySchema, snapshotErrorSchema]);
export type SnapshotResult = z.infer<typeof snapshotResultSchema>;

/**
 * All a content script learns of a result: what its badge shows. The snapshot itself (company, gaps,
 * disclaimer) goes only to extension pages, so it never enters a host page's renderer outside the
 * card iframe (DESIGN decision 4).
 */
export const badgeSummarySchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('ready'),
    score: z.int().min(0).max(100),
    label: z.enum(READINESS_LABELS),
    band: z.enum(RISK_BANDS),
    /** The answer's signature fails (issue #36): the badge does not show its figures as the service's. */
    signatureFails: z.literal(true).optional(),
  }),
  z.object({
    state: z.literal('error'),
    code: z.enum(SNAPSHOT_ERROR_CODES),
    retryAt: epochMs.optional(),
    expiredAt: timestampSchema.optional(),
    withdrawn: z.literal(true).optional(),
  }),
]);
export type BadgeSummary = z.infer<typeof badgeSummarySchema>;

/** What a content script paints (lib/core/badge-face.ts), as it crosses the messaging boundary. */
const wordedLook = {
  text: z.string().max(MAX_BADGE_FACE_TEXT),
  tone: z.enum(TONES),
  dashed: z.boolean(),
  mark: z.boolean(),
  label: z.string().max(MAX_BADGE_STRING),
};
export const badgeFaceSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('ready'), ...wordedLook }),
  z.object({
    state: z.literal('error'),
    code: z.enum(SNAPSHOT_ERROR_CODES),
    withdrawn: z.literal(true).optional(),
    retryAt: epochMs.optional(),
    ...wordedLook,
  }),
]);

export function toBadgeSummary(result: SnapshotResult): BadgeSummary {
  if (result.status === 'ready') {
    const { readiness_score: score, readiness_label: label, fundraise_risk_band: band } = result.snapshot.scores;
    return result.signature?.state === 'invalid'
      ? { state: 'ready', score, label, band, signatureFails: true }
      : { state: 'ready', score, label, band };
  }
  const summary: BadgeSummary = { state: 'error', code: result.code };
  if (result.retryAt !== undefined) summary.retryAt = result.retryAt;
  if (result.expiredAt !== undefined) summary.expiredAt = result.expiredAt;
  if (result.withdrawn) summary.withdrawn = true;
  return summary;
}

/** `peek` answers from the cache only: `null` means nothing cached. */
export const peekResultSchema = snapshotResultSchema.nullable();
export type PeekResult = z.infer<typeof peekResultSchema>;

/**
 * A request names a service by origin and a token; never a URL. Shapes are checked here only as far
 * as types go: the service itself re-checks the origin against settings and the token's shape.
 */
export const snapshotRequestSchema = z.object({
  origin: z.string().min(1).max(2048),
  token: z.string().min(1).max(1024),
});
export type SnapshotRequest = z.infer<typeof snapshotRequestSchema>;

export const cachedSummarySchema = z.object({
  origin: z.string(),
  token: z.string().refine(isValidTokenShape),
  storedAt: epochMs,
  /** null: terminal (404/410), kept until the cache is cleared or evicted. */
  expiresAt: epochMs.nullable(),
  result: snapshotResultSchema,
});
export type CachedSummary = z.infer<typeof cachedSummarySchema>;

export function snapshotError(
  code: SnapshotErrorCode,
  message: string,
  extra: Omit<SnapshotError, 'status' | 'code' | 'message'> = {},
): SnapshotError {
  return { status: 'error', code, message, ...extra };
}
