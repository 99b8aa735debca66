import { z } from 'zod';
import { gapSchema } from '../../lib/snapshot/schema';

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
