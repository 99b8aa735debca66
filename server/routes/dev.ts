import type { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-types';
import { readJson } from '../http/body';
import { allowOnly } from '../http/methods';
import { devClockBody, emptyBody } from '../schemas';

/** Test hooks, mounted only with `--dev`: move the clock, clear rate-limit state. */
export function registerDevRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  // Cross-site browser POSTs (a page's simple, preflight-free request) are refused by
  // refuseCrossOriginWrites (server/http/cross-origin.ts) before they get here; scripts send no Origin.
  app.get('/api/dev/clock', (c) => c.json({ success: true, data: { now: deps.clock.now().toISOString() }, meta: {} }));
  app.post('/api/dev/clock', async (c) => {
    const body = await readJson(c, devClockBody);
    const now = deps.clock.advance(body.advance_ms);
    // Retries, digests and expiries that just fell due go out now, not at the next poll.
    deps.webhooks?.nudge();
    return c.json({ success: true, data: { now: now.toISOString() }, meta: {} }, 200);
  });
  allowOnly(app, '/api/dev/clock', ['GET', 'POST']);

  app.post('/api/dev/reset', async (c) => {
    await readJson(c, emptyBody);
    await deps.rateLimiter.store.resetAll();
    return c.json({ success: true, data: { now: deps.clock.now().toISOString(), rate_limits_cleared: true }, meta: {} }, 200);
  });
  allowOnly(app, '/api/dev/reset', ['POST']);
}
