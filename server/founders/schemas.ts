/**
 * zod schemas of the founder API: request bodies and the shapes answered. They feed request
 * validation and the OpenAPI document (founders/routes.ts).
 */
import { z } from 'zod';
import { ARIP_STAGE_CODES, PRODUCT_CLASSIFICATION_CODES, READINESS_LABELS, RISK_BANDS } from '../../lib/core/labels';
import { gapSchema, timestampSchema } from '../../lib/core/schemas/snapshot';
import { storableText } from '../platform/http/body';
import { profileFields } from '../snapshots/profile';

export const SUBSCRIPTION_TIERS = ['starter', 'growth', 'scale'] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];
/** Fundraising mode (DD packs, share links) needs `growth` or higher. */
export const TIER_RANK: Readonly<Record<SubscriptionTier, number>> = { starter: 0, growth: 1, scale: 2 };

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

const score = z.int().min(0).max(100);
const count = z.int().min(0).max(100_000);

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
  /** Version 1: reads by partners (a follow's first snapshot, one per follow per change), apart from investor views. */
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
