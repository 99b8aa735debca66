/**
 * Version 1's partner API, behind `Authorization: Bearer <partner key>` (server/http/partner-auth.ts):
 * webhook endpoints, follows, and the partner's events. Every body and query is validated with zod.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../app-types';
import { publicBaseUrl } from '../http/base-url';
import { describeIssues, readJson } from '../http/body';
import { ApiError } from '../http/errors';
import { allowOnly } from '../http/methods';
import {
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  ENDPOINT_NOT_FOUND_MESSAGE,
  getEndpoint,
  listEndpoints,
  replayEndpoint,
} from '../partners/endpoints';
import {
  createFollow,
  deleteFollow,
  FOLLOW_NOT_FOUND_MESSAGE,
  getFollow,
  listEvents,
  listFollows,
  updateFollow,
} from '../partners/follows';
import { createEndpointBody, createFollowBody, replayBody, updateFollowBody } from '../partners/schemas';
import { shareUrl } from '../paths';
import { checkEndpointUrl } from '../webhooks/url-policy';
import { emptyBody } from '../schemas';

const RESOURCE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** A path id of the right shape, else the same 404 as an unknown one (a NUL would make PostgreSQL fail). */
function pathId(c: Context, message: string): string {
  const id = c.req.param('id') ?? '';
  if (!RESOURCE_ID.test(id)) throw new ApiError(404, 'NOT_FOUND', message);
  return id;
}

function query<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw new ApiError(400, 'VALIDATION_ERROR', `Invalid query: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

const ok = <T extends object>(c: Context, data: T, status: 200 | 201 = 200) => c.json({ success: true, data, meta: {} }, status);

export const listFollowsQuery = z.strictObject({ status: z.enum(['active', 'ended']).optional() });
export const listEventsQuery = z.strictObject({
  follow_id: z.string().regex(RESOURCE_ID).optional(),
  after: z
    .string()
    .regex(/^\d{1,15}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

export function registerPartnerRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const { db, clock } = deps;
  const nudge = () => deps.webhooks?.nudge();
  const checkUrl = (url: string) =>
    deps.webhooks ? deps.webhooks.checkUrl(url) : checkEndpointUrl(url, { allowLoopback: deps.config.dev });

  app.get('/api/v1/partner', (c) => {
    const partner = c.get('partner');
    return ok(c, { partner: { id: partner.id, name: partner.name, quota_per_minute: partner.quotaPerMinute } });
  });
  allowOnly(app, '/api/v1/partner', ['GET']);

  app.post('/api/v1/webhook-endpoints', async (c) => {
    const body = await readJson(c, createEndpointBody);
    const checked = await checkUrl(body.url);
    if (!checked.ok) throw new ApiError(400, 'VALIDATION_ERROR', `Invalid request body: \`url\`: ${checked.reason}`);
    const endpoint = await createEndpoint(db, clock.now(), c.get('partner').id, checked.url.href);
    return ok(c, { endpoint }, 201);
  });
  app.get('/api/v1/webhook-endpoints', async (c) => ok(c, { endpoints: await listEndpoints(db, c.get('partner').id) }));
  allowOnly(app, '/api/v1/webhook-endpoints', ['GET', 'POST']);

  app.get('/api/v1/webhook-endpoints/:id', async (c) =>
    ok(c, { endpoint: await getEndpoint(db, c.get('partner').id, pathId(c, ENDPOINT_NOT_FOUND_MESSAGE)) }),
  );
  app.delete('/api/v1/webhook-endpoints/:id', async (c) => {
    const id = pathId(c, ENDPOINT_NOT_FOUND_MESSAGE);
    await deleteEndpoint(db, c.get('partner').id, id);
    return ok(c, { deleted: id });
  });
  allowOnly(app, '/api/v1/webhook-endpoints/:id', ['GET', 'DELETE']);

  app.post('/api/v1/webhook-endpoints/:id/enable', async (c) => {
    await readJson(c, emptyBody);
    const endpoint = await enableEndpoint(db, c.get('partner').id, pathId(c, ENDPOINT_NOT_FOUND_MESSAGE));
    nudge();
    return ok(c, { endpoint });
  });
  allowOnly(app, '/api/v1/webhook-endpoints/:id/enable', ['POST']);

  app.post('/api/v1/webhook-endpoints/:id/replay', async (c) => {
    const body = await readJson(c, replayBody);
    const id = pathId(c, ENDPOINT_NOT_FOUND_MESSAGE);
    const result = await replayEndpoint(db, clock.now(), c.get('partner').id, id, body);
    nudge();
    return ok(c, result);
  });
  allowOnly(app, '/api/v1/webhook-endpoints/:id/replay', ['POST']);

  app.post('/api/v1/follows', async (c) => {
    const body = await readJson(c, createFollowBody);
    const base = publicBaseUrl(c, deps.config);
    const result = await createFollow(db, clock.now(), c.get('partner').id, body, (token) => ({
      human_summary_url: shareUrl(base, token),
      service_profile_url: deps.config.serviceProfileUrl,
    }));
    return ok(c, { follow: result.follow, snapshot: result.snapshot }, result.created ? 201 : 200);
  });
  app.get('/api/v1/follows', async (c) => {
    const { status } = query(c, listFollowsQuery);
    return ok(c, { follows: await listFollows(db, c.get('partner').id, status) });
  });
  allowOnly(app, '/api/v1/follows', ['GET', 'POST']);

  app.get('/api/v1/follows/:id', async (c) =>
    ok(c, { follow: await getFollow(db, c.get('partner').id, pathId(c, FOLLOW_NOT_FOUND_MESSAGE)) }),
  );
  app.patch('/api/v1/follows/:id', async (c) => {
    const id = pathId(c, FOLLOW_NOT_FOUND_MESSAGE);
    const body = await readJson(c, updateFollowBody);
    return ok(c, { follow: await updateFollow(db, c.get('partner').id, id, body) });
  });
  app.delete('/api/v1/follows/:id', async (c) => {
    const id = pathId(c, FOLLOW_NOT_FOUND_MESSAGE);
    return ok(c, { follow: await deleteFollow(db, clock.now(), c.get('partner').id, id) });
  });
  allowOnly(app, '/api/v1/follows/:id', ['GET', 'PATCH', 'DELETE']);

  app.get('/api/v1/events', async (c) => {
    const { follow_id, after, limit } = query(c, listEventsQuery);
    const page = await listEvents(db, c.get('partner').id, {
      followId: follow_id,
      after: after === undefined ? undefined : Number(after),
      limit: limit ?? 100,
    });
    return ok(c, page);
  });
  allowOnly(app, '/api/v1/events', ['GET']);
}
