/**
 * Where a webhook may be sent (SSRF defence, docs/security.md section 9): one policy, applied when an
 * endpoint is registered (to refuse at once, nothing useless stored) and again by the sender on every
 * attempt, on the addresses it is about to connect to (`guardedLookup`), because a name can resolve
 * elsewhere later (DNS rebinding). Both places call the same functions, so they cannot disagree.
 *
 * - HTTPS, to public unicast addresses; with `--dev`, loopback too (127.0.0.0/8, ::1).
 * - Plain HTTP only with `--dev`, and only to loopback addresses.
 * - Everything else is refused: private, link-local (169.254.0.0/16 holds cloud metadata services),
 *   carrier-grade NAT (100.64.0.0/10, where one cloud's metadata lives), unique-local IPv6, `0.0.0.0`,
 *   and IPv4-mapped IPv6 in any form (`::ffff:127.0.0.1` too: an address is judged as written).
 * - No user name or password, no fragment.
 */
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address (injectable: tests decide what a name resolves to). */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface UrlPolicy {
  /** `--dev`: loopback addresses, and plain HTTP to them. */
  allowLoopback: boolean;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** May a webhook sent with `protocol` connect to `address`? The one rule, at registration and at connect time. */
export function addressAllowed(address: string, protocol: string, policy: UrlPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.parse(address).range(); // as written: an IPv4-mapped address is 'ipv4Mapped', never 'loopback'
  const loopback = policy.allowLoopback && range === 'loopback';
  return protocol === 'http:' ? loopback : range === 'unicast' || loopback;
}

const bare = (hostname: string) => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);

function refusal(address: string, protocol: string, policy: UrlPolicy): string {
  return protocol === 'http:' && policy.allowLoopback
    ? `resolves to ${address}: plain http goes only to a loopback address (127.0.0.0/8, ::1)`
    : `resolves to ${address}, a private, loopback, link-local, mapped or metadata address`;
}

/** What can be decided from the URL alone: form, scheme, credentials, and a literal address. */
export function checkUrl(raw: string, policy: UrlPolicy): UrlCheck {
  if (!URL.canParse(raw)) return { ok: false, reason: 'is not an absolute URL' };
  const url = new URL(raw);
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'must not hold a user name or password' };
  if (url.hash !== '') return { ok: false, reason: 'must not have a fragment' };
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLoopback)) {
    return { ok: false, reason: 'must use https (plain http only to a loopback address with --dev)' };
  }
  const host = bare(url.hostname);
  if (isIP(host) !== 0 && !addressAllowed(host, url.protocol, policy)) {
    return { ok: false, reason: refusal(host, url.protocol, policy) };
  }
  return { ok: true, url };
}

const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/** The registration check: the URL, then every address its host resolves to now. */
export async function checkEndpointUrl(raw: string, options: UrlPolicy & { resolve?: HostResolver }): Promise<UrlCheck> {
  const checked = checkUrl(raw, options);
  if (!checked.ok) return checked;
  const host = bare(checked.url.hostname);
  if (isIP(host) !== 0) return checked;
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch {
    return { ok: false, reason: `host ${host} could not be resolved` };
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} could not be resolved` };
  const refused = addresses.find((entry) => !addressAllowed(entry.address, checked.url.protocol, options));
  return refused === undefined ? checked : { ok: false, reason: refusal(refused.address, checked.url.protocol, options) };
}

/** The error a connection refused by the policy fails with. */
export class RefusedAddressError extends Error {
  readonly code = 'EADDRREFUSED';
}

/**
 * The sender's name resolution: what `lookup` answers, refused as a whole when any address is one the
 * policy refuses, so the connection is only ever made to an allowed address (DNS rebinding included).
 */
export function guardedLookup(protocol: string, policy: UrlPolicy, lookup: LookupFunction = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, found, family) => {
      if (error) return callback(error, '', family);
      const addresses = typeof found === 'string' ? [{ address: found, family: family ?? isIP(found) }] : found;
      const refused = addresses.find((entry) => !addressAllowed(entry.address, protocol, policy));
      const first = addresses[0];
      if (refused !== undefined || first === undefined) {
        const reason =
          refused === undefined ? `${hostname} resolves to nothing` : `${hostname} ${refusal(refused.address, protocol, policy)}`;
        return callback(new RefusedAddressError(`refused: ${reason}`), '', family);
      }
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}
