import { describe, expect, it } from 'vitest';
import type { ExtensionMessenger } from '@webext-core/messaging';
import { listPageLinks, pageLinksProtocol, senderFrame, type PageLinksProtocolMap } from '@/lib/protocol/page-links';
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

  it('reads the sender tab and frame, and nothing from a malformed sender', () => {
    expect(senderFrame({ tab: { id: 12 }, frameId: 3, url: 'https://x.example/' })).toEqual({ tabId: 12, frameId: 3 });
    expect(senderFrame({ tab: { id: 12 }, url: 'https://x.example/' })).toEqual({ tabId: 12, frameId: 0 });
    expect(senderFrame({ url: 'chrome-extension://abc/popup.html' })).toBeUndefined();
    expect(senderFrame('nonsense')).toBeUndefined();
  });
});

describe('listPageLinks across frames (asking side)', () => {
  /** A messenger whose frames answer as given (a rejection: no content script there). */
  function framesAnswering(answers: Record<number, unknown>) {
    const asked: number[] = [];
    const messenger = {
      sendMessage: async (_type: string, _data: unknown, target: { tabId: number; frameId: number }) => {
        asked.push(target.frameId);
        const answer = answers[target.frameId];
        if (answer instanceof Error) throw answer;
        return answer;
      },
    } as unknown as ExtensionMessenger<PageLinksProtocolMap>;
    return { messenger, asked };
  }

  it('asks the top frame and each frame that reported links, and merges them without duplicates', async () => {
    const { messenger, asked } = framesAnswering({ 0: [pageLink(1)], 4: [pageLink(2), pageLink(1)], 9: [pageLink(3)] });
    expect(await listPageLinks(7, [4, 9], messenger)).toEqual([pageLink(1), pageLink(2), pageLink(3)]);
    expect(asked.sort()).toEqual([0, 4, 9]);
  });

  it('passes over a frame that no longer answers or answers garbage; fails when the top frame has no content script', async () => {
    const { messenger } = framesAnswering({ 0: [pageLink(1)], 4: new Error('gone'), 5: { not: 'a list' } });
    expect(await listPageLinks(7, [4, 5], messenger)).toEqual([pageLink(1)]);
    await expect(
      listPageLinks(7, [4], framesAnswering({ 0: new Error('no receiver'), 4: [pageLink(2)] }).messenger),
    ).rejects.toThrow('no receiver');
  });
});
