import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import { addressKey } from './client-key';
import type { ClockedStore } from './store';

export interface RateLimiterDeps {
  store: ClockedStore;
  /** Requests per window per client address (spec part 8: 60 per minute). */
  limit: number;
  windowMs: number;
}

export const SPEC_RATE_LIMIT = { limit: 60, windowMs: 60_000 } as const;

/** Key when there is no socket (in-process `app.request` without an `incoming` binding). */
export const NO_SOCKET_KEY = 'no-socket';

function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/**
 * The client's rate-limit key (`addressKey`: IPv4 per address, IPv6 per /64). Behind a trusted proxy
 * it is the right-most `X-Forwarded-For` entry (the one our proxy appended; entries to its left are
 * client-supplied and could be forged). When that entry is not an IP address (garbage, empty, a port
 * attached) the socket address is used: a client cannot mint buckets by sending junk, and never
 * reaches past an empty entry to a forged one. Without a trusted proxy, headers are ignored so a
 * client cannot pick its own bucket.
 */
export function clientKey(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    if (forwarded !== undefined) {
      const key = addressKey(forwarded.slice(forwarded.lastIndexOf(',') + 1).trim());
      if (key !== null) return key;
    }
  }
  const socket = socketAddress(c);
  return (socket === undefined ? null : addressKey(socket)) ?? NO_SOCKET_KEY;
}

/**
 * One limiter instance, mounted on both the snapshot API and the human share view, so both draw on
 * the same per-address bucket. Every request counts (errors included); CORS preflights do not.
 */
export function createRateLimitMiddleware(
  deps: RateLimiterDeps,
  options: {
    trustProxy: boolean;
    onLimited: (c: Context) => Response | Promise<Response>;
    /** Requests another limiter counts (a partner key's own quota). */
    skip?: (c: Context) => boolean;
  },
): MiddlewareHandler {
  return rateLimiter({
    windowMs: deps.windowMs,
    limit: deps.limit,
    standardHeaders: 'draft-6',
    store: deps.store,
    keyGenerator: (c) => `ip:${clientKey(c, options.trustProxy)}`,
    skip: (c) => c.req.method === 'OPTIONS' || (options.skip?.(c) ?? false),
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- the library returns the handler's result as the response; its type says void
    handler: (c) => options.onLimited(c),
  });
}
