/**
 * The compliance-status services the extension knows out of the box. A link counts only if its
 * origin equals a configured service origin exactly and its path fills one of the service's path
 * templates (`{token}` marks the token). The schema that checks a stored or typed-in service is
 * `serviceConfigSchema` (lib/core/schemas/service.ts).
 */
export interface ServiceConfig {
  id: string;
  name: string;
  /** Scheme, host and port only, e.g. `https://comply.example`; no path, no trailing slash. */
  origin: string;
  apiPathTemplate: string;
  sharePathTemplates: string[];
}

/** The snapshot API's path prefix (spec part 4); the token follows it. */
export const API_PATH_PREFIX = '/api/v1/compliance-status/';
/** The human investor view's path prefix. */
export const SHARE_PATH_PREFIX = '/share/';

export const API_PATH_TEMPLATE = `${API_PATH_PREFIX}{token}`;
export const SHARE_PATH_TEMPLATE = `${SHARE_PATH_PREFIX}{token}`;

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

/**
 * Placeholder origin of the hosted compliance-status service: the spec does not publish one.
 * Administrators override it through managed storage, users in the options page. It is not in
 * `host_permissions`, so it is only contacted once the user grants it.
 */
export const PRODUCTION_SERVICE_ORIGIN = 'https://app.compliance-status.example';

export const PRODUCTION_SERVICE: ServiceConfig = {
  id: 'production',
  name: 'Compliance Status',
  origin: PRODUCTION_SERVICE_ORIGIN,
  apiPathTemplate: API_PATH_TEMPLATE,
  sharePathTemplates: [SHARE_PATH_TEMPLATE],
};

export const DEFAULT_SERVICES: readonly ServiceConfig[] = [...LOCAL_SERVICES, PRODUCTION_SERVICE];

/**
 * `url` when it is an http(s) address on `origin` exactly (scheme, host and port; no user info), else
 * null. A link a snapshot hands out (`links.human_summary_url`) is offered only on the service's own
 * origin: a misbehaving service cannot send the reader elsewhere (security review finding 4).
 */
export function urlOnOrigin(url: string, origin: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  const sameOrigin = parsed.origin === origin && parsed.username === '' && parsed.password === '';
  return sameOrigin && (parsed.protocol === 'https:' || parsed.protocol === 'http:') ? parsed.href : null;
}
