/**
 * Version 1's partner API, behind `Authorization: Bearer <partner key>` (partners/auth.ts): who the
 * key belongs to, follows, and the partner's events. Webhook endpoints are served by
 * server/webhooks/routes.ts behind the same key check.
 */
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { snapshotSchema } from '../../lib/core/schemas/snapshot';
import type { AppEnv, RouteDeps } from '../platform/app-env';
import { publicBaseUrl } from '../platform/http/base-url';
import { BODY_ERRORS, errors, idParams, jsonBody, keyed, KEYED_ERRORS, SECURITY, success } from '../platform/http/openapi';
import { serve, type ServerApp } from '../platform/http/routes';
import { shareUrl } from '../snapshots/paths';
import {
  createFollow,
  deleteFollow,
  FOLLOW_NOT_FOUND_MESSAGE,
  getFollow,
  listEvents,
  listFollows,
  updateFollow,
} from './follows';
import { createFollowBody, digestSchema, followEventSchema, followSchema, partnerEventSchema, updateFollowBody } from './schemas';

export interface PartnerRouteDeps extends RouteDeps {
  /** The key check (partners/auth.ts), shared with the webhook endpoint routes. */
  requirePartner: MiddlewareHandler<AppEnv>;
}

const RESOURCE_ID = /^[A-Za-z0-9_-]{1,100}$/;
const listFollowsQuery = z.strictObject({ status: z.enum(['active', 'ended']).optional() });
const listEventsQuery = z.strictObject({
  follow_id: z.string().regex(RESOURCE_ID).optional(),
  after: z
    .string()
    .regex(/^\d{1,15}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

const ok = <T extends object>(data: T) => ({ success: true as const, data, meta: {} });

export function partnerRoutes(app: ServerApp, deps: PartnerRouteDeps): void {
  const { db, clock } = deps;
  const partner = { security: SECURITY.partnerKey, middleware: [deps.requirePartner] };
  const followParams = idParams(FOLLOW_NOT_FOUND_MESSAGE);

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/v1/partner',
      summary: 'The partner this key belongs to, and its quota',
      ...partner,
      responses: {
        200: keyed(
          success(z.object({ partner: z.object({ id: z.string(), name: z.string(), quota_per_minute: z.int() }) })),
          'Partner',
        ),
        ...errors(KEYED_ERRORS),
      },
    }),
    (c) => {
      const { id, name, quotaPerMinute } = c.get('partner');
      return c.json(ok({ partner: { id, name, quota_per_minute: quotaPerMinute } }), 200);
    },
  );

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/v1/follows',
      summary: 'Follow a company with a share token you hold (201; 200 when already followed)',
      description:
        'Answers with the snapshot the follow starts from: one partner view of the link. Unknown, malformed or revoked token: 404 NOT_FOUND; expired: 410 EXPIRED.',
      ...partner,
      request: { body: jsonBody(createFollowBody) },
      responses: {
        201: keyed(success(z.object({ follow: followSchema, snapshot: snapshotSchema })), 'Following'),
        200: keyed(success(z.object({ follow: followSchema, snapshot: snapshotSchema })), 'Already following'),
        ...errors({ ...BODY_ERRORS, 404: ['NOT_FOUND'], 410: ['EXPIRED'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => {
      const base = publicBaseUrl(c, deps.config);
      const result = await createFollow(db, clock.now(), c.get('partner').id, input.body, (token) => ({
        human_summary_url: shareUrl(base, token),
        service_profile_url: deps.config.serviceProfileUrl,
      }));
      const data = ok({ follow: result.follow, snapshot: result.snapshot });
      return result.created ? c.json(data, 201) : c.json(data, 200);
    },
  );

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/v1/follows',
      summary: 'List follows (`?status=active|ended`)',
      ...partner,
      request: { query: listFollowsQuery },
      responses: {
        200: keyed(success(z.object({ follows: z.array(followSchema) })), 'Follows'),
        ...errors({ 400: ['VALIDATION_ERROR'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => c.json(ok({ follows: await listFollows(db, c.get('partner').id, input.query.status) }), 200),
  );

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/v1/follows/{id}',
      summary: 'One follow',
      ...partner,
      request: { params: followParams },
      responses: {
        200: keyed(success(z.object({ follow: followSchema })), 'Follow'),
        ...errors({ 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => c.json(ok({ follow: await getFollow(db, c.get('partner').id, input.params.id) }), 200),
  );

  serve(
    app,
    createRoute({
      method: 'patch',
      path: '/api/v1/follows/{id}',
      summary: 'Change a follow’s rules or endpoint (from the next change on)',
      ...partner,
      request: { params: followParams, body: jsonBody(updateFollowBody) },
      responses: {
        200: keyed(success(z.object({ follow: followSchema })), 'Updated'),
        ...errors({ ...BODY_ERRORS, 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => {
      const follow = await updateFollow(db, c.get('partner').id, input.params.id, input.body);
      return c.json(ok({ follow }), 200);
    },
  );

  serve(
    app,
    createRoute({
      method: 'delete',
      path: '/api/v1/follows/{id}',
      summary: 'Stop following (idempotent; no event)',
      ...partner,
      request: { params: followParams },
      responses: {
        200: keyed(success(z.object({ follow: followSchema })), 'Ended'),
        ...errors({ 404: ['NOT_FOUND'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => c.json(ok({ follow: await deleteFollow(db, clock.now(), c.get('partner').id, input.params.id) }), 200),
  );

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/v1/events',
      summary: 'Your events, oldest first, with their delivery state (`?follow_id=`, `?after=<cursor>`, `?limit=`)',
      description: `Webhook bodies: one event (${followEventSchema.shape.type.options.join(', ')}) or a digest (digest.daily, digest.weekly).`,
      ...partner,
      request: { query: listEventsQuery },
      responses: {
        200: keyed(success(z.object({ events: z.array(partnerEventSchema), next_cursor: z.string().nullable() })), 'Events'),
        ...errors({ 400: ['VALIDATION_ERROR'], ...KEYED_ERRORS }),
      },
    }),
    async (c, input) => {
      const { follow_id, after, limit } = input.query;
      const page = await listEvents(db, c.get('partner').id, {
        followId: follow_id,
        after: after === undefined ? undefined : Number(after),
        limit: limit ?? 100,
      });
      return c.json(ok(page), 200);
    },
  );

  // What the server POSTs to a partner's endpoint (OpenAPI 3.1 `webhooks`), signed per Standard Webhooks.
  const webhookHeaders = z.object({
    'webhook-id': z.string(),
    'webhook-timestamp': z.string(),
    'webhook-signature': z.string(),
  });
  for (const [name, schema, summary] of [
    ['followEvent', followEventSchema, 'One change event (or follow.ended)'],
    ['digest', digestSchema, 'A daily or weekly digest of held events'],
  ] as const) {
    app.openAPIRegistry.registerWebhook({
      method: 'post',
      path: name,
      summary,
      request: { headers: webhookHeaders, body: jsonBody(schema) },
      responses: { 200: { description: 'Any 2xx: delivered. Anything else (3xx included) is retried.' } },
    });
  }
}
