/**
 * Which rate-limit bucket a client address falls in (review finding 5).
 *
 * - IPv4: one bucket per address (`203.0.113.7`).
 * - IPv6: one bucket per /64 (`2001:db8:1:2::/64`). A /64 is what one subscriber, host or LAN gets,
 *   and a single host can pick any address inside it at will (privacy addresses), so keying by the
 *   full address would give one client 2^64 budgets.
 * - IPv4-mapped IPv6 (`::ffff:203.0.113.7`, also spelt `::ffff:cb00:7107`): the IPv4 address, per
 *   address. Dual-stack sockets report IPv4 clients this way; keying them by their /64 would put all
 *   of IPv4 in one bucket (`::/64`).
 *
 * Every spelling of one address gives one key: `node:net`'s `isIP` decides what is an address (it
 * refuses leading zeros in IPv4, ports, brackets and malformed zone ids), `ip-address` parses IPv6
 * (expanded or compressed, any case, leading zeros, embedded IPv4, a zone id, which is dropped) and
 * writes the canonical RFC 5952 form.
 */
import { isIP } from 'node:net';
import { Address6 } from 'ip-address';

/** Length of the IPv6 prefix that is one client. */
export const IPV6_CLIENT_PREFIX = 64;

const IPV4_MAPPED = new Address6('::ffff:0:0/96');
const HOST_BITS = BigInt(128 - IPV6_CLIENT_PREFIX);

/** The bucket of one client address, or null when `address` is not an IP address. */
export function addressKey(address: string): string | null {
  const version = isIP(address);
  if (version === 4) return address; // isIP accepts only the canonical dotted-decimal spelling
  if (version !== 6) return null;
  let v6: Address6;
  try {
    v6 = new Address6(address);
  } catch {
    return null; // isIP accepted what ip-address does not: not an address we can key
  }
  if (v6.isInSubnet(IPV4_MAPPED)) return v6.to4().correctForm();
  const prefix = Address6.fromBigInt((v6.bigInt() >> HOST_BITS) << HOST_BITS);
  return `${prefix.correctForm()}/${IPV6_CLIENT_PREFIX}`;
}
