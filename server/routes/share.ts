import type { Context, Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-types';
import { publicBaseUrl } from '../http/base-url';
import { allowOnly } from '../http/methods';
import { buildSnapshot, type ViewCounter } from '../snapshot';
import { ERROR_PAGE_COPY, renderErrorPage, type ErrorPageStatus } from '../views/error-page';
import { renderSharePage } from '../views/share-page';
import { SHARE_PATHS, SHARE_ROUTE } from '../paths';

/** No scripts, no external resources: inline styles and data: images only. */
export const SHARE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers of every `/share/*` response (pages and errors alike). */
export function setShareHeaders(c: Context): void {
  c.header('Content-Security-Policy', SHARE_CSP);
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
}

export function htmlErrorPage(c: Context, status: ErrorPageStatus): Response {
  return c.html(renderErrorPage({ status, ...ERROR_PAGE_COPY[status] }), status);
}

export function registerShareRoutes(app: Hono<AppEnv>, deps: AppDeps, views: ViewCounter): void {
  app.get(SHARE_ROUTE, async (c) => {
    const token = c.req.param('token');
    // Hono runs this GET handler for HEAD too and drops the body; HEAD reads without counting a view.
    const lookup = await views.lookup(c.req.method, token);
    const now = deps.clock.now();
    if (lookup.status === 'not_found') return htmlErrorPage(c, 404);
    if (lookup.status === 'expired') return htmlErrorPage(c, 410);
    const envelope = buildSnapshot(lookup.row, {
      token,
      now,
      publicBaseUrl: publicBaseUrl(c, deps.config),
      serviceProfileUrl: deps.config.serviceProfileUrl,
    });
    return c.html(renderSharePage(envelope), 200);
  });
  app.get(SHARE_PATHS, (c) => htmlErrorPage(c, 404));
  allowOnly(app, SHARE_PATHS, ['GET']);
}
