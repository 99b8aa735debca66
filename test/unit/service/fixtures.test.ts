import { describe, expect, it } from 'vitest';
import { isValidTokenShape } from '@/lib/core/token';
import { errorEnvelopeSchema, snapshotSuccessEnvelopeSchema } from '@/lib/core/schemas/snapshot';
import {
  FIXTURE_TOKEN,
  buildErrorEnvelope,
  buildSuccessEnvelope,
  fixtureToken,
} from '@/test/fixtures/snapshot';

describe('snapshot fixtures', () => {
  it.each([
    ['defaults', {}],
    ['critical, high risk', { scores: { readiness_score: 12, fundraise_score: 5 } }],
    ['regulator ready, no gaps', { scores: { readiness_score: 95, fundraise_score: 92 }, top_gaps: [] }],
    ['null licensing', { licensing: { product_classification: null, product_classification_label: null, arip_stage: null, arip_stage_label: null, primary_regulator: null } }],
  ])('%s pass lib’s success-envelope schema', (_name, overrides) => {
    expect(snapshotSuccessEnvelopeSchema.safeParse(buildSuccessEnvelope(overrides)).success).toBe(true);
  });

  it('builds error envelopes that pass lib’s schema', () => {
    expect(errorEnvelopeSchema.safeParse(buildErrorEnvelope('NOT_FOUND')).success).toBe(true);
  });

  it('issues valid, distinct tokens', () => {
    expect(isValidTokenShape(FIXTURE_TOKEN)).toBe(true);
    expect(isValidTokenShape(fixtureToken(1))).toBe(true);
    expect(fixtureToken(1)).not.toBe(fixtureToken(2));
  });
});
