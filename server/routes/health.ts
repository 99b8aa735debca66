import type { Hono } from 'hono';
import { API_VERSION } from '../../lib/core/labels';
import type { AppDeps, AppEnv } from '../app-types';
import { allowOnly } from '../http/methods';

const DB_TIMEOUT_MS = 2_000;

/** `GET /api/health`: 200 when the database answers `SELECT 1` in time, 503 "degraded" otherwise. */
export function registerHealthRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const startedAt = performance.now();
  app.get('/api/health', async (c) => {
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
    return c.json({ success: true, data, meta: {} }, ok ? 200 : 503);
  });
  allowOnly(app, '/api/health', ['GET']);
}
