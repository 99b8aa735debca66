import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { API_VERSION } from '../../lib/core/labels';
import type { RouteDeps } from './app-env';
import { COMMON_ERRORS, errors, json, success } from './http/openapi';
import { serve, type ServerApp } from './http/routes';

const DB_TIMEOUT_MS = 2_000;

const healthData = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), latency_ms: z.number().nullable(), driver: z.enum(['pglite', 'postgres']) }),
  api_version: z.string(),
  uptime_s: z.number(),
});

/** `GET /api/health`: 200 when the database answers `SELECT 1` in time, 503 "degraded" otherwise. */
export function healthRoutes(app: ServerApp, deps: RouteDeps): void {
  const startedAt = performance.now();
  serve(
    app,
    createRoute({
      method: 'get',
      path: '/api/health',
      summary: 'Health check',
      responses: {
        200: json(success(healthData), 'Healthy'),
        503: json(success(healthData), 'Database unavailable'),
        ...errors(COMMON_ERRORS),
      },
    }),
    async (c) => {
      const started = performance.now();
      let ok = false;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          deps.db.query('SELECT 1'),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('database health check timed out')), DB_TIMEOUT_MS);
          }),
        ]);
        ok = true;
      } catch (error) {
        deps.config.logger?.error('health check: database failed', error);
      } finally {
        clearTimeout(timer);
      }
      const data = {
        status: ok ? ('ok' as const) : ('degraded' as const),
        database: {
          ok,
          latency_ms: ok ? Math.round((performance.now() - started) * 100) / 100 : null,
          driver: deps.db.driver,
        },
        api_version: API_VERSION,
        uptime_s: Math.floor((performance.now() - startedAt) / 1000),
      };
      return c.json({ success: true as const, data, meta: {} }, ok ? 200 : 503);
    },
  );
}
