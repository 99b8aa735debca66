/**
 * What a follow remembers of its company: the figures its snapshot shows (a `WatchPoint`, made by the
 * extension's own `pointFromReady` from the server's own `buildSnapshot`), plus what the point leaves
 * out and the server's events need: the regulators and the titles of every open gap (the snapshot
 * lists the top 3 only). Read inside the transaction of the change that moved it.
 */
import { z } from 'zod';
import { GAP_SEVERITIES } from '../../../lib/core/labels';
import { pointFromReady, watchPointSchema } from '../../../lib/core/schemas/watchlist';
import type { WatchPoint } from '../../../lib/core/watchlist/types';
import type { RegulatorSet } from '../../../lib/core/watchlist/regulators';
import type { Queryable } from '../../platform/db/driver';
import { otherRegulators, profileRowShape } from '../../snapshots/profile';
import { buildSnapshot, type SnapshotRow } from '../../snapshots/snapshot';
import type { SnapshotSuccessEnvelope } from '../../../lib/core/schemas/snapshot';

export interface FollowState {
  point: WatchPoint;
  regulators: RegulatorSet;
  /** Titles of all the company's open gaps: tells a gap that left the top 3 from one that was resolved. */
  openGaps: string[];
}

/**
 * A stored baseline. Its gap list may hold more than the snapshot's 3: a change held back by a rule is
 * kept as it was (see changes.ts), so a held-back resolution keeps its gap.
 */
export const followStateSchema = z.object({
  point: watchPointSchema.extend({
    gaps: z.array(z.object({ title: z.string().min(1).max(1000), severity: z.enum(GAP_SEVERITIES) })).max(100),
  }),
  regulators: z.object({ primary: z.string().nullable(), secondary: z.array(z.string()) }),
  openGaps: z.array(z.string()),
}) satisfies z.ZodType<FollowState>;

const linkStateRow = z.object({
  link_id: z.string(),
  org_id: z.string(),
  view_count: z.number(),
  expires_at: z.date(),
  revoked_at: z.date().nullable(),
  name: z.string(),
  pack_generated_at: z.date().nullable(),
  pack_verification_hash: z.string().nullable(),
  latest_pack_generated_at: z.date().nullable(),
  latest_pack_hash: z.string().nullable(),
  ...profileRowShape,
});

export interface LinkState {
  linkId: string;
  orgId: string;
  company: string;
  expiresAt: Date;
  revokedAt: Date | null;
  /** What `GET /api/v1/compliance-status/{token}` would answer now (its links left out: the token is not stored). */
  snapshot: SnapshotSuccessEnvelope;
  state: FollowState;
}

const LINK_STATE_SQL = `
SELECT l.id AS link_id, l.org_id, l.view_count, l.expires_at, l.revoked_at, o.name, o.readiness_score, o.fundraise_score,
  o.checklist_complete, o.checklist_total, o.product_classification, o.primary_regulator, o.secondary_regulators,
  o.arip_stage, o.score_calculated_at, p.generated_at AS pack_generated_at, p.verification_hash AS pack_verification_hash,
  lp.generated_at AS latest_pack_generated_at, lp.verification_hash AS latest_pack_hash,
  COALESCE((SELECT json_agg(json_build_object('title', g.title, 'severity', g.severity,
    'regulatory_basis', g.regulatory_basis) ORDER BY g.position) FROM gaps g WHERE g.org_id = o.id), '[]'::json) AS gaps
FROM share_links l
JOIN organisations o ON o.id = l.org_id
LEFT JOIN dd_packs p ON p.id = l.pack_id
LEFT JOIN LATERAL (SELECT generated_at, verification_hash FROM dd_packs d WHERE d.org_id = o.id
  ORDER BY d.generated_at DESC, d.id DESC LIMIT 1) lp ON true
WHERE l.id IN (SELECT jsonb_array_elements_text($1::jsonb))`;

/** Stands in for the token in snapshots built for events: a point keeps no links. */
const NO_TOKEN = 'token-not-stored';

export interface SnapshotLinks {
  publicBaseUrl: string;
  serviceProfileUrl: string;
}

const EVENT_LINKS: SnapshotLinks = { publicBaseUrl: 'http://localhost', serviceProfileUrl: 'https://service.example/' };

export function stateOf(
  row: SnapshotRow,
  latestPack: { generatedAt: Date | null; hash: string | null },
  now: Date,
): {
  snapshot: SnapshotSuccessEnvelope;
  state: FollowState;
} {
  const snapshot = buildSnapshot(row, { token: NO_TOKEN, now, ...EVENT_LINKS });
  const point = pointFromReady(
    { status: 'ready', snapshot: snapshot.data, meta: snapshot.meta, fetchedAt: now.getTime(), fromCache: false },
    'scheduled',
  );
  // A link stays bound to the pack it was made with; a follow tracks the company's newest one, so a
  // partner hears of a new pack (and can ask the founder for a link to it).
  point.packHash = latestPack.hash;
  point.packGeneratedAt = latestPack.generatedAt?.toISOString() ?? null;
  return {
    snapshot,
    state: {
      point,
      regulators: { primary: row.primary_regulator, secondary: otherRegulators(row.primary_regulator, row.secondary_regulators) },
      openGaps: row.gaps.map((gap) => gap.title.trim()),
    },
  };
}

/** The current state of each of these share links (revoked and expired ones included). */
export async function readLinkStates(q: Queryable, linkIds: readonly string[], now: Date): Promise<Map<string, LinkState>> {
  const states = new Map<string, LinkState>();
  if (linkIds.length === 0) return states;
  const result = await q.query(LINK_STATE_SQL, [JSON.stringify(linkIds)]);
  for (const raw of result.rows) {
    const row = linkStateRow.parse(raw);
    const { snapshot, state } = stateOf(row, { generatedAt: row.latest_pack_generated_at, hash: row.latest_pack_hash }, now);
    states.set(row.link_id, {
      linkId: row.link_id,
      orgId: row.org_id,
      company: row.name,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
      snapshot,
      state,
    });
  }
  return states;
}
