/**
 * `--seed`: demo organisations from seed-data.ts (created through the founder service, not HTTP),
 * plus one demo partner that follows one of them.
 *
 * Demo data is kept across restarts: a watched demo link must not turn "revoked" because the server
 * started again. Tokens and keys are stored only as hashes, so to print working ones on every start
 * they are derived (HMAC-SHA256) from a random seed secret kept in the database (`demo_seed`), made
 * when the demo data is first seeded. A later `--seed` finds the rows and derives the same tokens
 * and keys; `--reseed` (or a change to seed-data.ts) deletes the demo rows and starts over with a
 * new secret. Only demo rows (`is_demo`) are derived this way: every other token and key is random.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  createOrganisation,
  createPack,
  createShareLink,
  revokeShareLink,
  shareLinkStatus,
  SHARE_LINK_TTL_MS,
} from '../founders/organisations';
import { createFollow } from '../partners/follows';
import { createPartnerKey } from '../partners/keys';
import type { Clock } from '../platform/clock';
import type { Database } from '../platform/db/driver';
import { sha256Hex } from '../platform/tokens';
import { shareLinkUrls } from '../snapshots/paths';
import type { DemoLink } from './demo-page';
import { DEMO_ORGANISATIONS, DEMO_PARTNER, type DemoOrganisation } from './seed-data';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Bumped when the derivation or the seeded shape changes: stored demo data is then seeded again. */
const SEED_FORMAT = 'seed-v2';

export interface DemoFounder {
  company: string;
  founderKey: string;
}

export interface DemoPartnerSeed {
  name: string;
  key: string;
  /** The company its one follow is on, and that follow's id and state now. */
  company: string;
  followId: string;
  followStatus: 'active' | 'ended';
}

export interface DemoSeed {
  links: DemoLink[];
  founders: DemoFounder[];
  partner: DemoPartnerSeed;
  /** True when the demo data of an earlier start was kept. */
  kept: boolean;
}

interface Derived {
  token(org: number, link: number): string;
  founderKey(org: number): string;
  partnerKey(): string;
}

function derive(secret: string): Derived {
  const mac = (label: string) => createHmac('sha256', secret).update(label).digest('base64url');
  return {
    token: (org, link) => mac(`share-link:${org}:${link}`),
    founderKey: (org) => `fk_${mac(`founder:${org}`)}`,
    partnerKey: () => `pk_${mac('partner')}`,
  };
}

function dataVersion(organisations: readonly DemoOrganisation[]): string {
  return `${SEED_FORMAT}:${sha256Hex(JSON.stringify({ organisations, DEMO_PARTNER })).slice(0, 16)}`;
}

const seedRow = z.object({ secret: z.string(), data_version: z.string() });
const linkRow = z.object({ expires_at: z.date(), revoked_at: z.date().nullable() });
const followRow = z.object({ id: z.string(), status: z.enum(['active', 'ended']) });

export async function seedDemo(
  db: Database,
  clock: Clock,
  baseUrl: string,
  options: { reseed?: boolean; organisations?: readonly DemoOrganisation[] } = {},
): Promise<DemoSeed> {
  const organisations = options.organisations ?? DEMO_ORGANISATIONS;
  const version = dataVersion(organisations);
  if (!options.reseed) {
    const stored = await db.query('SELECT secret, data_version FROM demo_seed WHERE id = 1');
    const row = stored.rows[0] === undefined ? null : seedRow.parse(stored.rows[0]);
    if (row !== null && row.data_version === version) {
      const kept = await readKept(db, clock, baseUrl, organisations, derive(row.secret));
      if (kept !== null) return kept;
    }
  }
  return seedAfresh(db, clock, baseUrl, organisations, version);
}

/** The demo data an earlier start made, with its links' states now; null when any of it is gone. */
async function readKept(
  db: Database,
  clock: Clock,
  baseUrl: string,
  organisations: readonly DemoOrganisation[],
  derived: Derived,
): Promise<DemoSeed | null> {
  const now = clock.now();
  const links: DemoLink[] = [];
  for (const [o, demo] of organisations.entries()) {
    for (const [l, link] of demo.links.entries()) {
      const token = derived.token(o, l);
      const found = await db.query('SELECT expires_at, revoked_at FROM share_links WHERE token_hash = $1', [sha256Hex(token)]);
      if (found.rows[0] === undefined) return null;
      const state = shareLinkStatus(linkRow.parse(found.rows[0]), now);
      links.push(toDemoLink(demo, link.label, state, baseUrl, token));
    }
  }
  const partnerKey = derived.partnerKey();
  const follow = await db.query(
    `SELECT f.id, f.status FROM follows f JOIN partners p ON p.id = f.partner_id
     WHERE p.key_hash = $1 ORDER BY f.created_at LIMIT 1`,
    [sha256Hex(partnerKey)],
  );
  if (follow.rows[0] === undefined) return null;
  const { id, status } = followRow.parse(follow.rows[0]);
  return {
    links,
    founders: organisations.map((demo, o) => ({ company: demo.name, founderKey: derived.founderKey(o) })),
    partner: { name: DEMO_PARTNER.name, key: partnerKey, company: DEMO_PARTNER.follows, followId: id, followStatus: status },
    kept: true,
  };
}

async function seedAfresh(
  db: Database,
  clock: Clock,
  baseUrl: string,
  organisations: readonly DemoOrganisation[],
  version: string,
): Promise<DemoSeed> {
  await db.query('DELETE FROM partners WHERE is_demo');
  await db.query('DELETE FROM organisations WHERE is_demo');
  const secret = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO demo_seed (id, secret, data_version, seeded_at) VALUES (1, $1, $2, $3::timestamptz)
     ON CONFLICT (id) DO UPDATE SET secret = EXCLUDED.secret, data_version = EXCLUDED.data_version, seeded_at = EXCLUDED.seeded_at`,
    [secret, version, clock.now().toISOString()],
  );
  const derived = derive(secret);
  const links: DemoLink[] = [];
  const founders: DemoFounder[] = [];
  const followed = new Map<string, string>(); // company → token of its first active link
  for (const [o, demo] of organisations.entries()) {
    const now = clock.now();
    const founderKey = derived.founderKey(o);
    const { organisation } = await createOrganisation(
      db,
      now,
      { name: demo.name, subscription_tier: demo.subscription_tier, ...demo.profile },
      { isDemo: true, founderKey },
    );
    founders.push({ company: demo.name, founderKey });
    const tokens = demo.links.map((_, l) => derived.token(o, l));
    const expired = demo.links.flatMap((link, l) => (link.state === 'expired' ? [l] : []));
    if (expired.length > 0) {
      // An expired link was created (with the pack of its day) more than 7 days ago.
      const createdAt = new Date(now.getTime() - SHARE_LINK_TTL_MS - DAY_MS);
      await createPack(db, new Date(createdAt.getTime() - 60_000), organisation.id);
      for (const l of expired) {
        await createShareLink(db, now, organisation.id, { label: demo.links[l]?.label, createdAt, token: tokens[l] });
      }
    }
    await createPack(db, now, organisation.id);
    for (const [l, link] of demo.links.entries()) {
      if (link.state === 'expired') continue;
      const made = await createShareLink(db, now, organisation.id, { label: link.label, token: tokens[l] });
      if (link.state === 'revoked') await revokeShareLink(db, now, organisation.id, made.id);
      else if (!followed.has(demo.name)) followed.set(demo.name, made.token);
    }
    for (const [l, link] of demo.links.entries()) links.push(toDemoLink(demo, link.label, link.state, baseUrl, tokens[l] ?? ''));
  }
  const partnerKey = derived.partnerKey();
  const partner = await createPartnerKey(db, clock.now(), { name: DEMO_PARTNER.name }, { isDemo: true, key: partnerKey });
  const token = followed.get(DEMO_PARTNER.follows);
  if (token === undefined)
    throw new Error(`seed-data: the demo partner follows ${DEMO_PARTNER.follows}, which has no active link`);
  const follow = await createFollow(db, clock.now(), partner.id, { token, endpoint_id: null }, () => ({
    human_summary_url: shareLinkUrls(baseUrl, token).share_url,
    service_profile_url: '',
  }));
  return {
    links,
    founders,
    partner: {
      name: DEMO_PARTNER.name,
      key: partnerKey,
      company: DEMO_PARTNER.follows,
      followId: follow.follow.id,
      followStatus: follow.follow.status,
    },
    kept: false,
  };
}

function toDemoLink(demo: DemoOrganisation, label: string, state: DemoLink['state'], baseUrl: string, token: string): DemoLink {
  const urls = shareLinkUrls(baseUrl, token);
  return { label, company: demo.name, state, token, apiUrl: urls.api_url, shareUrl: urls.share_url };
}

/** One line per link: `  <state>  <company> — <label>: <share_url>  (API: <api_url>)`. */
export function formatDemoLinks(links: readonly DemoLink[]): string[] {
  return links.map((l) => `  ${l.state}  ${l.company} — ${l.label}: ${l.shareUrl}  (API: ${l.apiUrl})`);
}

/** What a user needs to change a company and see a watchlist change or a partner event. */
export function formatDemoKeys(seed: DemoSeed): string[] {
  return [
    'demo founder keys (Authorization: Bearer <key> on the founder API, e.g. PATCH /api/founder/organisation):',
    ...seed.founders.map((founder) => `  founder key  ${founder.company}: ${founder.founderKey}`),
    `demo partner: ${seed.partner.name}, key ${seed.partner.key}`,
    `  follows ${seed.partner.company} (${seed.partner.followId}, ${seed.partner.followStatus}); its events: GET /api/v1/events`,
  ];
}
