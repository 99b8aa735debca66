import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
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

/** `::ffff:10.0.0.1` and `10.0.0.1` are one client. */
function normaliseAddress(address: string): string {
  const trimmed = address.trim().toLowerCase();
  return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice(7) : trimmed;
}

/**
 * The client's address. Behind a trusted proxy it is the right-most `X-Forwarded-For` entry (the one
 * our proxy appended; entries to its left are client-supplied and could be forged). Otherwise the
 * socket address; headers are ignored so a client cannot pick its own bucket.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    const last = forwarded
      ?.split(',')
      .map((part) => part.trim())
      .filter((part) => part.length > 0)
      .at(-1);
    if (last) return normaliseAddress(last);
  }
  const socket = socketAddress(c);
  return socket ? normaliseAddress(socket) : NO_SOCKET_KEY;
}

/**
 * One limiter instance, mounted on both the snapshot API and the human share view, so both draw on
 * the same per-address bucket. Every request counts (errors included); CORS preflights do not.
 */
export function createRateLimitMiddleware(
  deps: RateLimiterDeps,
  options: { trustProxy: boolean; onLimited: (c: Context) => Response | Promise<Response> },
): MiddlewareHandler {
  return rateLimiter({
    windowMs: deps.windowMs,
    limit: deps.limit,
    standardHeaders: 'draft-6',
    store: deps.store,
    keyGenerator: (c) => `ip:${clientAddress(c, options.trustProxy)}`,
    skip: (c) => c.req.method === 'OPTIONS',
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- the library returns the handler's result as the response; its type says void
    handler: (c) => options.onLimited(c),
  });
}
