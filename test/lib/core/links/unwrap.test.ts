import { describe, expect, it } from 'vitest';
import {
  base64urlDecode,
  createLinkRecognizer,
  decodeGoogleRedirect,
  decodeLinkedInRedirect,
  decodeOutlookSafelinkHtml,
  decodeProofpointV1,
  decodeProofpointV2,
  decodeProofpointV3,
  decodeProofpointV3Payload,
  decodeSafeLinks,
  decodeSlackRedirect,
  decodeTrendMicroClickTime,
  htmlUnescape,
  MAX_UNWRAP_DEPTH,
  percentDecode,
  unwrapOnce,
  unwrapUrl,
  unwrapUrlTrace,
} from '@/lib/core/links';
import { SERVICES, shareUrl, TOKEN, wrapper, WRAPPERS } from './helpers';

const SHARE = shareUrl('https://comply.example');
const KEY = `https://comply.example|${TOKEN}`;
const recognizer = createLinkRecognizer(SERVICES);

describe('percentDecode', () => {
  it.each([
    ['https%3A%2F%2Fx', 'https://x'],
    ['%253A', '%3A'],
    ['a+b', 'a+b'],
    ['%C3%A9', 'é'],
    ['%c3%a9', 'é'],
    ['%', '%'],
    ['%zz%41', '%zzA'],
    ['%6%5E7', '%6^7'],
    ['%C3%28', '\ufffd('],
    ['%E0%A4%A', '\ufffd%A'],
    ['plain', 'plain'],
  ])('%s → %s', (input, expected) => {
    expect(percentDecode(input)).toBe(expected);
  });
});

describe('htmlUnescape', () => {
  it.each([
    ['a&amp;b', 'a&b'],
    ['&lt;&gt;&quot;&apos;', `<>"'`],
    ['&#39;&#x41;&#X42;', "'AB"],
    ['&amp;amp;', '&amp;'],
    ['&nbsp;', '&nbsp;'],
    ['&#xFFFFFFFF;', '&#xFFFFFFFF;'],
    ['&#xD800;', '&#xD800;'],
    ['&#0;', '&#0;'],
    ['&', '&'],
  ])('%s → %s', (input, expected) => {
    expect(htmlUnescape(input)).toBe(expected);
  });
});

describe('base64urlDecode', () => {
  it.each([
    ['', []],
    ['Iw', [0x23]],
    ['Iw==', [0x23]],
    ['w60j', [0xc3, 0xad, 0x23]],
    ['-_8', [0xfb, 0xff]],
  ])('%s', (input, bytes) => {
    expect(Array.from(base64urlDecode(input) ?? [-1])).toEqual(bytes);
  });
  it.each(['A', 'AAAAA', 'I w', 'Iw+/', 'Iw===', '@@@@', 'éé'])('rejects %j', (input) => {
    expect(base64urlDecode(input)).toBeNull();
  });
});

describe('per-format decoders', () => {
  const inner = SHARE;
  const cases: ReadonlyArray<readonly [string, (url: string) => string | null, string]> = [
    ['Gmail google.com/url?q=', decodeGoogleRedirect, 'gmail'],
    ['google.com/url?url=', decodeGoogleRedirect, 'gmail'],
    ['Outlook Safe Links', decodeSafeLinks, 'safelinks'],
    ['Safe Links (GCC High)', decodeSafeLinks, 'safelinks'],
    ['Outlook safelink.html', decodeOutlookSafelinkHtml, 'owa'],
    ['Proofpoint v1', decodeProofpointV1, 'v1'],
    ['Proofpoint v2', decodeProofpointV2, 'v2'],
    ['Proofpoint v3', decodeProofpointV3, 'v3'],
    ['Trend Micro click-time', decodeTrendMicroClickTime, 'trend'],
    ['Slack', decodeSlackRedirect, 'slack'],
    ['LinkedIn redir', decodeLinkedInRedirect, 'linkedin'],
    ['LinkedIn safety', decodeLinkedInRedirect, 'linkedin'],
  ];
  it.each(cases.map(([name, decode, family]) => ({ name, decode, family })))(
    '$name decodes its own format only',
    ({ name, decode, family }) => {
      expect(decode(wrapper(name)(inner))).toBe(inner);
      for (const [otherName, , otherFamily] of cases) {
        if (otherFamily !== family) expect(decode(wrapper(otherName)(inner))).toBeNull();
      }
      expect(decode(inner)).toBeNull();
    },
  );

  it('Safe Links decodes exactly once', () => {
    const doubly = `https://eur04.safelinks.protection.outlook.com/?url=${encodeURIComponent(encodeURIComponent(SHARE))}&data=x`;
    expect(decodeSafeLinks(doubly)).toBe(encodeURIComponent(SHARE));
    expect(recognizer.recognize({ href: doubly })).toBeNull();
  });

  it('Safe Links accepts the /ap/<kind>-<id>/ path', () => {
    expect(
      decodeSafeLinks(`https://eur01.safelinks.protection.outlook.com/ap/t-59584e83/?url=${encodeURIComponent(SHARE)}&data=05`),
    ).toBe(SHARE);
  });

  it('Proofpoint v2: - escapes, _ is /, then HTML-unescaped', () => {
    expect(
      decodeProofpointV2('https://urldefense.proofpoint.com/v2/url?u=https-3A__a.example_x-5Fy-2Dz-3Fa-3D1-26amp-3Bb-3D2&d=x'),
    ).toBe('https://a.example/x_y-z?a=1&b=2');
  });

  it('Proofpoint v3 splices bytes and decodes once', () => {
    expect(decodeProofpointV3Payload('http://x.example/**Aa*.html__;w60j!!o!s$')).toBe('http://x.example/ía#.html');
    expect(decodeProofpointV3Payload('http://x.example/**E.html__;5L2g5aW9')).toBe('http://x.example/你好.html');
    // a run that cuts a UTF-8 sequence in the middle still decodes once at the end (no throw)
    expect(decodeProofpointV3Payload('http://x.example/*a*__;w60')).toBe('http://x.example/\ufffda\ufffd');
  });

  it.each([
    ['no __; block', 'https://urldefense.com/v3/__http://x.example/'],
    ['invalid base64 block', 'https://urldefense.com/v3/__http://x.example/*__;@@!!o!s$'],
    ['base64 block of impossible length', 'https://urldefense.com/v3/__http://x.example/*__;IwAAA!!o!s$'],
    ['more * than replacement bytes', 'https://urldefense.com/v3/__http://x.example/*a*__;Iw!!o!s$'],
    ['run longer than the block', 'https://urldefense.com/v3/__http://x.example/**Z__;Iw!!o!s$'],
    ['run marker outside the alphabet', 'https://urldefense.com/v3/__http://x.example/**.__;IyMjIyM!!o!s$'],
    ['run marker missing at the end', 'https://urldefense.com/v3/__http://x.example/x**__;IyMj!!o!s$'],
  ])('Proofpoint v3 refuses %s', (_name, url) => {
    expect(decodeProofpointV3(url)).toBeNull();
    expect(unwrapUrl(url)).toBe(url);
  });
});

describe('unwrapUrl', () => {
  it('returns a plain URL unchanged', () => {
    expect(unwrapUrl(SHARE)).toBe(SHARE);
    expect(unwrapUrlTrace(SHARE)).toEqual({ url: SHARE, formats: [], complete: true });
  });

  it('reports every layer, outermost first', () => {
    const href = wrapper('Trend Micro click-time')(wrapper('Outlook Safe Links')(wrapper('Proofpoint v3')(SHARE)));
    expect(unwrapUrlTrace(href)).toEqual({
      url: SHARE,
      formats: ['trendmicro_clicktime', 'outlook_safelinks', 'proofpoint_v3'],
      complete: true,
    });
  });

  it('unwraps a scheme-less or protocol-relative wrapper', () => {
    expect(unwrapUrl(`urldefense.com/v3/__${SHARE}__;!!o!s$`)).toBe(SHARE);
    expect(unwrapUrl(`//www.google.com/url?q=${encodeURIComponent(SHARE)}`)).toBe(SHARE);
  });

  it('handles HTML-escaped parameter separators', () => {
    expect(unwrapUrl(`https://slack-redir.net/link?v=3&amp;url=${encodeURIComponent(SHARE)}&amp;x=1`)).toBe(SHARE);
  });

  it(`stops after ${MAX_UNWRAP_DEPTH} layers`, () => {
    let href = SHARE;
    for (let i = 0; i < MAX_UNWRAP_DEPTH; i += 1) href = `https://slack-redir.net/link?url=${href}`;
    expect(unwrapUrlTrace(href)).toMatchObject({ url: SHARE, complete: true });
    expect(recognizer.recognize({ href })?.canonicalKey).toBe(KEY);
    const deeper = `https://slack-redir.net/link?url=${href}`;
    expect(unwrapUrlTrace(deeper).complete).toBe(false);
    expect(recognizer.recognize({ href: deeper })).toBeNull();
  });
});

describe('hostile input never throws', () => {
  const gmailRaw = (u: string) => `https://www.google.com/url?q=${u}`;
  const nest = (depth: number, layer: (u: string) => string, inner: string = SHARE) => {
    let href = inner;
    for (let i = 0; i < depth; i += 1) href = layer(href);
    return href;
  };

  it.each([
    ['50-deep raw Gmail nesting', nest(50, gmailRaw)],
    ['50-deep raw Slack nesting', nest(50, (u) => `https://slack-redir.net/link?url=${u}`)],
    ['50-deep Proofpoint v3 nesting', nest(50, (u) => `https://urldefense.com/v3/__${u}__;!!o!s$`)],
    [
      '50-deep alternating Safe Links / Gmail (raw)',
      nest(25, (u) => `https://nam12.safelinks.protection.outlook.com/?url=${gmailRaw(u)}`),
    ],
    ['12-deep encoded Safe Links', nest(12, wrapper('Outlook Safe Links'))],
    ['self-referencing wrapper', 'https://www.google.com/url?q=https://www.google.com/url?q=https://www.google.com/url'],
  ])('%s', (_name, href) => {
    expect(() => unwrapUrl(href)).not.toThrow();
    expect(recognizer.recognize({ href })).toBeNull();
  });

  it('a 10 KB share link (long query) is still recognised; 10 KB of noise is not', () => {
    const long = `${SHARE}?pad=${'x'.repeat(10_240)}`;
    expect(recognizer.recognize({ href: long })?.canonicalKey).toBe(KEY);
    expect(recognizer.recognize({ href: wrapper('Outlook Safe Links')(long) })?.canonicalKey).toBe(KEY);
    expect(recognizer.recognize({ href: `https://comply.example/share/${'%'.repeat(10_240)}` })).toBeNull();
    expect(recognizer.recognize({ href: `https://www.google.com/url?q=${'%25'.repeat(4_000)}` })).toBeNull();
  });

  it('an over-long href is refused outright', () => {
    const huge = `${SHARE}?pad=${'x'.repeat(70_000)}`;
    expect(recognizer.recognize({ href: huge })).toBeNull();
    expect(unwrapOnce(wrapper('Slack')(huge))).toBeNull();
  });

  it.each([
    ['invalid percent-encoding in Safe Links', 'https://nam12.safelinks.protection.outlook.com/?url=%E0%A4%A%zz%&data=%'],
    ['invalid UTF-8 in Gmail q', 'https://www.google.com/url?q=https%3A%2F%2Fcomply.example%2Fshare%2F%C3%28'],
    ['lone surrogate', `https://comply.example/share/${TOKEN}\ud800`],
    ['lone surrogate in wrapper', `https://slack-redir.net/link?url=\udfff`],
    ['invalid base64 in v3', 'https://urldefense.com/v3/__https://comply.example/share/*__;%%%!!o!s$'],
    ['v3 with huge run markers', `https://urldefense.com/v3/__${'**_'.repeat(500)}__;Iw!!o!s$`],
    ['v2 with broken escapes', 'https://urldefense.proofpoint.com/v2/url?u=https-3A__comply.example_share-ZZ-&d=x'],
    ['v1 with numeric entity overflow', 'https://urldefense.proofpoint.com/v1/url?u=https%3A%2F%2Fx&#99999999999;&k=1'],
    ['IPv6 host with junk', `http://[::1:8787/share/${TOKEN}`],
    ['port out of range', `http://localhost:99999999/share/${TOKEN}`],
    ['only a scheme', 'https://'],
    ['only a wrapper host', 'https://www.google.com'],
  ])('%s', (_name, href) => {
    expect(() => recognizer.recognize({ href })).not.toThrow();
    expect(() => unwrapUrl(href)).not.toThrow();
    expect(recognizer.recognize({ href })).toBeNull();
  });

  it.each(WRAPPERS.map((w) => ({ name: w.name, wrap: w.wrap })))('$name with an empty target', ({ wrap }) => {
    expect(() => recognizer.recognize({ href: wrap('') })).not.toThrow();
    expect(recognizer.recognize({ href: wrap('') })).toBeNull();
  });
});
