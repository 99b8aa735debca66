/**
 * The founder API: sign-up, the profile, DD packs, share links and who follows them. Each route is
 * declared once (createRoute): its document, its path and its input checks.
 */
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv, RouteDeps } from '../platform/app-env';
import { publicBaseUrl } from '../platform/http/base-url';
import { emptyBody } from '../platform/http/body';
import { ApiError } from '../platform/http/errors';
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  errors,
  idParams,
  json,
  jsonBody,
  SECURITY,
  success,
  WRITE_ERRORS,
} from '../platform/http/openapi';
import { serve, type ServerApp } from '../platform/http/routes';
import { listFollowersOfOrganisation } from '../partners/follows';
import { founderFollowSchema } from '../partners/schemas';
import { shareLinkUrls } from '../snapshots/paths';
import {
  authenticate,
  createOrganisation,
  createPack,
  createShareLink,
  getOrganisation,
  listShareLinks,
  revokeShareLink,
  SHARE_LINK_NOT_FOUND_MESSAGE,
  updateOrganisation,
} from './organisations';
import {
  createdShareLinkSchema,
  createOrganisationBody,
  createShareLinkBody,
  organisationSchema,
  packSchema,
  shareLinkSummarySchema,
  updateOrganisationBody,
} from './schemas';

export interface FounderRouteDeps extends RouteDeps {
  /** The outbox worker looks now: followers' events were written with the change. */
  nudge(): void;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** `Authorization: Bearer <founder_key>` sets `orgId`, or 401. */
function requireFounder(deps: RouteDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const key = header ? BEARER.exec(header)?.[1] : undefined;
    if (!key) {
      throw new ApiError(401, 'UNAUTHORIZED', 'Missing founder key: send Authorization: Bearer <founder_key>.', {
        'WWW-Authenticate': 'Bearer',
      });
    }
    const orgId = await authenticate(deps.db, key);
    if (!orgId) throw new ApiError(401, 'UNAUTHORIZED', 'Invalid founder key.', { 'WWW-Authenticate': 'Bearer' });
    c.set('orgId', orgId);
    await next();
  };
}

const ok = <T extends object>(data: T) => ({ success: true as const, data, meta: {} });

export function founderRoutes(app: ServerApp, deps: FounderRouteDeps): void {
  const { db, clock } = deps;
  const founder = { security: SECURITY.founderKey, middleware: [requireFounder(deps)] };

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/founder/organisations',
      summary: 'Sign up an organisation',
      request: { body: jsonBody(createOrganisationBody) },
      responses: {
        201: json(success(z.object({ organisation: organisationSchema, founder_key: z.string() })), 'Created'),
        ...errors({ ...WRITE_ERRORS, ...COMMON_ERRORS }),
      },
    }),
    async (c, input) => {
      const { organisation, founderKey } = await createOrganisation(db, clock.now(), input.body);
      return c.json(ok({ organisation, founder_key: founderKey }), 201);
    },
  );

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/founder/organisation',
      summary: 'Read the organisation',
      ...founder,
      responses: {
        200: json(success(z.object({ organisation: organisationSchema })), 'The organisation'),
        ...errors({ 401: ['UNAUTHORIZED'], ...COMMON_ERRORS }),
      },
    }),
    async (c) => c.json(ok({ organisation: await getOrganisation(db, c.get('orgId')) }), 200),
  );

  serve(
    app,
    createRoute({
      method: 'patch',
      path: '/api/founder/organisation',
      summary: 'Update the profile (scores recalculated)',
      ...founder,
      request: { body: jsonBody(updateOrganisationBody) },
      responses: {
        200: json(success(z.object({ organisation: organisationSchema })), 'Updated'),
        ...errors({ ...WRITE_ERRORS, 401: ['UNAUTHORIZED'], ...COMMON_ERRORS }),
      },
    }),
    async (c, input) => {
      const organisation = await updateOrganisation(db, clock.now(), c.get('orgId'), input.body);
      deps.nudge();
      return c.json(ok({ organisation }), 200);
    },
  );

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/founder/dd-packs',
      summary: 'Generate a Regulatory DD Pack',
      ...founder,
      request: { body: jsonBody(emptyBody, false) },
      responses: {
        201: json(success(z.object({ pack: packSchema })), 'Generated'),
        ...errors({ ...BODY_ERRORS, 401: ['UNAUTHORIZED'], 403: ['TIER_REQUIRED', 'CROSS_ORIGIN_REQUEST'], ...COMMON_ERRORS }),
      },
    }),
    async (c) => {
      const pack = await createPack(db, clock.now(), c.get('orgId'));
      deps.nudge();
      return c.json(ok({ pack }), 201);
    },
  );

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/founder/share-links',
      summary: 'Create an investor share link (valid 7 days)',
      ...founder,
      request: { body: jsonBody(createShareLinkBody, false) },
      responses: {
        201: json(success(z.object({ share_link: createdShareLinkSchema })), 'Created; the token is shown only here'),
        ...errors({
          ...BODY_ERRORS,
          401: ['UNAUTHORIZED'],
          403: ['TIER_REQUIRED', 'CROSS_ORIGIN_REQUEST'],
          409: ['PACK_REQUIRED'],
          ...COMMON_ERRORS,
        }),
      },
    }),
    async (c, input) => {
      const link = await createShareLink(db, clock.now(), c.get('orgId'), { label: input.body.label });
      const share_link = { ...link, ...shareLinkUrls(publicBaseUrl(c, deps.config), link.token) };
      return c.json(ok({ share_link }), 201);
    },
  );

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/founder/share-links',
      summary: 'List share links',
      ...founder,
      responses: {
        200: json(success(z.object({ share_links: z.array(shareLinkSummarySchema) })), 'Share links'),
        ...errors({ 401: ['UNAUTHORIZED'], ...COMMON_ERRORS }),
      },
    }),
    async (c) => c.json(ok({ share_links: await listShareLinks(db, clock.now(), c.get('orgId')) }), 200),
  );

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/founder/share-links/{id}/revoke',
      summary: 'Revoke a share link (effective immediately; its follows end)',
      ...founder,
      request: { params: idParams(SHARE_LINK_NOT_FOUND_MESSAGE), body: jsonBody(emptyBody, false) },
      responses: {
        200: json(success(z.object({ share_link: shareLinkSummarySchema })), 'Revoked'),
        ...errors({ ...WRITE_ERRORS, 401: ['UNAUTHORIZED'], 404: ['NOT_FOUND'], ...COMMON_ERRORS }),
      },
    }),
    async (c, input) => {
      const share_link = await revokeShareLink(db, clock.now(), c.get('orgId'), input.params.id);
      deps.nudge();
      return c.json(ok({ share_link }), 200);
    },
  );

  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/founder/follows',
      summary: 'Who follows this organisation’s links (version 1), by partner name',
      ...founder,
      responses: {
        200: json(success(z.object({ follows: z.array(founderFollowSchema) })), 'Follows'),
        ...errors({ 401: ['UNAUTHORIZED'], ...COMMON_ERRORS }),
      },
    }),
    async (c) => c.json(ok({ follows: await listFollowersOfOrganisation(db, c.get('orgId')) }), 200),
  );
}
