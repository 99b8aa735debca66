import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../../server/platform/rate-limit/client-key';

describe('addressKey: the rate-limit bucket of a client address', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:0:0:0:1', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['2001:db8::1.2.3.4', '2001:db8::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
    ['fe80::1%25', 'fe80::/64'],
    ['::1', '::/64'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['0000:0000:0000:0000:0000:FFFF:CB00:7107', '203.0.113.7'],
    ['::ffff:203.0.113.7%eth0', '203.0.113.7'],
  ])('%s → %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it.each([
    '',
    'unknown',
    'garbage',
    '999.1.1.1',
    '01.2.3.4',
    '1.2.3.4:8080',
    ' 1.2.3.4',
    '[2001:db8::1]',
    '2001:db8::1::2',
    '::ffff:1.2.3.4.5',
    'fe80::1%',
    'x'.repeat(10_000),
  ])('%j is not an address: null (the caller falls back to the socket)', (value) => {
    expect(addressKey(value)).toBeNull();
  });

  const group = fc.integer({ min: 0, max: 0xffff });
  const groups = fc.tuple(group, group, group, group, group, group, group, group);

  it('property: every spelling of one IPv6 address, and every address of its /64, has one key', () => {
    fc.assert(
      fc.property(groups, group, fc.boolean(), (g, other, upper) => {
        // Skip IPv4-mapped addresses: they are keyed per IPv4 address (next test).
        fc.pre(!(g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff));
        const expanded = g.map((x) => x.toString(16).padStart(4, '0')).join(':');
        const short = g.map((x) => x.toString(16)).join(':');
        const compressed = new URL(`http://[${expanded}]/`).hostname.slice(1, -1); // WHATWG URL: RFC 5952 form
        const spellings = [expanded, short, compressed, `${compressed}%eth0`].map((s) => (upper ? s.toUpperCase() : s));
        const keys = new Set(spellings.map(addressKey));
        expect(keys.size).toBe(1);
        const [key] = keys;
        expect(key).toMatch(/\/64$/);
        const neighbour = [...g.slice(0, 4), other, other, other, other].map((x) => x.toString(16)).join(':');
        expect(addressKey(neighbour)).toBe(key);
        const otherPrefix = [g[0], g[1], g[2], (g[3] + 1) % 0x10000, ...g.slice(4)].map((x) => x.toString(16)).join(':');
        expect(addressKey(otherPrefix)).not.toBe(key);
      }),
      { numRuns: 1_000 },
    );
  });

  it('property: an IPv4-mapped address, in any spelling, is keyed as its IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ipv4) => {
        const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
        const high = ((a << 8) | b).toString(16);
        const low = ((c << 8) | d).toString(16);
        for (const spelling of [`::ffff:${ipv4}`, `::FFFF:${high}:${low}`, `0:0:0:0:0:ffff:${high.padStart(4, '0')}:${low}`]) {
          expect(addressKey(spelling)).toBe(ipv4);
        }
      }),
      { numRuns: 1_000 },
    );
  });
});
