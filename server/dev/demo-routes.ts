import type { Context } from 'hono';
import type { BadgeLookState } from '../../lib/core/badge-look';
import { readinessLabelFor } from '../../lib/core/labels';
import type { RouteDeps } from '../platform/app-env';
import { publicBaseUrl } from '../platform/http/base-url';
import { allowOnly, type ServerApp } from '../platform/http/routes';
import { SHARE_CSP } from '../snapshots/routes';
import type { ViewCounter } from '../snapshots/snapshot';
import { renderDemoPage, type DemoLink } from './demo-page';

/**
 * The demo page itself needs one inline `<style>` (no scripts, images, fonts, frames or forms; its
 * links are plain anchors). It is also where the extension is shown and smoke-tested, and Firefox
 * holds a content script's inserted `<style>` elements (one in each badge's shadow root) to the
 * page's policy: a hash of the page's own stylesheet blocked every badge's styles there (measured
 * with the Firefox smoke test), so styles are `'unsafe-inline'`. Without scripts and without any
 * way to load from or send to another origin, injected CSS has nowhere to send what it reads.
 * `img-src 'self'` is the browser's own `/favicon.ico` request (refused, it is a console error in
 * every test page check). The extension's card frame is not bound by `frame-src`.
 */
export const DEMO_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Headers of every `/demo` response. The page lists seeded share tokens: never cached, never framed
 * (a framing page could overlay it), its URL never sent as a referrer. The page sets `DEMO_CSP`;
 * anything else on the path (the HTML 421 page, a 405 envelope) gets the share view's script-free policy.
 */
export function setDemoHeaders(c: Context): void {
  if (!c.res.headers.has('Content-Security-Policy')) c.header('Content-Security-Policy', SHARE_CSP);
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
}

/**
 * What a link's badge shows once loaded, from the link as it is now (read without counting a view):
 * a founder who changed their scores sees the new ones in the Expected badge column.
 */
async function expectedBadge(views: ViewCounter, link: DemoLink): Promise<BadgeLookState> {
  const lookup = await views.peek(link.token);
  if (lookup.status === 'ok') {
    const score = lookup.row.readiness_score;
    return { state: 'ready', score, label: readinessLabelFor(score) };
  }
  return { state: 'error', code: lookup.status === 'expired' ? 'EXPIRED' : 'NOT_FOUND' };
}

/** `GET /demo` (seeded links, or a note how to seed) and `GET /` → `/demo`. */
export function demoRoutes(
  app: ServerApp,
  deps: RouteDeps & { demoLinks(): readonly DemoLink[] | null },
  views: ViewCounter,
): void {
  app.get('/demo', async (c) => {
    c.header('Content-Security-Policy', DEMO_CSP);
    const links = deps.demoLinks() ?? [];
    const rows = await Promise.all(links.map(async (link) => ({ ...link, expected: await expectedBadge(views, link) })));
    return c.html(renderDemoPage({ baseUrl: publicBaseUrl(c, deps.config), links: rows }));
  });
  allowOnly(app, '/demo', ['GET']);
  app.get('/', (c) => c.redirect('/demo', 302));
}
