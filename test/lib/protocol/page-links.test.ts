import { describe, expect, it } from 'vitest';
import { pageLinksProtocol, senderTabId } from '@/lib/protocol/page-links';
import { pageLink } from '../../components/popup/helpers';

const parsePageLinks = (value: unknown) => pageLinksProtocol.listPageLinks.output.parse(value);

describe('listPageLinks answers (receiving side)', () => {
  const good = pageLink(1);

  it('accepts well-formed links and drops duplicates by canonical key', () => {
    expect(parsePageLinks([good, { ...good }, pageLink(2, 'api')])).toEqual([good, pageLink(2, 'api')]);
  });

  it.each([
    ['not an array', { links: [] }],
    ['a bad token', [{ ...good, token: '../../etc' }]],
    ['a bad kind', [{ ...good, kind: 'javascript' }]],
    ['a missing origin', [{ token: good.token, kind: 'share', canonicalKey: 'x' }]],
  ])('rejects %s', (_name, value) => {
    expect(() => parsePageLinks(value)).toThrow();
  });

  it('reads the sender tab id, and nothing from a malformed sender', () => {
    expect(senderTabId({ tab: { id: 12 }, url: 'https://x.example/' })).toBe(12);
    expect(senderTabId({ url: 'chrome-extension://abc/popup.html' })).toBeUndefined();
    expect(senderTabId('nonsense')).toBeUndefined();
  });
});
