/**
 * The founder side: organisations, profiles, DD packs and share links (rules and storage). Used by the
 * founder API routes and by `--seed`. Functions take the database and "now" explicitly; nothing here
 * reads a global. Every change a follower could see is recorded for its followers in the same
 * transaction (server/partners/events).
 */
import { z } from 'zod';
import { checklistCompletionPct, readinessLabelFor, riskBandFor } from '../../lib/core/labels';
import type { Database, Queryable } from '../platform/db/driver';
import { ApiError } from '../platform/http/errors';
import { newFounderKey, newId, newShareToken, sha256Hex } from '../platform/tokens';
import { recordCompanyChange, recordLinkChange } from '../partners/events/record';
import { EMPTY_PROFILE, otherRegulators, profileOfRow, profileRowShape, type Profile } from '../snapshots/profile';
import {
  SUBSCRIPTION_TIERS,
  TIER_RANK,
  type CreateOrganisationBody,
  type OrganisationView,
  type PackView,
  type ShareLinkStatus,
  type ShareLinkSummary,
  type SubscriptionTier,
  type UpdateOrganisationBody,
} from './schemas';

export const SHARE_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const SHARE_LINK_NOT_FOUND_MESSAGE = 'No share link with this id.';

const organisationRow = z.object({
  id: z.string(),
  name: z.string(),
  subscription_tier: z.enum(SUBSCRIPTION_TIERS),
  created_at: z.date(),
  ...profileRowShape,
});
type OrganisationRow = z.infer<typeof organisationRow>;

const ORGANISATION_COLUMNS = `o.id, o.name, o.subscription_tier, o.readiness_score, o.fundraise_score,
  o.checklist_complete, o.checklist_total, o.product_classification, o.primary_regulator,
  o.secondary_regulators, o.arip_stage, o.created_at, o.score_calculated_at,
  COALESCE((SELECT json_agg(json_build_object('title', g.title, 'severity', g.severity,
    'regulatory_basis', g.regulatory_basis) ORDER BY g.position) FROM gaps g WHERE g.org_id = o.id), '[]'::json) AS gaps`;

function toView(row: OrganisationRow): OrganisationView {
  const profile = profileOfRow(row);
  return {
    id: row.id,
    name: row.name,
    subscription_tier: row.subscription_tier,
    ...profile,
    readiness_label: readinessLabelFor(profile.readiness_score),
    fundraise_risk_band: riskBandFor(profile.fundraise_score),
    checklist_completion_pct: checklistCompletionPct(profile.checklist_complete, profile.checklist_total),
    created_at: row.created_at.toISOString(),
    last_score_calculated_at: row.score_calculated_at.toISOString(),
  };
}

/** The profile as stored: checked across fields, each regulator listed once. */
function storedProfile(profile: Profile): Profile {
  if (profile.checklist_complete > profile.checklist_total) {
    throw new ApiError(400, 'VALIDATION_ERROR', 'Invalid request body: `checklist_complete`: must not exceed `checklist_total`');
  }
  return { ...profile, secondary_regulators: otherRegulators(profile.primary_regulator, profile.secondary_regulators) };
}

async function readOrganisation(q: Queryable, orgId: string, lock = false): Promise<OrganisationRow> {
  const result = await q.query(
    `SELECT ${ORGANISATION_COLUMNS} FROM organisations o WHERE o.id = $1${lock ? ' FOR UPDATE' : ''}`,
    [orgId],
  );
  const row = result.rows[0];
  if (row === undefined) throw new ApiError(401, 'UNAUTHORIZED', 'Unknown organisation.');
  return organisationRow.parse(row);
}

async function replaceGaps(q: Queryable, orgId: string, gaps: Profile['gaps']): Promise<void> {
  await q.query('DELETE FROM gaps WHERE org_id = $1', [orgId]);
  if (gaps.length === 0) return;
  // Position = the founder's order; it is the tie-break among gaps of equal severity.
  await q.query(
    `INSERT INTO gaps (org_id, position, title, severity, regulatory_basis)
     SELECT $1, (t.ord - 1)::int, t.x->>'title', t.x->>'severity', t.x->>'regulatory_basis'
     FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(x, ord)`,
    [orgId, JSON.stringify(gaps)],
  );
}

export async function createOrganisation(
  db: Database,
  now: Date,
  body: CreateOrganisationBody,
  options: { isDemo?: boolean; founderKey?: string } = {},
): Promise<{ organisation: OrganisationView; founderKey: string }> {
  const { name, subscription_tier, ...fields } = body;
  const profile = storedProfile({ ...EMPTY_PROFILE, ...fields });
  const id = newId('org');
  const founderKey = options.founderKey ?? newFounderKey();
  const organisation = await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO organisations (id, name, subscription_tier, founder_key_hash, readiness_score, fundraise_score,
         checklist_complete, checklist_total, product_classification, primary_regulator, secondary_regulators,
         arip_stage, is_demo, created_at, score_calculated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14::timestamptz, $14::timestamptz)`,
      [
        id,
        name,
        subscription_tier,
        sha256Hex(founderKey),
        profile.readiness_score,
        profile.fundraise_score,
        profile.checklist_complete,
        profile.checklist_total,
        profile.product_classification,
        profile.primary_regulator,
        JSON.stringify(profile.secondary_regulators),
        profile.arip_stage,
        options.isDemo ?? false,
        now.toISOString(),
      ],
    );
    await replaceGaps(tx, id, profile.gaps);
    return readOrganisation(tx, id);
  });
  return { organisation: toView(organisation), founderKey };
}

const idRow = z.object({ id: z.string() });

/** The organisation id for a founder key, or null. */
export async function authenticate(db: Queryable, founderKey: string): Promise<string | null> {
  const result = await db.query('SELECT id FROM organisations WHERE founder_key_hash = $1', [sha256Hex(founderKey)]);
  const row = result.rows[0];
  return row === undefined ? null : idRow.parse(row).id;
}

export async function getOrganisation(db: Queryable, orgId: string): Promise<OrganisationView> {
  return toView(await readOrganisation(db, orgId));
}

export async function updateOrganisation(
  db: Database,
  now: Date,
  orgId: string,
  patch: UpdateOrganisationBody,
): Promise<OrganisationView> {
  const row = await db.transaction(async (tx) => {
    const current = await readOrganisation(tx, orgId, true);
    const { name = current.name, subscription_tier = current.subscription_tier, ...fields } = patch;
    const profile = storedProfile({ ...profileOfRow(current), ...fields });
    // Every profile change is a recalculation: labels derive from the stored scores at read time.
    await tx.query(
      `UPDATE organisations SET name = $2, subscription_tier = $3, readiness_score = $4, fundraise_score = $5,
         checklist_complete = $6, checklist_total = $7, product_classification = $8, primary_regulator = $9,
         secondary_regulators = $10::jsonb, arip_stage = $11, score_calculated_at = $12::timestamptz
       WHERE id = $1`,
      [
        orgId,
        name,
        subscription_tier,
        profile.readiness_score,
        profile.fundraise_score,
        profile.checklist_complete,
        profile.checklist_total,
        profile.product_classification,
        profile.primary_regulator,
        JSON.stringify(profile.secondary_regulators),
        profile.arip_stage,
        now.toISOString(),
      ],
    );
    if (fields.gaps !== undefined) await replaceGaps(tx, orgId, profile.gaps);
    // Followers' events are written with the change, in its transaction (server/partners/events/record.ts).
    await recordCompanyChange(tx, orgId, now);
    return readOrganisation(tx, orgId);
  });
  return toView(row);
}

function requireTier(tier: SubscriptionTier): void {
  if (TIER_RANK[tier] < TIER_RANK.growth) {
    throw new ApiError(403, 'TIER_REQUIRED', 'Fundraising mode needs the growth subscription tier or higher.');
  }
}

/** Canonical JSON (sorted keys), so the same content always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A DD pack freezes the profile at generation time; its short hash is a reference, not a signature. */
export async function createPack(db: Database, now: Date, orgId: string): Promise<PackView> {
  const organisation = await getOrganisation(db, orgId);
  requireTier(organisation.subscription_tier);
  const id = newId('pack');
  const generatedAt = now.toISOString();
  const content = { pack_id: id, generated_at: generatedAt, organisation };
  const verificationHash = sha256Hex(canonicalJson(content)).slice(0, 12);
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO dd_packs (id, org_id, generated_at, verification_hash, content)
       VALUES ($1, $2, $3::timestamptz, $4, $5::jsonb)`,
      [id, orgId, generatedAt, verificationHash, JSON.stringify(content)],
    );
    await recordCompanyChange(tx, orgId, now);
  });
  return { id, generated_at: generatedAt, verification_hash: verificationHash };
}

const shareLinkRow = z.object({
  id: z.string(),
  label: z.string().nullable(),
  pack_id: z.string(),
  view_count: z.number(),
  partner_view_count: z.number(),
  created_at: z.date(),
  expires_at: z.date(),
  revoked_at: z.date().nullable(),
});
type ShareLinkRow = z.infer<typeof shareLinkRow>;

/** Revoked wins over expired: a revoked link stays revoked whatever the time. */
export function shareLinkStatus(link: { revoked_at: Date | null; expires_at: Date }, now: Date): ShareLinkStatus {
  if (link.revoked_at !== null) return 'revoked';
  return now.getTime() >= link.expires_at.getTime() ? 'expired' : 'active';
}

function toSummary(row: ShareLinkRow, now: Date): ShareLinkSummary {
  return {
    id: row.id,
    label: row.label,
    status: shareLinkStatus(row, now),
    view_count: row.view_count,
    partner_view_count: row.partner_view_count,
    pack_id: row.pack_id,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

const SHARE_LINK_COLUMNS = 'id, label, pack_id, view_count, partner_view_count, created_at, expires_at, revoked_at';

/**
 * Creates a share link bound to the latest DD pack. `createdAt` defaults to now (seeding back-dates
 * links to make expired demo links; it also passes the demo tokens it derives). Returns the token
 * once; only its hash is stored.
 */
export async function createShareLink(
  db: Database,
  now: Date,
  orgId: string,
  options: { label?: string; createdAt?: Date; token?: string } = {},
): Promise<ShareLinkSummary & { token: string }> {
  const organisation = await getOrganisation(db, orgId);
  requireTier(organisation.subscription_tier);
  const pack = await db.query('SELECT id FROM dd_packs WHERE org_id = $1 ORDER BY generated_at DESC, id DESC LIMIT 1', [orgId]);
  const packRow = pack.rows[0];
  if (packRow === undefined) {
    throw new ApiError(409, 'PACK_REQUIRED', 'Generate a DD pack (POST /api/founder/dd-packs) before creating a share link.');
  }
  const token = options.token ?? newShareToken();
  const createdAt = options.createdAt ?? now;
  const result = await db.query(
    `INSERT INTO share_links (id, token_hash, org_id, pack_id, label, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz) RETURNING ${SHARE_LINK_COLUMNS}`,
    [
      newId('link'),
      sha256Hex(token),
      orgId,
      idRow.parse(packRow).id,
      options.label ?? null,
      createdAt.toISOString(),
      new Date(createdAt.getTime() + SHARE_LINK_TTL_MS).toISOString(),
    ],
  );
  return { ...toSummary(shareLinkRow.parse(result.rows[0]), now), token };
}

export async function listShareLinks(db: Queryable, now: Date, orgId: string): Promise<ShareLinkSummary[]> {
  const result = await db.query(`SELECT ${SHARE_LINK_COLUMNS} FROM share_links WHERE org_id = $1 ORDER BY created_at, id`, [
    orgId,
  ]);
  return result.rows.map((row) => toSummary(shareLinkRow.parse(row), now));
}

/**
 * Idempotent: revoking twice keeps the first revocation time. Another organisation's link is 404.
 * The link's follows end in the same transaction, and their partners are told (`follow.ended`).
 */
export async function revokeShareLink(db: Database, now: Date, orgId: string, linkId: string): Promise<ShareLinkSummary> {
  return db.transaction(async (tx) => {
    const result = await tx.query(
      `UPDATE share_links SET revoked_at = COALESCE(revoked_at, $3::timestamptz)
       WHERE id = $1 AND org_id = $2 RETURNING ${SHARE_LINK_COLUMNS}`,
      [linkId, orgId, now.toISOString()],
    );
    const row = result.rows[0];
    if (row === undefined) throw new ApiError(404, 'NOT_FOUND', SHARE_LINK_NOT_FOUND_MESSAGE);
    await recordLinkChange(tx, linkId, now);
    return toSummary(shareLinkRow.parse(row), now);
  });
}
