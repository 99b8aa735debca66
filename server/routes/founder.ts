import type { Context, Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-types';
import {
  authenticate,
  createOrganisation,
  createPack,
  createShareLink,
  getOrganisation,
  listShareLinks,
  revokeShareLink,
  updateOrganisation,
} from '../founder';
import { publicBaseUrl } from '../http/base-url';
import { readJson } from '../http/body';
import { ApiError } from '../http/errors';
import { allowOnly } from '../http/methods';
import { listFollowersOfOrganisation } from '../partners/follows';
import { createOrganisationBody, createShareLinkBody, emptyBody, updateOrganisationBody } from '../schemas';
import { shareUrl, snapshotUrl } from '../paths';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const SHARE_LINK_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The organisation behind `Authorization: Bearer <founder_key>`, or 401. */
async function founderOrg(c: Context, deps: AppDeps): Promise<string> {
  const header = c.req.header('authorization');
  const key = header ? BEARER.exec(header)?.[1] : undefined;
  if (!key)
    throw new ApiError(401, 'UNAUTHORIZED', 'Missing founder key: send Authorization: Bearer <founder_key>.', {
      'WWW-Authenticate': 'Bearer',
    });
  const orgId = await authenticate(deps.db, key);
  if (!orgId) throw new ApiError(401, 'UNAUTHORIZED', 'Invalid founder key.', { 'WWW-Authenticate': 'Bearer' });
  return orgId;
}

export function shareLinkUrls(base: string, token: string): { api_url: string; share_url: string } {
  return { api_url: snapshotUrl(base, token), share_url: shareUrl(base, token) };
}

export function registerFounderRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const { db, clock } = deps;

  app.post('/api/founder/organisations', async (c) => {
    const body = await readJson(c, createOrganisationBody);
    const { organisation, founderKey } = await createOrganisation(db, clock.now(), body);
    return c.json({ success: true, data: { organisation, founder_key: founderKey }, meta: {} }, 201);
  });
  allowOnly(app, '/api/founder/organisations', ['POST']);

  app.get('/api/founder/organisation', async (c) => {
    const orgId = await founderOrg(c, deps);
    return c.json({ success: true, data: { organisation: await getOrganisation(db, orgId) }, meta: {} }, 200);
  });
  app.patch('/api/founder/organisation', async (c) => {
    const orgId = await founderOrg(c, deps);
    const body = await readJson(c, updateOrganisationBody);
    const organisation = await updateOrganisation(db, clock.now(), orgId, body);
    deps.webhooks?.nudge(); // followers' events were queued with the change
    return c.json({ success: true, data: { organisation }, meta: {} }, 200);
  });
  allowOnly(app, '/api/founder/organisation', ['GET', 'PATCH']);

  app.post('/api/founder/dd-packs', async (c) => {
    const orgId = await founderOrg(c, deps);
    await readJson(c, emptyBody);
    const pack = await createPack(db, clock.now(), orgId);
    deps.webhooks?.nudge();
    return c.json({ success: true, data: { pack }, meta: {} }, 201);
  });
  allowOnly(app, '/api/founder/dd-packs', ['POST']);

  app.post('/api/founder/share-links', async (c) => {
    const orgId = await founderOrg(c, deps);
    const body = await readJson(c, createShareLinkBody);
    const link = await createShareLink(db, clock.now(), orgId, { label: body.label });
    const share_link = { ...link, ...shareLinkUrls(publicBaseUrl(c, deps.config), link.token) };
    return c.json({ success: true, data: { share_link }, meta: {} }, 201);
  });
  app.get('/api/founder/share-links', async (c) => {
    const orgId = await founderOrg(c, deps);
    const share_links = await listShareLinks(db, clock.now(), orgId);
    return c.json({ success: true, data: { share_links }, meta: {} }, 200);
  });
  allowOnly(app, '/api/founder/share-links', ['GET', 'POST']);

  app.post('/api/founder/share-links/:id/revoke', async (c) => {
    const orgId = await founderOrg(c, deps);
    await readJson(c, emptyBody);
    const id = c.req.param('id');
    // Ids are `link_<uuid>`; anything else (a NUL from `%00` would make PostgreSQL fail) is just unknown.
    if (!SHARE_LINK_ID.test(id)) throw new ApiError(404, 'NOT_FOUND', 'No share link with this id.');
    const share_link = await revokeShareLink(db, clock.now(), orgId, id);
    deps.webhooks?.nudge();
    return c.json({ success: true, data: { share_link }, meta: {} }, 200);
  });
  allowOnly(app, '/api/founder/share-links/:id/revoke', ['POST']);

  // Who follows this organisation's links (version 1), by partner name.
  app.get('/api/founder/follows', async (c) => {
    const orgId = await founderOrg(c, deps);
    const follows = await listFollowersOfOrganisation(db, orgId);
    return c.json({ success: true, data: { follows }, meta: {} }, 200);
  });
  allowOnly(app, '/api/founder/follows', ['GET']);
}
