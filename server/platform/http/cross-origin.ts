/**
 * Refuses state-changing requests that a browser marks as coming from another web page. The founder
 * and dev APIs are called by scripts, tests and terminals, which send neither header; a page can make
 * a browser send a "simple" cross-site POST without any CORS preflight, and the browser then tells us
 * where it came from.
 */
import type { MiddlewareHandler } from 'hono';
import { CROSS_ORIGIN_REQUEST_MESSAGE, sendError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * `same-site` is refused too: every `localhost:<port>` is one site, so another local dev server's
 * page would count as same-site.
 */
const ACCEPTED_FETCH_SITES = new Set(['same-origin', 'none']);

function originOf(url: string): string | null {
  return URL.canParse(url) ? new URL(url).origin : null;
}

/** `publicBaseUrl`: behind a TLS proxy our own pages' origin is the public one, not the request URL's. */
export function refuseCrossOriginWrites(options: { publicBaseUrl?: string }): MiddlewareHandler {
  const publicOrigin = options.publicBaseUrl === undefined ? null : originOf(options.publicBaseUrl);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const fetchSite = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const crossSite = fetchSite !== undefined && !ACCEPTED_FETCH_SITES.has(fetchSite.trim().toLowerCase());
    // `Origin: null` (sandboxed frames, file: pages) is never our own origin.
    const foreignOrigin = origin !== undefined && origin !== originOf(c.req.url) && origin !== publicOrigin;
    if (crossSite || foreignOrigin) return sendError(c, 403, 'CROSS_ORIGIN_REQUEST', CROSS_ORIGIN_REQUEST_MESSAGE);
    return next();
  };
}
