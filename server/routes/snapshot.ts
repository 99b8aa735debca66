import type { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-types';
import { publicBaseUrl } from '../http/base-url';
import { EXPIRED_MESSAGE, TOKEN_NOT_FOUND_MESSAGE, sendError } from '../http/errors';
import { allowOnly } from '../http/methods';
import { SNAPSHOT_PATHS, SNAPSHOT_ROUTE } from '../paths';
import { buildSnapshot, type ViewCounter } from '../snapshot';

export function registerSnapshotRoutes(app: Hono<AppEnv>, deps: AppDeps, views: ViewCounter): void {
  app.get(SNAPSHOT_ROUTE, async (c) => {
    const token = c.req.param('token');
    // Hono runs this GET handler for HEAD too and drops the body; HEAD reads without counting a view.
    const lookup = await views.lookup(c.req.method, token);
    const now = deps.clock.now();
    if (lookup.status === 'not_found') return sendError(c, 404, 'NOT_FOUND', TOKEN_NOT_FOUND_MESSAGE);
    if (lookup.status === 'expired') return sendError(c, 410, 'EXPIRED', EXPIRED_MESSAGE);
    const envelope = buildSnapshot(lookup.row, {
      token,
      now,
      publicBaseUrl: publicBaseUrl(c, deps.config),
      serviceProfileUrl: deps.config.serviceProfileUrl,
    });
    return c.json(envelope, 200);
  });
  // Anything else under the prefix (empty token, extra segments) is just another unknown token.
  app.get(SNAPSHOT_PATHS, (c) => sendError(c, 404, 'NOT_FOUND', TOKEN_NOT_FOUND_MESSAGE));
  allowOnly(app, SNAPSHOT_PATHS, ['GET']);
}
