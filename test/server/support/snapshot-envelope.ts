/**
 * Snapshot envelopes for the server's views, made by the server's own builder (`buildSnapshot` in
 * server/snapshots/snapshot.ts) from a database row, so labels, bands, percentages, gap order and links cannot
 * drift from what the API sends.
 */
import { snapshotSuccessEnvelopeSchema, type SnapshotSuccessEnvelope } from '../../../lib/core/schemas/snapshot';
import type { DemoOrganisation } from '../../../server/dev/seed-data';
import { buildSnapshot, type SnapshotContext, type SnapshotRow } from '../../../server/snapshots/snapshot';

/** The row the snapshot query returns for one active link (a DAC custodian with three gaps). */
export const BASE_ROW: SnapshotRow = {
  view_count: 12,
  expires_at: new Date('2026-06-21T17:05:00.000Z'),
  name: 'Ìlú Digital Exchange Ltd',
  pack_generated_at: new Date('2026-06-14T17:05:00.000Z'),
  pack_verification_hash: 'a3f9c21e7b04',
  readiness_score: 78,
  fundraise_score: 58,
  checklist_complete: 36,
  checklist_total: 44,
  product_classification: 'DAC',
  primary_regulator: 'SEC_NIGERIA',
  secondary_regulators: ['CBN', 'NFIU'],
  arip_stage: 'formal_application',
  score_calculated_at: new Date('2026-06-15T08:30:00.000Z'),
  gaps: [
    {
      title: 'Segregation of client digital assets not attested',
      severity: 'critical',
      regulatory_basis: 'SEC Nigeria rules on custody of digital assets.',
    },
    { title: 'Travel Rule not implemented', severity: 'high', regulatory_basis: 'FATF Recommendation 16.' },
    { title: 'Penetration test outdated', severity: 'medium', regulatory_basis: 'SEC Nigeria technology-risk expectations.' },
  ],
};

export const BASE_CONTEXT: SnapshotContext = {
  token: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
  now: new Date('2026-06-16T09:12:45.123Z'),
  publicBaseUrl: 'http://localhost:8787',
  serviceProfileUrl: 'https://service.example/',
};

/**
 * `buildSnapshot` of BASE_ROW changed by `row`, then changed by `mutate` (for values the builder
 * would never produce, e.g. hostile labels), checked against lib's schema.
 */
export function makeEnvelope(
  row: Partial<SnapshotRow> = {},
  mutate?: (envelope: SnapshotSuccessEnvelope) => void,
): SnapshotSuccessEnvelope {
  const envelope = buildSnapshot({ ...BASE_ROW, ...row }, BASE_CONTEXT);
  mutate?.(envelope);
  return snapshotSuccessEnvelopeSchema.parse(envelope);
}

/** What the server would send for a seeded organisation's active link. */
export function envelopeForOrganisation(org: DemoOrganisation): SnapshotSuccessEnvelope {
  return makeEnvelope({ name: org.name, ...org.profile });
}
