/**
 * A company's profile: what the founder API accepts, what the database holds, and what every
 * snapshot is built from. One schema for all three.
 */
import { z } from 'zod';
import { ARIP_STAGE_CODES, GAP_SEVERITIES, PRODUCT_CLASSIFICATION_CODES } from '../../lib/core/labels';
import { gapSchema } from '../../lib/core/schemas/snapshot';
import { storableText } from '../platform/http/body';

const score = z.int().min(0).max(100);
const count = z.int().min(0).max(100_000);
/** Regulator codes are upper-case identifiers such as SEC_NIGERIA or CBN. */
export const regulatorCode = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]{0,39}$/, 'must be an upper-case regulator code such as SEC_NIGERIA or CBN');

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

/**
 * A regulator is listed once: the primary is not repeated among the secondary regulators, and no
 * secondary twice (first mention kept). Making a secondary regulator the primary moves it, which is
 * what a founder who sets it means (docs/api-decisions.md, "Regulators listed once").
 */
export function otherRegulators(primary: string | null, secondary: readonly string[]): string[] {
  return [...new Set(secondary)].filter((code) => code !== primary);
}

/** The organisation profile columns (plus its gaps) as queries return them; shared by row schemas. */
export const profileRowShape = {
  readiness_score: z.number(),
  fundraise_score: z.number(),
  checklist_complete: z.number(),
  checklist_total: z.number(),
  product_classification: z.string().nullable(),
  primary_regulator: z.string().nullable(),
  secondary_regulators: z.array(z.string()),
  arip_stage: z.string().nullable(),
  score_calculated_at: z.date(),
  gaps: z.array(gapSchema),
};

type ProfileRow = z.infer<z.ZodObject<typeof profileRowShape>>;

/** The founder profile held in a row. Its codes were validated on the way in; parsing again keeps the types honest. */
export function profileOfRow(row: ProfileRow): Profile {
  return profileSchema.parse({
    readiness_score: row.readiness_score,
    fundraise_score: row.fundraise_score,
    checklist_complete: row.checklist_complete,
    checklist_total: row.checklist_total,
    product_classification: row.product_classification,
    primary_regulator: row.primary_regulator,
    // Rows written before regulators were listed once may still repeat one.
    secondary_regulators: otherRegulators(row.primary_regulator, row.secondary_regulators),
    arip_stage: row.arip_stage,
    gaps: row.gaps,
  });
}
