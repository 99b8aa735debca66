import { z } from 'zod';

/**
 * A compliance-status service the extension knows. A link counts only if its origin equals one of
 * these origins exactly and its path matches one of the templates (`{token}` marks the token).
 */
export const serviceConfigSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(80),
  /** Scheme, host and port only, e.g. `https://comply.example`; no path, no trailing slash. */
  origin: z
    .string()
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
      } catch {
        return false;
      }
    }, 'origin must be an http(s) origin like https://service.example (no path, no trailing slash)'),
  apiPathTemplate: z.string().startsWith('/').includes('{token}'),
  sharePathTemplates: z.array(z.string().startsWith('/').includes('{token}')),
});
export type ServiceConfig = z.infer<typeof serviceConfigSchema>;

export const API_PATH_TEMPLATE = '/api/v1/compliance-status/{token}';
export const SHARE_PATH_TEMPLATE = '/share/{token}';

/** The bundled dev server (`npm run server`), on its default port. */
export const LOCAL_SERVICES: readonly ServiceConfig[] = [
  {
    id: 'local-localhost',
    name: 'Local dev server',
    origin: 'http://localhost:8787',
    apiPathTemplate: API_PATH_TEMPLATE,
    sharePathTemplates: [SHARE_PATH_TEMPLATE],
  },
  {
    id: 'local-127',
    name: 'Local dev server (127.0.0.1)',
    origin: 'http://127.0.0.1:8787',
    apiPathTemplate: API_PATH_TEMPLATE,
    sharePathTemplates: [SHARE_PATH_TEMPLATE],
  },
];
