/**
 * `--seed`: demo organisations from seed-data.ts, created through the founder service (not HTTP).
 *
 * Tokens are stored only as hashes, so stored demo links cannot be printed again. Each seeded start
 * therefore deletes the previous demo organisations (marked `is_demo`) and creates fresh ones: on a
 * persistent `--data` dir the printed URLs are always valid and old demo links simply stop working.
 */
import type { Clock } from './clock';
import type { Database } from './db/driver';
import { createOrganisation, createPack, createShareLink, revokeShareLink, SHARE_LINK_TTL_MS } from './founder';
import { shareLinkUrls } from './routes/founder';
import { DEMO_ORGANISATIONS, type DemoOrganisation } from './seed-data';
import type { DemoLink } from './views/demo-page';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function seedDemo(
  db: Database,
  clock: Clock,
  baseUrl: string,
  organisations: readonly DemoOrganisation[] = DEMO_ORGANISATIONS,
): Promise<DemoLink[]> {
  await db.query('DELETE FROM organisations WHERE is_demo');
  const links: DemoLink[] = [];
  for (const demo of organisations) {
    const now = clock.now();
    const { organisation } = await createOrganisation(
      db,
      now,
      { name: demo.name, subscription_tier: demo.subscription_tier, ...demo.profile },
      { isDemo: true },
    );
    const created = new Map<DemoOrganisation['links'][number], DemoLink>();
    const expired = demo.links.filter((link) => link.state === 'expired');
    if (expired.length > 0) {
      // An expired link was created (with the pack of its day) more than 7 days ago.
      const createdAt = new Date(now.getTime() - SHARE_LINK_TTL_MS - DAY_MS);
      await createPack(db, new Date(createdAt.getTime() - 60_000), organisation.id);
      for (const link of expired) {
        const made = await createShareLink(db, now, organisation.id, { label: link.label, createdAt });
        created.set(link, toDemoLink(demo, link, baseUrl, made.token));
      }
    }
    await createPack(db, now, organisation.id);
    for (const link of demo.links.filter((l) => l.state !== 'expired')) {
      const made = await createShareLink(db, now, organisation.id, { label: link.label });
      if (link.state === 'revoked') await revokeShareLink(db, now, organisation.id, made.id);
      created.set(link, toDemoLink(demo, link, baseUrl, made.token));
    }
    for (const link of demo.links) {
      const demoLink = created.get(link);
      if (demoLink) links.push(demoLink);
    }
  }
  return links;
}

function toDemoLink(demo: DemoOrganisation, link: DemoOrganisation['links'][number], baseUrl: string, token: string): DemoLink {
  const urls = shareLinkUrls(baseUrl, token);
  return { label: link.label, company: demo.name, state: link.state, apiUrl: urls.api_url, shareUrl: urls.share_url };
}

/** One line per link: `  <state>  <company> — <label>: <share_url>  (API: <api_url>)`. */
export function formatDemoLinks(links: readonly DemoLink[]): string[] {
  return links.map((l) => `  ${l.state}  ${l.company} — ${l.label}: ${l.shareUrl}  (API: ${l.apiUrl})`);
}
