import type { Context } from 'hono';
import type { AppConfig } from '../app-env';

/** The configured public base URL, or the origin the client used (no trailing slash). */
export function publicBaseUrl(c: Context, config: AppConfig): string {
  const base = config.publicBaseUrl ?? new URL(c.req.url).origin;
  return base.replace(/\/+$/, '');
}
