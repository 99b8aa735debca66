/**
 * The snapshot API (`GET /api/v1/compliance-status/{token}`) and the human investor view
 * (`GET /share/{token}`): one read each, counted as a view (HEAD reads without counting).
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { snapshotSuccessEnvelopeSchema } from '../../lib/core/schemas/snapshot';
import type { RouteDeps } from '../platform/app-env';
import { publicBaseUrl } from '../platform/http/base-url';
import { EXPIRED_MESSAGE, sendError, TOKEN_NOT_FOUND_MESSAGE } from '../platform/http/errors';
import { COMMON_ERRORS, errors, json, RATE_LIMIT_HEADERS } from '../platform/http/openapi';
import { allowOnly, serve, type ServerApp } from '../platform/http/routes';
import { htmlErrorPage } from '../platform/views/error-page';
import { SHARE_OPENAPI_PATH, SHARE_PATHS, SNAPSHOT_OPENAPI_PATH, SNAPSHOT_PATHS } from './paths';
import { renderSharePage } from './share-page';
import { buildSnapshot, type ViewCounter } from './snapshot';
import { withKnownBody } from '../platform/http/known-body';

/** No scripts, no external resources: inline styles and data: images only. */
export const SHARE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers of every `/share/*` response (pages and errors alike). */
export function setShareHeaders(c: Context): void {
  c.header('Content-Security-Policy', SHARE_CSP);
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
}

const tokenParams = z.object({ token: z.string() });
const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

export function snapshotRoutes(app: ServerApp, deps: RouteDeps, views: ViewCounter): void {
  const snapshotOf = (c: Context, token: string, row: Parameters<typeof buildSnapshot>[0]) =>
    buildSnapshot(row, {
      token,
      now: deps.clock.now(),
      publicBaseUrl: publicBaseUrl(c, deps.config),
      serviceProfileUrl: deps.config.serviceProfileUrl,
    });

  serve(
    app,
    createRoute({
      method: 'get',
      path: SNAPSHOT_OPENAPI_PATH,
      summary: 'Get compliance status',
      description: 'Counts one view. No authorization: the share token is the credential.',
      request: { params: tokenParams },
      responses: {
        200: { ...json(snapshotSuccessEnvelopeSchema, 'The snapshot'), headers: RATE_LIMIT_HEADERS },
        ...errors({ 404: ['NOT_FOUND'], 410: ['EXPIRED'], 429: ['RATE_LIMITED'], ...COMMON_ERRORS }),
      },
    }),
    async (c, input) => {
      const { token } = input.params;
      // Hono runs this GET handler for HEAD too and drops the body; HEAD reads without counting a view.
      const lookup = await views.lookup(c.req.method, token);
      if (lookup.status === 'not_found') return sendError(c, 404, 'NOT_FOUND', TOKEN_NOT_FOUND_MESSAGE);
      if (lookup.status === 'expired') return sendError(c, 410, 'EXPIRED', EXPIRED_MESSAGE);
      const body = new TextEncoder().encode(JSON.stringify(snapshotOf(c, token, lookup.row)));
      return withKnownBody(c, c.body(body, 200, { 'Content-Type': 'application/json' }), body);
    },
  );
  // Anything else under the prefix (empty token, extra segments) is just another unknown token.
  app.get(SNAPSHOT_PATHS, (c) => sendError(c, 404, 'NOT_FOUND', TOKEN_NOT_FOUND_MESSAGE));
  allowOnly(app, SNAPSHOT_PATHS, ['GET']);

  serve(
    app,
    createRoute({
      method: 'get',
      path: SHARE_OPENAPI_PATH,
      summary: 'Human investor view (HTML)',
      description: 'Counts one view and shares the rate-limit bucket with the API.',
      request: { params: tokenParams },
      responses: {
        200: html('HTML page'),
        404: html('HTML error page (unknown, malformed or revoked token)'),
        410: html('HTML error page (expired)'),
        421: html('HTML error page (Host not allowed)'),
        429: html('HTML error page (rate limited)'),
        500: html('HTML error page (server fault)'),
        ...errors({ 405: COMMON_ERRORS[405] }),
      },
    }),
    async (c, input) => {
      const { token } = input.params;
      const lookup = await views.lookup(c.req.method, token);
      if (lookup.status === 'not_found') return htmlErrorPage(c, 404);
      if (lookup.status === 'expired') return htmlErrorPage(c, 410);
      return c.html(renderSharePage(snapshotOf(c, token, lookup.row)), 200);
    },
  );
  app.get(SHARE_PATHS, (c) => htmlErrorPage(c, 404));
  allowOnly(app, SHARE_PATHS, ['GET']);
}
