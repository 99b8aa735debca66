import { z } from 'zod';
import { ARIP_STAGE_CODES, GAP_SEVERITIES, PRODUCT_CLASSIFICATION_CODES, READINESS_LABELS, RISK_BANDS } from '../labels';
import { MAX_DISCLAIMER_LENGTH } from '../limits';

/**
 * zod schemas of the wire format (spec part 2). Objects strip unknown keys, so extra fields from a
 * newer server are tolerated; missing or mistyped known fields are rejected.
 */

/** ISO 8601 in UTC. The server always sends milliseconds and `Z`; readers accept any offset. */
export const timestampSchema = z.iso.datetime({ offset: true });

const score = z.int().min(0).max(100);

export const gapSchema = z.object({
  title: z.string().min(1),
  severity: z.enum(GAP_SEVERITIES),
  regulatory_basis: z.string(),
});

export const snapshotSchema = z.object({
  api_version: z.string().min(1),
  company: z.object({ name: z.string().min(1) }),
  scores: z.object({
    readiness_score: score,
    readiness_label: z.enum(READINESS_LABELS),
    fundraise_score: score,
    fundraise_risk_band: z.enum(RISK_BANDS),
    fundraise_risk_label: z.string(),
    checklist_completion_pct: z.int().min(0).max(100),
    checklist_complete: z.int().min(0),
    checklist_total: z.int().min(0),
  }),
  licensing: z.object({
    product_classification: z.enum(PRODUCT_CLASSIFICATION_CODES).nullable(),
    product_classification_label: z.string().nullable(),
    primary_regulator: z.string().nullable(),
    secondary_regulators: z.array(z.string()),
    arip_stage: z.enum(ARIP_STAGE_CODES).nullable(),
    arip_stage_label: z.string().nullable(),
  }),
  verification: z.object({
    last_score_calculated_at: timestampSchema,
    pack_generated_at: timestampSchema.nullable(),
    pack_verification_hash: z.string().nullable(),
    share_expires_at: timestampSchema,
    snapshot_at: timestampSchema,
  }),
  top_gaps: z.array(gapSchema).max(3),
  links: z.object({
    human_summary_url: z.url(),
    service_profile_url: z.url(),
  }),
  disclaimer: z.string().min(1).max(MAX_DISCLAIMER_LENGTH),
});

export const snapshotMetaSchema = z.object({
  token_status: z.string(),
  view_count: z.int().min(0),
});

export const snapshotSuccessEnvelopeSchema = z.object({
  success: z.literal(true),
  data: snapshotSchema,
  meta: snapshotMetaSchema,
});

export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string().min(1),
});

/** Either envelope, discriminated on `success`. */
export const snapshotResponseSchema = z.discriminatedUnion('success', [snapshotSuccessEnvelopeSchema, errorEnvelopeSchema]);

export type Gap = z.infer<typeof gapSchema>;
export type Snapshot = z.infer<typeof snapshotSchema>;
export type SnapshotMeta = z.infer<typeof snapshotMetaSchema>;
export type SnapshotSuccessEnvelope = z.infer<typeof snapshotSuccessEnvelopeSchema>;
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
