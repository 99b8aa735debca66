/**
 * Test hooks, mounted only with `--dev`: move the clock, clear rate-limit state. Cross-site browser
 * POSTs (a page's simple, preflight-free request) are refused before they get here
 * (server/platform/http/cross-origin.ts); scripts send no Origin.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { timestampSchema } from '../../lib/core/schemas/snapshot';
import type { RouteDeps } from '../platform/app-env';
import { emptyBody } from '../platform/http/body';
import { COMMON_ERRORS, errors, json, jsonBody, success, WRITE_ERRORS } from '../platform/http/openapi';
import { serve, type ServerApp } from '../platform/http/routes';
import type { ClockedStore } from '../platform/rate-limit/store';

export interface DevRouteDeps extends RouteDeps {
  /** The rate limiter's store, which reset clears. */
  store: ClockedStore;
  /** Retries, digests and expiries that fell due with a clock move go out now, not at the next poll. */
  nudge(): void;
}

const devClockBody = z.strictObject({
  advance_ms: z
    .int()
    .min(0)
    .max(366 * 24 * 60 * 60 * 1000),
});
const devClockData = z.object({ now: timestampSchema });
const CROSS_ORIGIN_NOTE =
  'Refused with 403 CROSS_ORIGIN_REQUEST when a browser marks it as coming from another web page (Origin, Sec-Fetch-Site).';

const ok = <T extends object>(data: T) => ({ success: true as const, data, meta: {} });

export function devRoutes(app: ServerApp, deps: DevRouteDeps): void {
  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/dev/clock',
      summary: 'Dev only: read the server clock',
      responses: { 200: json(success(devClockData), 'Current clock time'), ...errors(COMMON_ERRORS) },
    }),
    (c) => c.json(ok({ now: deps.clock.now().toISOString() }), 200),
  );

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/dev/clock',
      summary: 'Dev only: move the server clock forward',
      description: `A JSON body (415 for other types). ${CROSS_ORIGIN_NOTE}`,
      request: { body: jsonBody(devClockBody) },
      responses: { 200: json(success(devClockData), 'New clock time'), ...errors({ ...WRITE_ERRORS, ...COMMON_ERRORS }) },
    }),
    (c, input) => {
      const now = deps.clock.advance(input.body.advance_ms);
      deps.nudge();
      return c.json(ok({ now: now.toISOString() }), 200);
    },
  );

  serve(
    app,
    createRoute({
      method: 'post',
      path: '/api/dev/reset',
      summary: 'Dev only: clear rate-limit state',
      description: `No body needed (a JSON body, if any). ${CROSS_ORIGIN_NOTE}`,
      request: { body: jsonBody(emptyBody, false) },
      responses: {
        200: json(success(devClockData.extend({ rate_limits_cleared: z.literal(true) })), 'Cleared'),
        ...errors({ ...WRITE_ERRORS, ...COMMON_ERRORS }),
      },
    }),
    async (c) => {
      await deps.store.resetAll();
      return c.json(ok({ now: deps.clock.now().toISOString(), rate_limits_cleared: true as const }), 200);
    },
  );
}
