/**
 * `Authorization: Bearer <partner key>`: who the partner is, and the key's own quota (not the caller's
 * address). Every keyed response carries the IETF rate-limit headers in their structured form
 * (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "partner";q=120;w=60`,
 * `RateLimit: "partner";r=119;t=42`); over quota is 429 RATE_LIMITED with `Retry-After`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, PartnerIdentity, RouteDeps } from '../platform/app-env';
import { ApiError } from '../platform/http/errors';
import { clientKey } from '../platform/rate-limit/middleware';
import type { ClockedStore } from '../platform/rate-limit/store';
import { authenticatePartner, type PartnerAuthentication } from './keys';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** Failed key checks allowed per client address and window: a key cannot be guessed, but each try costs a lookup. */
export const AUTH_FAILURES_PER_WINDOW = 60;
const POLICY_NAME = '"partner"';

/** The bearer credential, or undefined when the request has none (or another scheme). */
export function bearerCredential(c: Context): string | undefined {
  const header = c.req.header('authorization');
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/** Does the request carry a bearer credential at all (a v0 snapshot request has none)? */
export function hasBearer(c: Context): boolean {
  const header = c.req.header('authorization');
  return header !== undefined && /^Bearer(\s|$)/i.test(header.trim());
}

function secondsUntil(reset: Date | undefined): number {
  return reset === undefined ? 0 : Math.max(0, Math.ceil((reset.getTime() - Date.now()) / 1000));
}

const unauthorized = (message: string) => new ApiError(401, 'UNAUTHORIZED', message, { 'WWW-Authenticate': 'Bearer' });

export interface PartnerAuthOptions {
  store: ClockedStore;
  windowMs: number;
  trustProxy: boolean;
}

/**
 * Checks of one key that arrive together share one lookup: it starts after the current I/O phase
 * (as ViewCounter batches views), so requests already received join it. PGlite runs queries one at a
 * time on the event loop, and a lookup per request cut keyed throughput to about 40 % of unkeyed
 * (measured). Nothing is cached past the lookup: a revocation holds from the next lookup on.
 */
function coalescedLookup(deps: RouteDeps): (key: string) => Promise<PartnerAuthentication> {
  const inFlight = new Map<string, Promise<PartnerAuthentication>>();
  return (key) => {
    const running = inFlight.get(key);
    if (running) return running;
    const lookup = new Promise<PartnerAuthentication>((resolve, reject) => {
      setImmediate(() => {
        authenticatePartner(deps.db, key, deps.clock.now()).then(resolve, reject);
      });
    }).finally(() => inFlight.delete(key));
    inFlight.set(key, lookup);
    return lookup;
  };
}

/** Checks the key, then counts the request against the key's quota; sets `partner` for the handler. */
export function requirePartner(deps: RouteDeps, options: PartnerAuthOptions): MiddlewareHandler<AppEnv> {
  const windowSeconds = Math.round(options.windowMs / 1000);
  const lookup = coalescedLookup(deps);
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    const partner = await identify(c, lookup, options);
    const info = await options.store.increment(`partner:${partner.id}`);
    const remaining = Math.max(0, partner.quotaPerMinute - info.totalHits);
    const resetSeconds = secondsUntil(info.resetTime);
    const headers: Record<string, string> = {
      'RateLimit-Policy': `${POLICY_NAME};q=${partner.quotaPerMinute};w=${windowSeconds}`,
      RateLimit: `${POLICY_NAME};r=${remaining};t=${resetSeconds}`,
    };
    if (info.totalHits > partner.quotaPerMinute) {
      throw new ApiError(
        429,
        'RATE_LIMITED',
        `Too many requests: this partner key's quota is ${partner.quotaPerMinute} per minute.`,
        { ...headers, 'Retry-After': String(Math.max(1, resetSeconds)) },
      );
    }
    c.set('partner', partner);
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

async function identify(
  c: Context<AppEnv>,
  lookup: (key: string) => Promise<PartnerAuthentication>,
  options: PartnerAuthOptions,
): Promise<PartnerIdentity> {
  const key = bearerCredential(c);
  const result = key === undefined ? null : await lookup(key);
  if (result?.status === 'ok') return result.partner;
  // Failed checks draw on a budget per client address, so nobody can make the server look keys up without end.
  const failures = await options.store.increment(`authfail:${clientKey(c, options.trustProxy)}`);
  if (failures.totalHits > AUTH_FAILURES_PER_WINDOW) {
    const retryAfter = String(Math.max(1, secondsUntil(failures.resetTime)));
    throw new ApiError(429, 'RATE_LIMITED', 'Too many requests with a bad partner key from this address.', {
      'Retry-After': retryAfter,
    });
  }
  if (key === undefined) throw unauthorized('Missing partner key: send Authorization: Bearer <partner key>.');
  if (result?.status === 'revoked') throw unauthorized('This partner key has been revoked.');
  throw unauthorized('Invalid partner key.');
}
