import { z } from 'zod';
import { ARIP_STAGE_CODES, GAP_SEVERITIES, PRODUCT_CLASSIFICATION_CODES, READINESS_LABELS, RISK_BANDS } from '../labels';
import { MAX_DISCLAIMER_LENGTH, WATCHLIST_LIMITS } from '../limits';
import { SNAPSHOT_ERROR_CODES } from '../result-codes';
import { isValidTokenShape } from '../token';
import {
  DEFAULT_WATCH_SETTINGS,
  MAX_INTERVAL_SECONDS,
  MIN_INTERVAL_SECONDS,
  WATCH_CADENCES,
  type WatchSettings,
} from '../watchlist/schedule';
import {
  WATCH_END_CODES,
  WATCH_POINT_SOURCES,
  WATCH_STATUSES,
  type ScoreSample,
  type WatchChange,
  type WatchPoint,
  type WatchPointSource,
  type WatchRecord,
} from '../watchlist/types';
import { savableCopySchema, signatureSummary, signatureSummarySchema, type SavableCopy, type SnapshotReady } from './results';
import { timestampSchema } from './snapshot';

/**
 * The watchlist's shapes as zod schemas, held to the plain types of lib/core/watchlist/types.ts.
 * They parse what comes out of IndexedDB and storage (lib/background/watchlist) and what crosses the
 * pages ↔ background boundary (lib/protocol/pages.ts).
 */

const epochMs = z.int().nonnegative();
const score = z.int().min(0).max(100);

/** Most characters of a company name or gap title a watch keeps. */
export const MAX_WATCHED_TEXT = 1000;
/**
 * A founder's text kept with a watch: a longer one is cut (whole characters) rather than refused, so
 * a long company name cannot make a watch unreadable, or a link impossible to watch. The surfaces cut
 * it further for display (lib/core/display-text.ts).
 */
const watchedText = z
  .string()
  .min(1)
  .transform((text) => (text.length > MAX_WATCHED_TEXT ? Array.from(text).slice(0, MAX_WATCHED_TEXT).join('') : text));

export const watchPointSchema = z.object({
  at: epochMs,
  source: z.enum(WATCH_POINT_SOURCES),
  readinessScore: score,
  readinessLabel: z.enum(READINESS_LABELS),
  fundraiseScore: score,
  riskBand: z.enum(RISK_BANDS),
  checklistPct: score,
  checklistComplete: z.int().nonnegative(),
  checklistTotal: z.int().nonnegative(),
  gaps: z.array(z.object({ title: watchedText, severity: z.enum(GAP_SEVERITIES) })).max(3),
  productClassification: z.enum(PRODUCT_CLASSIFICATION_CODES).nullable(),
  aripStage: z.enum(ARIP_STAGE_CODES).nullable(),
  packHash: z.string().max(256).nullable(),
  packGeneratedAt: timestampSchema.nullable(),
  expiresAt: timestampSchema,
  viewCount: z.int().nonnegative(),
  signature: signatureSummarySchema.optional(),
}) satisfies z.ZodType<WatchPoint>;

/** The figures kept from a snapshot the service answered. */
export function pointFromReady(ready: SnapshotReady, source: WatchPointSource): WatchPoint {
  const { scores, licensing, verification, top_gaps } = ready.snapshot;
  return {
    at: ready.fetchedAt,
    source,
    readinessScore: scores.readiness_score,
    readinessLabel: scores.readiness_label,
    fundraiseScore: scores.fundraise_score,
    riskBand: scores.fundraise_risk_band,
    checklistPct: scores.checklist_completion_pct,
    checklistComplete: scores.checklist_complete,
    checklistTotal: scores.checklist_total,
    gaps: top_gaps.map((gap) => ({ title: gap.title, severity: gap.severity })),
    productClassification: licensing.product_classification,
    aripStage: licensing.arip_stage,
    packHash: verification.pack_verification_hash,
    packGeneratedAt: verification.pack_generated_at,
    expiresAt: verification.share_expires_at,
    viewCount: ready.meta.view_count,
    ...(ready.signature ? { signature: signatureSummary(ready.signature) } : {}),
  };
}

/** The answer's verifiable copy, for the watch to keep with its last refresh (undefined: not verified, or none made). */
export const copyFromReady = (ready: SnapshotReady): SavableCopy | undefined =>
  ready.signature?.state === 'verified' ? ready.signature.copy : undefined;

const scoreSampleSchema = z.object({ at: epochMs, score }) satisfies z.ZodType<ScoreSample>;

/** One id per watch: a random UUID made by the background (never the token, which is a secret). */
export const watchIdSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

export const watchRecordSchema = z.object({
  id: watchIdSchema,
  origin: z.string().min(1).max(2048),
  token: z.string().refine(isValidTokenShape, 'token of valid shape'),
  company: watchedText.nullable(),
  status: z.enum(WATCH_STATUSES),
  end: z.object({ code: z.enum(WATCH_END_CODES), at: epochMs, expiredAt: timestampSchema.optional() }).nullable(),
  muted: z.boolean(),
  watchedAt: epochMs,
  lastRefreshAt: epochMs.nullable(),
  nextDueAt: epochMs.nullable(),
  failures: z.int().nonnegative(),
  lastError: z.object({ code: z.enum(SNAPSHOT_ERROR_CODES), at: epochMs, retryAt: epochMs.optional() }).nullable(),
  latest: watchPointSchema.nullable(),
  previous: watchPointSchema.nullable(),
  series: z.array(scoreSampleSchema).max(WATCHLIST_LIMITS.seriesLength),
  pointCount: z.int().nonnegative(),
  disclaimer: z.string().min(1).max(MAX_DISCLAIMER_LENGTH).nullable(),
  copy: savableCopySchema.optional(),
}) satisfies z.ZodType<WatchRecord>;

export const watchChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('readiness'), from: score, to: score, delta: z.int() }),
  z.object({ kind: z.literal('fundraise'), from: score, to: score, delta: z.int() }),
  z.object({ kind: z.literal('label'), from: z.enum(READINESS_LABELS), to: z.enum(READINESS_LABELS) }),
  z.object({ kind: z.literal('band'), from: z.enum(RISK_BANDS), to: z.enum(RISK_BANDS) }),
  z.object({ kind: z.literal('gap-resolved'), title: z.string(), severity: z.enum(GAP_SEVERITIES), displaced: z.boolean() }),
  z.object({ kind: z.literal('gap-added'), title: z.string(), severity: z.enum(GAP_SEVERITIES) }),
  z.object({ kind: z.literal('gap-severity'), title: z.string(), from: z.enum(GAP_SEVERITIES), to: z.enum(GAP_SEVERITIES) }),
  z.object({ kind: z.literal('checklist'), from: score, to: score }),
  z.object({ kind: z.literal('arip'), from: z.enum(ARIP_STAGE_CODES).nullable(), to: z.enum(ARIP_STAGE_CODES).nullable() }),
  z.object({
    kind: z.literal('classification'),
    from: z.enum(PRODUCT_CLASSIFICATION_CODES).nullable(),
    to: z.enum(PRODUCT_CLASSIFICATION_CODES).nullable(),
  }),
  z.object({ kind: z.literal('new-pack'), hash: z.string().nullable(), generatedAt: timestampSchema.nullable() }),
  z.object({ kind: z.literal('expiring'), expiresAt: timestampSchema }),
  z.object({ kind: z.literal('ended'), code: z.enum(WATCH_END_CODES) }),
]) satisfies z.ZodType<WatchChange>;

/** Strict: what may be written (the options page). */
export const watchSettingsSchema = z.object({
  cadence: z.enum(WATCH_CADENCES),
  intervalSeconds: z.int().min(MIN_INTERVAL_SECONDS).max(MAX_INTERVAL_SECONDS),
  notifications: z.boolean(),
}) satisfies z.ZodType<WatchSettings>;

/** Lenient: what is read. Each field falls back to its default on its own. */
export const storedWatchSettingsSchema = z
  .object({
    cadence: watchSettingsSchema.shape.cadence.catch(DEFAULT_WATCH_SETTINGS.cadence),
    intervalSeconds: watchSettingsSchema.shape.intervalSeconds.catch(DEFAULT_WATCH_SETTINGS.intervalSeconds),
    notifications: watchSettingsSchema.shape.notifications.catch(DEFAULT_WATCH_SETTINGS.notifications),
  })
  .catch(() => ({ ...DEFAULT_WATCH_SETTINGS }));
