import { z } from 'zod';
import type { Database } from './driver';

/**
 * The one set of migrations for PGlite and PostgreSQL. Append only: an applied migration is never
 * edited, a change is a new entry.
 */
export const MIGRATIONS: readonly { id: string; sql: string }[] = [
  {
    id: '001_initial',
    sql: `
CREATE TABLE organisations (
  id text PRIMARY KEY,
  name text NOT NULL,
  subscription_tier text NOT NULL CHECK (subscription_tier IN ('starter', 'growth', 'scale')),
  founder_key_hash text NOT NULL UNIQUE,
  readiness_score integer NOT NULL CHECK (readiness_score BETWEEN 0 AND 100),
  fundraise_score integer NOT NULL CHECK (fundraise_score BETWEEN 0 AND 100),
  checklist_complete integer NOT NULL CHECK (checklist_complete >= 0),
  checklist_total integer NOT NULL CHECK (checklist_total >= 0),
  product_classification text,
  primary_regulator text,
  secondary_regulators jsonb NOT NULL DEFAULT '[]'::jsonb,
  arip_stage text,
  is_demo boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  score_calculated_at timestamptz NOT NULL
);

CREATE TABLE gaps (
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  position integer NOT NULL,
  title text NOT NULL,
  severity text NOT NULL CHECK (severity IN ('critical', 'high', 'medium')),
  regulatory_basis text NOT NULL,
  PRIMARY KEY (org_id, position)
);

CREATE TABLE dd_packs (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  generated_at timestamptz NOT NULL,
  verification_hash text NOT NULL,
  content jsonb NOT NULL
);
CREATE INDEX dd_packs_org_generated ON dd_packs (org_id, generated_at DESC);

CREATE TABLE share_links (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  pack_id text NOT NULL REFERENCES dd_packs (id) ON DELETE CASCADE,
  label text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  view_count integer NOT NULL DEFAULT 0
);
CREATE INDEX share_links_org ON share_links (org_id, created_at);

-- Used by the SQL rate-limit store (PostgreSQL: shared between server instances).
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  hits integer NOT NULL,
  reset_at_ms bigint NOT NULL
);
`,
  },
  {
    // Version 1: partner keys, webhook endpoints, follows, their change events and the delivery outbox
    // (docs/api-decisions.md, "Version 1"); the seed secret that keeps demo data across restarts.
    id: '002_partners_follows_webhooks',
    sql: `
ALTER TABLE share_links ADD COLUMN partner_view_count integer NOT NULL DEFAULT 0;

CREATE TABLE partners (
  id text PRIMARY KEY,
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  key_hint text NOT NULL,
  previous_key_hash text UNIQUE,
  previous_key_expires_at timestamptz,
  quota_per_minute integer NOT NULL CHECK (quota_per_minute BETWEEN 1 AND 100000),
  is_demo boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  rotated_at timestamptz,
  revoked_at timestamptz
);

CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
  url text NOT NULL,
  secret text NOT NULL,
  status text NOT NULL CHECK (status IN ('enabled', 'disabled')),
  disabled_reason text,
  disabled_at timestamptz,
  failure_streak integer NOT NULL DEFAULT 0,
  failing_since timestamptz,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_partner ON webhook_endpoints (partner_id, created_at);

CREATE TABLE follows (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
  share_link_id text NOT NULL REFERENCES share_links (id) ON DELETE CASCADE,
  endpoint_id text REFERENCES webhook_endpoints (id) ON DELETE SET NULL,
  status text NOT NULL CHECK (status IN ('active', 'ended')),
  ended_reason text CHECK (ended_reason IN ('revoked', 'expired', 'unfollowed', 'key_revoked')),
  rules jsonb NOT NULL,
  baseline jsonb NOT NULL,
  event_seq integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE UNIQUE INDEX follows_one_active ON follows (partner_id, share_link_id) WHERE status = 'active';
CREATE INDEX follows_active_link ON follows (share_link_id) WHERE status = 'active';
CREATE INDEX follows_partner ON follows (partner_id, created_at);

CREATE TABLE follow_events (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  partner_id text NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
  follow_id text NOT NULL REFERENCES follows (id) ON DELETE CASCADE,
  type text NOT NULL,
  payload jsonb NOT NULL,
  digest text CHECK (digest IN ('daily', 'weekly')),
  message_id text,
  created_at timestamptz NOT NULL
);
CREATE INDEX follow_events_partner ON follow_events (partner_id, seq);
CREATE INDEX follow_events_held ON follow_events (created_at) WHERE digest IS NOT NULL AND message_id IS NULL;

CREATE TABLE webhook_messages (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  partner_id text NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  type text NOT NULL,
  body text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  lease_token text,
  lease_expires_at timestamptz,
  last_attempt_at timestamptz,
  last_status integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_messages_due ON webhook_messages (next_attempt_at, seq) WHERE status = 'pending';
CREATE INDEX webhook_messages_endpoint ON webhook_messages (endpoint_id, created_at);

CREATE TABLE demo_seed (
  id integer PRIMARY KEY CHECK (id = 1),
  secret text NOT NULL,
  data_version text NOT NULL,
  seeded_at timestamptz NOT NULL
);
`,
  },
  {
    // Issue #34: each attempt of a message as the partner sees it (when, the answer or the error, how
    // long), and indexes for the claim, which takes each endpoint's oldest due messages and counts the
    // sends still leased to it.
    id: '003_webhook_attempts',
    sql: `
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  message_id text NOT NULL REFERENCES webhook_messages (id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL,
  status integer,
  error text,
  duration_ms integer NOT NULL,
  delivered boolean NOT NULL
);
CREATE INDEX webhook_attempts_message ON webhook_attempts (message_id, id);
CREATE INDEX webhook_messages_endpoint_due ON webhook_messages (endpoint_id, next_attempt_at, seq) WHERE status = 'pending';
CREATE INDEX webhook_messages_leased ON webhook_messages (endpoint_id) WHERE status = 'pending' AND lease_token IS NOT NULL;
`,
  },
  {
    // Issue #34: a regulator is listed once. Rows saved before kept the primary among the secondary
    // regulators, or one secondary twice; keep each code's first mention, the primary apart.
    id: '004_regulators_listed_once',
    sql: `
UPDATE organisations o SET secondary_regulators = COALESCE((
  SELECT jsonb_agg(s.code ORDER BY s.first)
  FROM (SELECT t.code, min(t.ord) AS first FROM jsonb_array_elements_text(o.secondary_regulators) WITH ORDINALITY AS t(code, ord)
        WHERE o.primary_regulator IS NULL OR t.code <> o.primary_regulator GROUP BY t.code) s), '[]'::jsonb)
`,
  },
  {
    // Issue #36: the Ed25519 keys that sign snapshot answers (server/signing). One active key (no
    // retired_at); retired keys stay, so what they signed still verifies.
    id: '005_signing_keys',
    sql: `
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  private_key text NOT NULL,
  created_at timestamptz NOT NULL,
  retired_at timestamptz
);
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys ((retired_at IS NULL)) WHERE retired_at IS NULL
`,
  },
];

const appliedRow = z.object({ id: z.string() });

/** Applies pending migrations, each in its own transaction, serialised by an advisory lock. */
export async function migrate(db: Database): Promise<string[]> {
  await db.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const applied: string[] = [];
  for (const migration of MIGRATIONS) {
    const done = await db.transaction(async (tx) => {
      // Two instances starting together must not both apply the same migration.
      await tx.query('SELECT pg_advisory_xact_lock(727274)');
      const existing = await tx.query('SELECT id FROM schema_migrations WHERE id = $1', [migration.id]);
      if (existing.rows.map((row) => appliedRow.parse(row)).length > 0) return false;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
      return true;
    });
    if (done) applied.push(migration.id);
  }
  return applied;
}

/** Our migrations hold no semicolons inside literals or bodies, so a plain split is exact. */
function splitStatements(sql: string): string[] {
  return sql
    .split(';')
    .map((part) => part.replace(/^\s*--.*$/gm, '').trim())
    .filter((part) => part.length > 0);
}
