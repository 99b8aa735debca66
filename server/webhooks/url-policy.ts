/**
 * Where a webhook may be sent (SSRF defence, docs/security.md section 6). Checked when an endpoint is
 * registered, to refuse at once, and again by the sender on every attempt, on the address it actually
 * connects to (request-filtering-agent), because a name can resolve elsewhere later (DNS rebinding).
 *
 * - HTTPS only; plain HTTP only to a loopback address, and only in `--dev`.
 * - No user name or password in the URL.
 * - Every address the host resolves to must be public unicast: private, loopback (outside `--dev`),
 *   link-local (169.254.0.0/16 holds cloud metadata services), carrier-grade NAT (100.64.0.0/10, where
 *   one cloud's metadata lives), unique-local IPv6 and IPv4-mapped forms of those are refused.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address (injectable: tests decide what a name resolves to). */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Loopback in `--dev`: the only non-public addresses a webhook may reach, and only there. */
export const DEV_ALLOWED_RANGES = ['127.0.0.0/8', '::1/128'];

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Unicast and public: ipaddr.js calls everything else (private, loopback, link-local, CGNAT, ULA, mapped, …) by another range name. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  return parsed.range() === 'unicast';
}

export function isLoopbackAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // IPv4-mapped IPv6 as IPv4
  return parsed.range() === 'loopback';
}

const bare = (hostname: string) => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);

export interface UrlPolicyOptions {
  /** `--dev`: plain HTTP to loopback addresses is allowed. */
  allowLoopback: boolean;
  resolve?: HostResolver;
}

function addressAllowed(address: string, allowLoopback: boolean): boolean {
  return isPublicAddress(address) || (allowLoopback && isLoopbackAddress(address));
}

/** The registration check: refuses what the sender would refuse, before anything is stored. */
export async function checkEndpointUrl(raw: string, options: UrlPolicyOptions): Promise<UrlCheck> {
  if (!URL.canParse(raw)) return { ok: false, reason: 'is not an absolute URL' };
  const url = new URL(raw);
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'must not hold a user name or password' };
  if (url.hash !== '') return { ok: false, reason: 'must not have a fragment' };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must use https' };
  const host = bare(url.hostname);
  let addresses: readonly string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await (options.resolve ?? systemResolver)(host)).map((entry) => entry.address);
    } catch {
      return { ok: false, reason: `host ${host} could not be resolved` };
    }
    if (addresses.length === 0) return { ok: false, reason: `host ${host} could not be resolved` };
  }
  const refused = addresses.find((address) => !addressAllowed(address, options.allowLoopback));
  if (refused !== undefined) {
    return { ok: false, reason: `resolves to ${refused}, a private, loopback, link-local or metadata address` };
  }
  if (url.protocol === 'http:' && !(options.allowLoopback && addresses.every(isLoopbackAddress))) {
    return { ok: false, reason: 'must use https (plain http only to a loopback address with --dev)' };
  }
  return { ok: true, url };
}
