import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLinkRecognizer, unwrapUrl } from '@/lib/core/links';
import type { RecognizedLink } from '@/lib/core/links';
import type { ServiceConfig } from '@/lib/core/services';
import { isValidTokenShape } from '@/lib/core/token';
import { CONFIGURED_ORIGINS, SERVICES, TOKEN, WRAPPERS } from './helpers';

const recognizer = createLinkRecognizer(SERVICES);

/** Everything a recognised link promises, checked against the input it came from. */
function assertSound(href: string, link: RecognizedLink | null): void {
  if (link === null) return;
  expect(CONFIGURED_ORIGINS.has(link.origin)).toBe(true);
  expect(link.service.origin).toBe(link.origin);
  expect(isValidTokenShape(link.token)).toBe(true);
  expect(link.apiUrl).toBe(`${link.origin}/api/v1/compliance-status/${link.token}`);
  expect(link.canonicalKey).toBe(`${link.origin}|${link.token}`);
  // the real target, once unwrapped, is on that configured origin
  expect(new URL(unwrapUrl(href)).origin).toBe(link.origin);
}

const FRAGMENTS = [
  'https://',
  'http://',
  '//',
  'javascript:',
  'HTTPS://',
  'comply.example',
  'service.example',
  'localhost',
  '127.0.0.1',
  'evil.test',
  'comply.example.evil.test',
  'www.google.com',
  'nam12.safelinks.protection.outlook.com',
  'urldefense.com',
  'urldefense.proofpoint.com',
  'slack-redir.net',
  'www.linkedin.com',
  'outlook.office.com',
  'ctp.trendmicro.com',
  ':8787',
  ':443',
  ':80',
  '@',
  '.',
  '..',
  '/',
  '\\',
  '?',
  '#',
  '&',
  '=',
  '%',
  '%2F',
  '%25',
  '%3A',
  '*',
  '**',
  '**A',
  '__',
  '__;',
  '!',
  '!!',
  '$',
  '/share/',
  '/api/v1/compliance-status/',
  '/url',
  '/v1/url',
  '/v2/url',
  '/v3/__',
  '/link',
  '/redir/redirect',
  '/safety/go',
  '/mail/safelink.html',
  '/wis/clicktime/v1/query',
  '?q=',
  '?url=',
  '?u=',
  '&amp;',
  '-3A',
  '_',
  'Iw',
  'w60j',
  TOKEN,
  TOKEN.slice(0, 15),
  'xn--',
  '\u0435',
  ' ',
  '\t',
  '\n',
  '\u0000',
  '\u200b',
  'é',
];

const linkish = fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 })), { maxLength: 24 }).chain((parts) =>
  fc
    .constantFrom<(s: string) => string>(
      (s) => s,
      (s) => encodeURIComponent(s),
      (s) => `https://www.google.com/url?q=${encodeURIComponent(s)}`,
      (s) => `https://nam12.safelinks.protection.outlook.com/?url=${s}`,
      (s) => `https://urldefense.com/v3/__${s}__;Iw!!a!b$`,
    )
    .map((f) => f(parts.join(''))),
);

const parserOnly = createLinkRecognizer(SERVICES, { fastPath: false });
const summary = (link: RecognizedLink | null) =>
  link === null ? null : { key: link.canonicalKey, kind: link.kind, api: link.apiUrl };

describe('properties', () => {
  it('the fast path agrees with the URL parser on every input', () => {
    const pathChars = fc.constantFrom(
      ...'aZ09_-/.%?#@:\\ é'.split(''),
      '/share/',
      '/api/v1/compliance-status/',
      '/s/',
      '/view',
      TOKEN,
      '..',
      '//',
    );
    const direct = fc
      .tuple(
        fc.constantFrom(...SERVICES.map((service) => service.origin), 'HTTPS://comply.example', 'https://comply.example:443'),
        fc.array(pathChars, { maxLength: 12 }),
      )
      .map(([origin, parts]) => origin + parts.join(''));
    fc.assert(
      fc.property(fc.oneof(direct, linkish, fc.string({ maxLength: 120 })), (href) => {
        expect(summary(recognizer.recognizeHref(href))).toEqual(summary(parserOnly.recognizeHref(href)));
      }),
      { numRuns: 5_000 },
    );
    // and it does recognise the plain forms
    for (const service of SERVICES) expect(recognizer.recognizeHref(`${service.origin}/share/${TOKEN}`)?.token).toBe(TOKEN);
  });

  it('the fast path agrees with the URL parser for overlapping templates, suffixes and shared origins', () => {
    // Two services on one origin (order matters), templates with suffixes, one ending in `/`, one
    // with a dot (never plain), an IPv6 origin (brackets to escape).
    const tricky: ServiceConfig[] = [
      {
        id: 'a',
        name: 'A',
        origin: 'http://127.0.0.1:9000',
        apiPathTemplate: '/api/{token}',
        sharePathTemplates: ['/share/{token}', '/share/{token}/view', '/t/{token}/'],
      },
      {
        id: 'b',
        name: 'B',
        origin: 'http://127.0.0.1:9000',
        apiPathTemplate: '/b/{token}',
        sharePathTemplates: ['/share/{token}/more', '/v1.0/{token}'],
      },
      {
        id: 'c',
        name: 'C',
        origin: 'http://[::1]:9000',
        apiPathTemplate: '/api/{token}',
        sharePathTemplates: ['/share/{token}'],
      },
    ];
    const fast = createLinkRecognizer(tricky);
    const slow = createLinkRecognizer(tricky, { fastPath: false });
    const parts = fc.constantFrom(
      '/api/',
      '/b/',
      '/share/',
      '/t/',
      '/v1.0/',
      '/view',
      '/more',
      '/',
      '//',
      '.',
      'x',
      TOKEN,
      TOKEN.slice(0, 15),
      '?',
      '#',
    );
    const href = fc
      .tuple(
        fc.constantFrom('http://127.0.0.1:9000', 'http://[::1]:9000', 'http://127.0.0.1:90000', 'http://127.0.0.1'),
        fc.array(parts, { maxLength: 6 }),
      )
      .map(([origin, path]) => origin + path.join(''));
    fc.assert(
      fc.property(href, (value) => {
        const answer = fast.recognizeHref(value);
        expect(summary(answer)).toEqual(summary(slow.recognizeHref(value)));
        expect(answer?.service.id).toBe(slow.recognizeHref(value)?.service.id);
      }),
      { numRuns: 5_000 },
    );
    // The trailing-slash edges, one by one (a random walk reaches them only rarely).
    const origin = 'http://127.0.0.1:9000';
    for (const path of [
      '/t/T/',
      '/t/T//',
      '/t/T',
      '/share/T/',
      '/share/T//',
      '/share/T/view/',
      '/share/T/view//',
      '/share/T/more/',
      '/api/T/',
      '/b/T//',
      '/v1.0/T',
    ]) {
      const value = origin + path.replace('T', TOKEN);
      expect(summary(fast.recognizeHref(value)), value).toEqual(summary(slow.recognizeHref(value)));
    }
    expect(fast.recognizeHref(`${origin}/t/${TOKEN}//`)).toBeNull();
    expect(fast.recognizeHref(`http://127.0.0.1:9000/share/${TOKEN}/more`)?.service.id).toBe('b');
    expect(fast.recognizeHref(`http://127.0.0.1:9000/t/${TOKEN}/`)?.kind).toBe('share');
    expect(fast.recognizeHref(`http://[::1]:9000/share/${TOKEN}/`)?.origin).toBe('http://[::1]:9000');
  });

  it('never throws on arbitrary strings and never returns an unconfigured origin', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (href) => {
        assertSound(href, recognizer.recognize({ href }));
      }),
      { numRuns: 2_000 },
    );
  });

  it('never throws on link-shaped strings and is sound whenever it recognises one', () => {
    fc.assert(
      fc.property(linkish, fc.option(linkish, { nil: undefined }), (href, redirect) => {
        const link = recognizer.recognize({ href, attributes: { 'data-saferedirecturl': redirect } });
        assertSound(href, link);
        assertSound(href, recognizer.recognize({ href }));
      }),
      { numRuns: 5_000 },
    );
  });

  it('never throws on arbitrary web URLs, and recognises none of them (none are configured)', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (href) => {
        const link = recognizer.recognize({ href });
        assertSound(href, link);
        if (!CONFIGURED_ORIGINS.has(new URL(href).origin)) expect(link).toBeNull();
      }),
      { numRuns: 1_000 },
    );
  });

  const layers = fc
    .array(fc.constantFrom(...WRAPPERS), { maxLength: 4 })
    // Proofpoint never wraps its own v3 link again (the inner `__;` would end the outer URL)
    .filter((ws) => ws.every((w, i) => i === 0 || !(w.name === 'Proofpoint v3' && ws[i - 1]?.name === 'Proofpoint v3')));
  const token = fc.stringMatching(/^[A-Za-z0-9_-]{16,128}$/);
  const service = fc.constantFrom(...SERVICES);
  const form = fc.constantFrom(
    { kind: 'share', path: (t: string) => `/share/${t}` } as const,
    { kind: 'api', path: (t: string) => `/api/v1/compliance-status/${t}` } as const,
  );
  const tail = fc.constantFrom('', '/', '?ref=mail', '#top', '/?a=1&b=%2F#x');

  it('recognises any valid token on any configured service through any stack of wrappers', () => {
    fc.assert(
      fc.property(token, service, form, tail, layers, (t, s, f, rest, ws) => {
        let href = `${s.origin}${f.path(t)}${rest}`;
        for (const w of ws) href = w.wrap(href);
        const link = recognizer.recognize({ href });
        expect(link?.canonicalKey).toBe(`${s.origin}|${t}`);
        expect(link?.kind).toBe(f.kind);
        assertSound(href, link);
      }),
      { numRuns: 1_500 },
    );
  });

  it('recognises nothing on an unconfigured host, whatever the wrappers', () => {
    const host = fc.domain().filter((d) => !CONFIGURED_ORIGINS.has(`https://${d}`));
    const trick = fc.constantFrom(
      (h: string) => `https://${h}`,
      (h: string) => `https://comply.example@${h}`,
      (h: string) => `https://${h}/comply.example`,
      (h: string) => `https://comply.example.${h}`,
      (h: string) => `http://${h}:8787`,
    );
    fc.assert(
      fc.property(host, trick, token, form, layers, (h, make, t, f, ws) => {
        let href = `${make(h)}${f.path(t)}`;
        for (const w of ws) href = w.wrap(href);
        expect(recognizer.recognize({ href })).toBeNull();
      }),
      { numRuns: 1_500 },
    );
  });
});
