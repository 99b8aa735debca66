import { describe, expect, it } from 'vitest';
import { parseUserInput } from '@/lib/core/links';
import { SERVICES, shareUrl, TOKEN, wrapper } from './helpers';

const C = 'https://comply.example';
const KEY = `${C}|${TOKEN}`;

describe('parseUserInput', () => {
  it.each([
    ['API URL', `${C}/api/v1/compliance-status/${TOKEN}`, 'api'],
    ['share URL', shareUrl(C), 'share'],
    ['share URL with surrounding whitespace', `  ${shareUrl(C)}\n`, 'share'],
    ['Safe Links wrapped', wrapper('Outlook Safe Links')(shareUrl(C)), 'share'],
    ['Proofpoint v3 wrapped', wrapper('Proofpoint v3')(shareUrl(C)), 'share'],
    ['Gmail redirect', wrapper('Gmail google.com/url?q=')(`${C}/api/v1/compliance-status/${TOKEN}`), 'api'],
    ['scheme-less share URL', `comply.example/share/${TOKEN}`, 'share'],
    ['scheme-less local http URL', `localhost:8787/share/${TOKEN}`, 'share'],
  ])('%s', (_name, text, kind) => {
    const result = parseUserInput(text, SERVICES);
    if (result.kind !== 'link') throw new Error(`expected a link, got ${JSON.stringify(result)}`);
    expect(result.link.canonicalKey).toBe(text.includes('localhost') ? `http://localhost:8787|${TOKEN}` : KEY);
    expect(result.link.kind).toBe(kind);
  });

  it.each([TOKEN, ` ${TOKEN} `, 'abcdefghijklmnop'])('bare token %j', (text) => {
    expect(parseUserInput(text, SERVICES)).toEqual({ kind: 'bare-token', token: text.trim() });
  });

  it.each([
    ['', 'empty'],
    ['   \n', 'empty'],
    ['hello world', 'not-a-link'],
    ['short', 'not-a-link'],
    [`${TOKEN}!`, 'not-a-link'],
    ['javascript:alert(1)', 'not-a-link'],
    [`https://evil.test/share/${TOKEN}`, 'unknown-service'],
    [`https://comply.example.evil.test/share/${TOKEN}`, 'unknown-service'],
    [`https://comply.example@evil.test/share/${TOKEN}`, 'unknown-service'],
    [wrapper('Outlook Safe Links')(`https://evil.test/share/${TOKEN}`), 'unknown-service'],
    [`evil.test/share/${TOKEN}`, 'unknown-service'],
    [`${C}/dashboard`, 'not-a-share-path'],
    [`${C}/share/short`, 'not-a-share-path'],
    [`${C}/share/${TOKEN.slice(0, 10)} ${TOKEN.slice(10)}`, 'not-a-share-path'],
  ])('%j is invalid (%s)', (text, reason) => {
    expect(parseUserInput(text, SERVICES)).toEqual({ kind: 'invalid', reason });
  });

  it('a bare token is a token even when no service is configured', () => {
    expect(parseUserInput(TOKEN, [])).toEqual({ kind: 'bare-token', token: TOKEN });
    expect(parseUserInput(shareUrl(C), [])).toEqual({ kind: 'invalid', reason: 'unknown-service' });
  });
});
