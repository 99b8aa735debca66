import { z } from 'zod';
import { gapSchema } from '../../lib/core/schemas/snapshot';
import { profileSchema, type Profile } from '../schemas';

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
    secondary_regulators: row.secondary_regulators,
    arip_stage: row.arip_stage,
    gaps: row.gaps,
  });
}
