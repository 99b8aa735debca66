import type { ServiceConfig } from '../services';
import { isValidTokenShape } from '../token';

export type LinkKind = 'api' | 'share';

export interface RecognizedLink {
  readonly service: ServiceConfig;
  /** The configured origin (scheme, host, port), e.g. `https://comply.example`. */
  readonly origin: string;
  readonly token: string;
  /** Which form the link came in. */
  readonly kind: LinkKind;
  /** The JSON API URL for this token, built from the service's origin and API path template. */
  readonly apiUrl: string;
  /** One cache key per (origin, token), whichever form or wrapper the link came in. */
  readonly canonicalKey: string;
}

/** A service's configured path templates, compiled once, and the token a path fills them with. */

export interface CompiledTemplate {
  readonly kind: LinkKind;
  readonly prefix: string;
  readonly suffix: string;
}

export interface CompiledService {
  readonly service: ServiceConfig;
  readonly origin: string;
  readonly apiPrefix: string;
  readonly apiSuffix: string;
  readonly templates: readonly CompiledTemplate[];
}

const TOKEN_SLOT = '{token}';

export function compileTemplate(kind: LinkKind, template: string): CompiledTemplate | null {
  const at = template.indexOf(TOKEN_SLOT);
  if (!template.startsWith('/') || at === -1) return null;
  if (template.indexOf(TOKEN_SLOT, at + TOKEN_SLOT.length) !== -1) return null;
  return { kind, prefix: template.slice(0, at), suffix: template.slice(at + TOKEN_SLOT.length) };
}

/** The service's own origin if it is a canonical http(s) origin (as `serviceConfigSchema` demands). */
export function canonicalOrigin(origin: string): { origin: string; hostname: string } | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.origin !== origin) return null;
    return { origin: url.origin, hostname: url.hostname };
  } catch {
    return null;
  }
}

export function compileService(service: ServiceConfig): { compiled: CompiledService; hostname: string } | null {
  const origin = canonicalOrigin(service.origin);
  if (origin === null) return null;
  const api = compileTemplate('api', service.apiPathTemplate);
  if (api === null) return null;
  const templates: CompiledTemplate[] = [api];
  for (const share of service.sharePathTemplates) {
    const compiled = compileTemplate('share', share);
    if (compiled !== null) templates.push(compiled);
  }
  return {
    hostname: origin.hostname,
    compiled: { service, origin: origin.origin, apiPrefix: api.prefix, apiSuffix: api.suffix, templates },
  };
}

/** One key per (origin, token), whatever form or wrapper the link came in (a badge's link, on every side). */
export const canonicalKeyOf = (origin: string, token: string): string => `${origin}|${token}`;

export function linkTo(candidate: CompiledService, template: CompiledTemplate, token: string): RecognizedLink {
  return {
    service: candidate.service,
    origin: candidate.origin,
    token,
    kind: template.kind,
    apiUrl: `${candidate.origin}${candidate.apiPrefix}${token}${candidate.apiSuffix}`,
    canonicalKey: canonicalKeyOf(candidate.origin, token),
  };
}

export function tokenFromPath(path: string, template: CompiledTemplate): string | null {
  const { prefix, suffix } = template;
  if (!path.startsWith(prefix)) return null;
  let end = path.length;
  if (!path.endsWith(suffix, end)) {
    // one optional trailing slash after the template
    if (path.charCodeAt(end - 1) !== 47 || suffix.endsWith('/')) return null;
    end -= 1;
    if (!path.endsWith(suffix, end)) return null;
  } else if (suffix === '' && path.charCodeAt(end - 1) === 47) {
    end -= 1;
  }
  const tokenEnd = end - suffix.length;
  if (tokenEnd <= prefix.length) return null;
  const token = path.slice(prefix.length, tokenEnd);
  return isValidTokenShape(token) ? token : null;
}
