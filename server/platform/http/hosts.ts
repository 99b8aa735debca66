/**
 * DNS-rebinding defence: which `Host` names the app answers. A page on an attacker's domain that
 * rebinds that domain to 127.0.0.1 reaches this server with `Host: attacker.example`; refusing names
 * we were not told about stops it. IP-address literals are never a rebinding vector (the page's origin
 * would have to be the IP itself), so a wildcard bind may answer them all.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';

/** Always answered, on any port: names that only ever mean this machine. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export interface AllowedHosts {
  /** Names or IP literals answered besides the loopback ones: lower case, IPv6 in brackets, no port. */
  readonly names: readonly string[];
  /** Also answer any IP-address literal: set for a wildcard bind (`0.0.0.0`, `::`), reached through the machine's addresses. */
  readonly anyIpAddress: boolean;
}

/** Loopback names only: the default when `config.allowedHosts` is not given. */
export const LOOPBACK_ONLY: AllowedHosts = { names: [], anyIpAddress: false };

/** DNS labels; `_` is accepted because container and compose service names use it. */
const DNS_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
/** `host` or `host:port` (port may be empty, as URLs allow); the host is a name or a bracketed literal. */
const AUTHORITY = /^(\[[^\]]*\]|[^:[\]]+)(?::(\d{0,5}))?$/;
/** The authority of an absolute URL (`http://host:port/…` → `host:port`). */
const URL_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;

/**
 * A host name in the form we compare: lower case, IPv6 canonical and in brackets (`::1` and
 * `[0:0:0:0:0:0:0:1]` → `[::1]`). Null when it is neither a DNS name nor an IP literal.
 */
export function normalizeHostName(value: string): string | null {
  const host = value.toLowerCase();
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  // Zone ids (`fe80::1%eth0`) never appear in a Host header and URL cannot hold them.
  if (bare.includes('%')) return null;
  if (isIPv6(bare)) return new URL(`http://[${bare}]/`).hostname;
  if (bare !== host) return null;
  return isIPv4(host) || DNS_NAME.test(host) ? host : null;
}

function isIpLiteral(host: string): boolean {
  return isIPv4(host) || (host.startsWith('[') && isIPv6(host.slice(1, -1)));
}

/** The normalized host of a `Host` header value or URL authority, or null when it is malformed. */
export function hostOfAuthority(authority: string): string | null {
  const match = AUTHORITY.exec(authority);
  const host = match?.[1];
  if (!match || host === undefined) return null;
  const port = match[2];
  if (port !== undefined && port !== '' && Number(port) > 65_535) return null;
  return normalizeHostName(host);
}

/** A predicate over `Host` header values, built once per app: per request one regex and a Set lookup (about 1 µs). */
export function hostChecker(allowed: AllowedHosts = LOOPBACK_ONLY): (authority: string) => boolean {
  const names = new Set<string>(LOOPBACK_HOSTS);
  for (const name of allowed.names) {
    const normalized = normalizeHostName(name);
    if (normalized === null) throw new Error(`allowed host is not a host name or IP address: ${JSON.stringify(name)}`);
    names.add(normalized);
  }
  return (authority) => {
    const host = hostOfAuthority(authority);
    if (host === null) return false;
    return names.has(host) || (allowed.anyIpAddress && isIpLiteral(host));
  };
}

/** `http://lens.test:8787/x` → `lens.test:8787`; '' when the URL has no authority. */
export function urlAuthority(url: string): string {
  return URL_AUTHORITY.exec(url)?.[1] ?? '';
}

/** One `--allowed-host` value: a DNS name or IP address, without scheme, port or path. */
export const allowedHostName = z.string().transform((value, ctx) => {
  const name = normalizeHostName(value.trim());
  if (name === null) {
    ctx.addIssue({
      code: 'custom',
      message: `not a host name or IP address (no scheme, port or path): ${JSON.stringify(value)}`,
    });
    return z.NEVER;
  }
  return name;
});

const WILDCARD_BINDS = new Set(['0.0.0.0', '[::]']);

/**
 * What a started server answers: loopback names, the `--host` it binds to (any IP literal when that
 * is a wildcard), the host of `PUBLIC_BASE_URL` (the links it hands out point there) and every
 * `--allowed-host`.
 */
export function allowedHostsFor(input: { bindHost: string; extra?: readonly string[]; publicBaseUrl?: string }): AllowedHosts {
  const names = z.array(allowedHostName).parse(input.extra ?? []);
  const bind = normalizeHostName(input.bindHost);
  const wildcard = bind !== null && WILDCARD_BINDS.has(bind);
  if (bind !== null && !wildcard) names.push(bind);
  if (input.publicBaseUrl !== undefined && URL.canParse(input.publicBaseUrl)) {
    const publicHost = normalizeHostName(new URL(input.publicBaseUrl).hostname);
    if (publicHost !== null) names.push(publicHost);
  }
  return { names: [...new Set(names)], anyIpAddress: wildcard };
}
