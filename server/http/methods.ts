import type { Hono } from 'hono';
import type { AppEnv } from '../app-types';
import { sendError } from './errors';

/**
 * Registers the 405 fallback for a path, after its real handlers: any other method gets
 * 405 METHOD_NOT_ALLOWED with an `Allow` header.
 */
export function allowOnly(app: Hono<AppEnv>, path: string, methods: readonly string[]): void {
  const allowed = methods.includes('GET') ? [...methods, 'HEAD'] : [...methods];
  app.all(path, (c) => {
    c.header('Allow', allowed.join(', '));
    return sendError(c, 405, 'METHOD_NOT_ALLOWED', `Method ${c.req.method} is not allowed here; use ${allowed.join(', ')}.`);
  });
}
