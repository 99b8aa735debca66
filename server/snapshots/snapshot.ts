/**
 * The compliance-status snapshot (spec parts 2, 4, 7): one SQL statement on the success path that
 * counts the view and reads everything the snapshot needs (GET), or only reads it (HEAD), then a pure
 * builder.
 */
import { z } from 'zod';
import {
  API_VERSION,
  ARIP_STAGES,
  GAP_SEVERITY_RANK,
  PRODUCT_CLASSIFICATIONS,
  RISK_BAND_MEANINGS,
  checklistCompletionPct,
  readinessLabelFor,
  riskBandFor,
} from '../../lib/core/labels';
import type { Gap, SnapshotSuccessEnvelope } from '../../lib/core/schemas/snapshot';
import { isValidTokenShape } from '../../lib/core/token';
import type { Queryable } from '../platform/db/driver';
import { sha256Hex } from '../platform/tokens';
import { shareUrl } from './paths';
import { profileOfRow, profileRowShape } from './profile';

export const DISCLAIMER =
  'This snapshot is an AI-assisted self-assessment based on information the founder maintains in the service. ' +
  'It is regulatory information, not legal advice, and it is not an opinion, licence, certification or guarantee ' +
  'of compliance or licence status from the service or any regulator. ' +
  'Readers must carry out their own independent due diligence before relying on it.';

export const TOP_GAPS_LIMIT = 3;

const snapshotRow = z.object({
  view_count: z.number(),
  expires_at: z.date(),
  name: z.string(),
  pack_generated_at: z.date().nullable(),
  pack_verification_hash: z.string().nullable(),
  ...profileRowShape,
});
export type SnapshotRow = z.infer<typeof snapshotRow>;

/** Everything the snapshot needs, read for the one link selected by the CTE `hit` (`$1` token hash, `$2` now). */
const snapshotStatement = (hit: string) => `
WITH hit AS (${hit})
SELECT hit.view_count, hit.expires_at, o.name, o.readiness_score, o.fundraise_score, o.checklist_complete,
  o.checklist_total, o.product_classification, o.primary_regulator, o.secondary_regulators, o.arip_stage,
  o.score_calculated_at, p.generated_at AS pack_generated_at, p.verification_hash AS pack_verification_hash,
  COALESCE((SELECT json_agg(json_build_object('title', g.title, 'severity', g.severity,
    'regulatory_basis', g.regulatory_basis) ORDER BY g.position) FROM gaps g WHERE g.org_id = hit.org_id), '[]'::json) AS gaps
FROM hit
JOIN organisations o ON o.id = hit.org_id
LEFT JOIN dd_packs p ON p.id = hit.pack_id`;

// Counting and reading in one statement: the UPDATE takes the row lock, so concurrent views
// serialise on it (no lost increments). $3 is the number of views counted at once (see ViewCounter).
const COUNT_AND_READ = snapshotStatement(`
  UPDATE share_links SET view_count = view_count + $3::int
  WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2::timestamptz
  RETURNING org_id, pack_id, expires_at, view_count`);

// The same read without the UPDATE (HEAD): same validity test, no row lock, no count.
const READ_ONLY = snapshotStatement(`
  SELECT org_id, pack_id, expires_at, view_count FROM share_links
  WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2::timestamptz`);

const stateRow = z.object({ expires_at: z.date(), revoked_at: z.date().nullable() });

export type SnapshotLookup = { status: 'ok'; row: SnapshotRow } | { status: 'not_found' } | { status: 'expired' };

/** Failure path only: was the link expired (410) or unknown/revoked (404)? */
async function missedLookup(db: Queryable, tokenHash: string, now: Date): Promise<SnapshotLookup> {
  const state = await db.query('SELECT expires_at, revoked_at FROM share_links WHERE token_hash = $1', [tokenHash]);
  const link = state.rows[0] === undefined ? undefined : stateRow.parse(state.rows[0]);
  if (link && link.revoked_at === null && link.expires_at.getTime() <= now.getTime()) return { status: 'expired' };
  return { status: 'not_found' };
}

async function countViews(db: Queryable, tokenHash: string, views: number, now: Date): Promise<SnapshotLookup> {
  const hit = await db.query(COUNT_AND_READ, [tokenHash, now.toISOString(), views]);
  const row = hit.rows[0];
  if (row !== undefined) return { status: 'ok', row: snapshotRow.parse(row) };
  return missedLookup(db, tokenHash, now);
}

async function readSnapshot(db: Queryable, tokenHash: string, now: Date): Promise<SnapshotLookup> {
  const hit = await db.query(READ_ONLY, [tokenHash, now.toISOString()]);
  const row = hit.rows[0];
  if (row !== undefined) return { status: 'ok', row: snapshotRow.parse(row) };
  return missedLookup(db, tokenHash, now);
}

interface Waiter {
  resolve(lookup: SnapshotLookup): void;
  reject(error: unknown): void;
}

/**
 * Counts views and reads snapshots. Requests for one token that arrive while that token's statement
 * is running are counted together by the next statement (`view_count + n`), and each waiter gets its
 * own number from the returned total (total − n + 1 … total): still one atomic UPDATE per batch, no
 * lost or shared counts, and under load one statement serves many requests (PGlite runs on the event
 * loop thread, so per-request statements would cap throughput far below the budget).
 */
export class ViewCounter {
  private readonly running = new Set<string>();
  private readonly queued = new Map<string, Waiter[]>();

  constructor(
    private readonly db: Queryable,
    private readonly now: () => Date,
  ) {}

  /**
   * What a request for `token` answers. GET is a view: it is counted. HEAD (link checkers, chat
   * unfurlers, `curl -I`) gets the same status and headers but reads without counting: a view is a
   * successful read of the snapshot, and HEAD returns none.
   */
  lookup(method: string, token: string): Promise<SnapshotLookup> {
    return method === 'HEAD' ? this.peek(token) : this.count(token);
  }

  /** Reads the snapshot without counting a view; outcomes as `count` (200 data, 404, 410). */
  peek(token: string): Promise<SnapshotLookup> {
    if (!isValidTokenShape(token)) return Promise.resolve({ status: 'not_found' });
    return readSnapshot(this.db, sha256Hex(token), this.now());
  }

  /** Malformed tokens never reach the database and come back as `not_found`, like unknown and revoked ones. */
  count(token: string): Promise<SnapshotLookup> {
    if (!isValidTokenShape(token)) return Promise.resolve({ status: 'not_found' });
    const tokenHash = sha256Hex(token);
    return new Promise((resolve, reject) => {
      const waiters = this.queued.get(tokenHash);
      if (waiters) waiters.push({ resolve, reject });
      else this.queued.set(tokenHash, [{ resolve, reject }]);
      // First waiter: flush after the current I/O phase, so requests already received join it.
      if (waiters === undefined && !this.running.has(tokenHash)) setImmediate(() => this.flush(tokenHash));
    });
  }

  private flush(tokenHash: string): void {
    const waiters = this.queued.get(tokenHash);
    if (!waiters || this.running.has(tokenHash)) return;
    this.queued.delete(tokenHash);
    this.running.add(tokenHash);
    countViews(this.db, tokenHash, waiters.length, this.now())
      .then(
        (lookup) =>
          waiters.forEach((waiter, i) => {
            if (lookup.status !== 'ok') return waiter.resolve(lookup);
            const viewCount = lookup.row.view_count - waiters.length + 1 + i;
            waiter.resolve({ status: 'ok', row: { ...lookup.row, view_count: viewCount } });
          }),
        (error: unknown) => waiters.forEach((waiter) => waiter.reject(error)),
      )
      .finally(() => {
        this.running.delete(tokenHash);
        this.flush(tokenHash);
      });
  }
}

/** Highest severity first; equal severities keep the founder's order (Array.prototype.sort is stable). */
export function topGaps(gaps: readonly Gap[], limit = TOP_GAPS_LIMIT): Gap[] {
  return [...gaps].sort((a, b) => GAP_SEVERITY_RANK[a.severity] - GAP_SEVERITY_RANK[b.severity]).slice(0, limit);
}

export interface SnapshotContext {
  token: string;
  now: Date;
  publicBaseUrl: string;
  serviceProfileUrl: string;
}

export function buildSnapshot(row: SnapshotRow, context: SnapshotContext): SnapshotSuccessEnvelope {
  const profile = profileOfRow(row);
  const band = riskBandFor(profile.fundraise_score);
  return {
    success: true,
    data: {
      api_version: API_VERSION,
      company: { name: row.name },
      scores: {
        readiness_score: profile.readiness_score,
        readiness_label: readinessLabelFor(profile.readiness_score),
        fundraise_score: profile.fundraise_score,
        fundraise_risk_band: band,
        fundraise_risk_label: RISK_BAND_MEANINGS[band],
        checklist_completion_pct: checklistCompletionPct(profile.checklist_complete, profile.checklist_total),
        checklist_complete: profile.checklist_complete,
        checklist_total: profile.checklist_total,
      },
      licensing: {
        product_classification: profile.product_classification,
        product_classification_label:
          profile.product_classification === null ? null : PRODUCT_CLASSIFICATIONS[profile.product_classification],
        primary_regulator: profile.primary_regulator,
        secondary_regulators: profile.secondary_regulators,
        arip_stage: profile.arip_stage,
        arip_stage_label: profile.arip_stage === null ? null : ARIP_STAGES[profile.arip_stage],
      },
      verification: {
        last_score_calculated_at: row.score_calculated_at.toISOString(),
        pack_generated_at: row.pack_generated_at?.toISOString() ?? null,
        pack_verification_hash: row.pack_verification_hash,
        share_expires_at: row.expires_at.toISOString(),
        snapshot_at: context.now.toISOString(),
      },
      top_gaps: topGaps(profile.gaps),
      links: {
        human_summary_url: shareUrl(context.publicBaseUrl, context.token),
        service_profile_url: context.serviceProfileUrl,
      },
      disclaimer: DISCLAIMER,
    },
    meta: { token_status: 'active', view_count: row.view_count },
  };
}
