// @vitest-environment happy-dom
/**
 * The guess the annotator makes before its settings come (issue #32): links on the default path
 * templates with a token of valid shape, on any origin, wrapped or not; nothing else.
 */
import { describe, expect, it } from 'vitest';
import { shareShapedLinks } from '@/lib/content/annotator/share-shape';

const TOKEN = 'k'.repeat(43);
const guess = (href: string) => shareShapedLinks.recognizeAnchor({ getAttribute: () => href, href });

describe('shareShapedLinks', () => {
  it.each([
    [`https://comply.example/share/${TOKEN}`, 'share'],
    [`https://comply.example/share/${TOKEN}/`, 'share'],
    [`https://comply.example/share/${TOKEN}?utm_source=mail#top`, 'share'],
    [`http://localhost:8787/api/v1/compliance-status/${TOKEN}`, 'api'],
    [
      `https://eur01.safelinks.protection.outlook.com/?url=${encodeURIComponent(`https://comply.example/share/${TOKEN}`)}&data=x`,
      'share',
    ],
    [`https://www.google.com/url?q=${encodeURIComponent(`https://comply.example/share/${TOKEN}`)}&sa=D`, 'share'],
  ])('%s is shaped like a share link (%s)', (href, kind) => {
    const link = guess(href);
    expect(link).toMatchObject({ token: TOKEN, kind });
    expect(link?.canonicalKey).toBe(`${link?.origin}|${TOKEN}`);
  });

  it('names the origin of the unwrapped target, not the wrapper’s', () => {
    const wrapped = `https://eur01.safelinks.protection.outlook.com/?url=${encodeURIComponent(`https://comply.example/share/${TOKEN}`)}`;
    expect(guess(wrapped)?.origin).toBe('https://comply.example');
  });

  it.each([
    `https://comply.example/share/short`,
    `https://comply.example/share/${TOKEN}/more`,
    `https://comply.example/docs/share/${TOKEN}`,
    `https://comply.example/shared/${TOKEN}`,
    `ftp://comply.example/share/${TOKEN}`,
    `javascript:alert(1)//share/${TOKEN}`,
    `https://user@comply.example/share/${TOKEN}`,
    `/share/${TOKEN}-but-relative-and-unresolved`,
    '',
  ])('%s is not', (href) => {
    expect(guess(href)).toBeNull();
  });

  it('looks only at anchors whose href names one of the templates’ words (the browser’s selector engine passes the rest over)', () => {
    const selector = shareShapedLinks.candidateSelector?.('https://page.example/');
    document.body.innerHTML = `<a id="s" href="https://x.example/SHARE/${TOKEN}">s</a><a id="a" href="https://x.example/api/v1/compliance-status/${TOKEN}">a</a><a id="n" href="https://x.example/about">n</a>`;
    expect([...document.querySelectorAll(selector ?? 'none')].map((anchor) => anchor.id)).toEqual(['s', 'a']);
  });
});
