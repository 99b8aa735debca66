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
  /**
   * Other origins the same service answers at (the local server answers at `localhost` and at
   * `127.0.0.1`): a token there is the same link as on `origin`, fetched from `origin` (issue #33 item 14).
   */
  aliases?: string[];
}

/** The snapshot API's path prefix (spec part 4); the token follows it. */
export const API_PATH_PREFIX = '/api/v1/compliance-status/';
/** The human investor view's path prefix. */
export const SHARE_PATH_PREFIX = '/share/';

// Concatenated, not templates: a template literal is kept in bundles that import only the prefixes.
export const API_PATH_TEMPLATE = API_PATH_PREFIX + '{token}';
export const SHARE_PATH_TEMPLATE = SHARE_PATH_PREFIX + '{token}';

/** The bundled dev server (`npm run server`), on its default port: one service, at both loopback names. */
export const LOCAL_SERVICES: readonly ServiceConfig[] = [
  {
    id: 'local-localhost',
    name: 'Local dev server',
    origin: 'http://localhost:8787',
    apiPathTemplate: API_PATH_TEMPLATE,
    sharePathTemplates: [SHARE_PATH_TEMPLATE],
    aliases: ['http://127.0.0.1:8787'],
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
 * The services as link recognition takes them: each alias of a service as a service of its own, so a
 * link on an alias is recognised like one on the service's origin (the background then treats both
 * as one link: `serviceAt`).
 */
export function spellOutAliases<Service extends ServiceConfig>(services: readonly Service[]): Service[] {
  return services.flatMap((service) => [
    service,
    ...(service.aliases ?? []).map((alias, index) => ({ ...service, id: `${service.id}~${index + 1}`, origin: alias })),
  ]);
}

/** The service that answers at `origin`, on its own origin or an alias; undefined when none does. */
export function serviceAt<Service extends ServiceConfig>(services: readonly Service[], origin: string): Service | undefined {
  return services.find((service) => service.origin === origin) ?? services.find((service) => service.aliases?.includes(origin));
}

/** Every origin a link of the service at `origin` may be written with: its own first, then its aliases. */
export function spellingsOf(services: readonly ServiceConfig[], origin: string): string[] {
  const service = serviceAt(services, origin);
  return service ? [service.origin, ...(service.aliases ?? [])] : [origin];
}

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
