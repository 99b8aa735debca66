/**
 * zod schemas of the server's own API (founder, dev, health). The snapshot's schemas live in
 * lib/core/schemas/snapshot.ts; both sets feed request validation and the OpenAPI document.
 */
import { z } from 'zod';
import { API_ERROR_CODES } from '../lib/core/api-errors';
import { ARIP_STAGE_CODES, GAP_SEVERITIES, PRODUCT_CLASSIFICATION_CODES, READINESS_LABELS, RISK_BANDS } from '../lib/core/labels';
import { gapSchema, timestampSchema } from '../lib/core/schemas/snapshot';

export const SUBSCRIPTION_TIERS = ['starter', 'growth', 'scale'] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];
/** Fundraising mode (DD packs, share links) needs `growth` or higher. */
export const TIER_RANK: Readonly<Record<SubscriptionTier, number>> = { starter: 0, growth: 1, scale: 2 };

const score = z.int().min(0).max(100);
const count = z.int().min(0).max(100_000);
/** Regulator codes are upper-case identifiers such as SEC_NIGERIA or CBN. */
export const regulatorCode = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]{0,39}$/, 'must be an upper-case regulator code such as SEC_NIGERIA or CBN');

/** A NUL (U+0000) or an unpaired UTF-16 surrogate: PostgreSQL text cannot hold the first (500 before this check) and would silently mangle the second. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Free text that is stored: refused with 400 VALIDATION_ERROR when the database could not keep it as sent. */
export function storableText(schema: z.ZodString): z.ZodString {
  return schema.refine((value) => !UNSTORABLE.test(value), 'must not contain NUL characters or unpaired surrogates');
}

export const gapInputSchema = z.strictObject({
  title: storableText(z.string().trim().min(1).max(200)),
  severity: z.enum(GAP_SEVERITIES),
  regulatory_basis: storableText(z.string().trim().max(2000)),
});

export const profileFields = {
  readiness_score: score,
  fundraise_score: score,
  checklist_complete: count,
  checklist_total: count,
  product_classification: z.enum(PRODUCT_CLASSIFICATION_CODES).nullable(),
  primary_regulator: regulatorCode.nullable(),
  secondary_regulators: z.array(regulatorCode).max(20),
  arip_stage: z.enum(ARIP_STAGE_CODES).nullable(),
  gaps: z.array(gapInputSchema).max(50),
};

export const profileSchema = z.object(profileFields);
export type Profile = z.infer<typeof profileSchema>;

/** A new organisation starts with an empty profile unless the body says otherwise. */
export const EMPTY_PROFILE: Profile = {
  readiness_score: 0,
  fundraise_score: 0,
  checklist_complete: 0,
  checklist_total: 0,
  product_classification: null,
  primary_regulator: null,
  secondary_regulators: [],
  arip_stage: null,
  gaps: [],
};

const nameSchema = storableText(z.string().trim().min(1).max(200));

export const createOrganisationBody = z.strictObject({
  name: nameSchema,
  subscription_tier: z.enum(SUBSCRIPTION_TIERS),
  ...z.object(profileFields).partial().shape,
});
export type CreateOrganisationBody = z.infer<typeof createOrganisationBody>;

export const updateOrganisationBody = z
  .strictObject({
    name: nameSchema,
    subscription_tier: z.enum(SUBSCRIPTION_TIERS),
    ...z.object(profileFields).shape,
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'at least one field must be given' });
export type UpdateOrganisationBody = z.infer<typeof updateOrganisationBody>;

/** Optional label for a new share link (shown to the founder only). */
export const createShareLinkBody = z.strictObject({ label: storableText(z.string().trim().min(1).max(120)).optional() });
export const emptyBody = z.strictObject({});

export const organisationSchema = z.object({
  id: z.string(),
  name: z.string(),
  subscription_tier: z.enum(SUBSCRIPTION_TIERS),
  readiness_score: score,
  readiness_label: z.enum(READINESS_LABELS),
  fundraise_score: score,
  fundraise_risk_band: z.enum(RISK_BANDS),
  checklist_complete: count,
  checklist_total: count,
  checklist_completion_pct: z.int().min(0).max(100),
  product_classification: z.enum(PRODUCT_CLASSIFICATION_CODES).nullable(),
  primary_regulator: z.string().nullable(),
  secondary_regulators: z.array(z.string()),
  arip_stage: z.enum(ARIP_STAGE_CODES).nullable(),
  gaps: z.array(gapSchema),
  created_at: timestampSchema,
  last_score_calculated_at: timestampSchema,
});
export type OrganisationView = z.infer<typeof organisationSchema>;

export const packSchema = z.object({
  id: z.string(),
  generated_at: timestampSchema,
  verification_hash: z.string().regex(/^[0-9a-f]{12}$/),
});
export type PackView = z.infer<typeof packSchema>;

export const SHARE_LINK_STATUSES = ['active', 'revoked', 'expired'] as const;
export type ShareLinkStatus = (typeof SHARE_LINK_STATUSES)[number];

export const shareLinkSummarySchema = z.object({
  id: z.string(),
  label: z.string().nullable(),
  status: z.enum(SHARE_LINK_STATUSES),
  view_count: z.int().min(0),
  /** Version 1: reads by partners (a follow's first snapshot, each change event), apart from investor views. */
  partner_view_count: z.int().min(0),
  pack_id: z.string(),
  created_at: timestampSchema,
  expires_at: timestampSchema,
  revoked_at: timestampSchema.nullable(),
});
export type ShareLinkSummary = z.infer<typeof shareLinkSummarySchema>;

export const createdShareLinkSchema = shareLinkSummarySchema.extend({
  token: z.string(),
  api_url: z.url(),
  share_url: z.url(),
});

export const devClockBody = z.strictObject({
  advance_ms: z
    .int()
    .min(0)
    .max(366 * 24 * 60 * 60 * 1000),
});

export const devClockData = z.object({ now: timestampSchema });

export const healthData = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), latency_ms: z.number().nullable(), driver: z.enum(['pglite', 'postgres']) }),
  api_version: z.string(),
  uptime_s: z.number(),
});

export const apiErrorCodeSchema = z.enum(API_ERROR_CODES);
