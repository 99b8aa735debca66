import { describe, expect, it } from 'vitest';
import { createLinkRecognizer, recognizeAnchor, recognizeLink } from '@/lib/core/links';
import type { ServiceConfig } from '@/lib/core/services';
import { LOCAL_SERVICES } from '@/lib/core/services';
import { apiUrl, COMPLY, FakeAnchor, proofpointV3Encode, SERVICE, SERVICES, shareUrl, TOKEN, wrapper, WRAPPERS } from './helpers';

const recognizer = createLinkRecognizer(SERVICES);
const C = 'https://comply.example';
const KEY = `${C}|${TOKEN}`;
const API = `${C}/api/v1/compliance-status/${TOKEN}`;

describe('direct links', () => {
  it.each([
    ['API path', `${C}/api/v1/compliance-status/${TOKEN}`, 'api'],
    ['share path', `${C}/share/${TOKEN}`, 'share'],
    ['second share template', `${C}/s/${TOKEN}/view`, 'share'],
    ['second share template, trailing slash', `${C}/s/${TOKEN}/view/`, 'share'],
    ['API path, trailing slash', `${C}/api/v1/compliance-status/${TOKEN}/`, 'api'],
    ['share path, trailing slash', `${C}/share/${TOKEN}/`, 'share'],
    ['query', `${C}/share/${TOKEN}?utm_source=mail&x=%2F..%2F`, 'share'],
    ['hash', `${C}/share/${TOKEN}#gaps`, 'share'],
    ['trailing slash + query + hash', `${C}/share/${TOKEN}/?a=1#b`, 'share'],
    ['empty query and hash', `${C}/api/v1/compliance-status/${TOKEN}?#`, 'api'],
    ['upper-case scheme and host', `HTTPS://COMPLY.Example/share/${TOKEN}`, 'share'],
    ['explicit default port', `https://comply.example:443/share/${TOKEN}`, 'share'],
  ] as const)('%s', (_name, href, kind) => {
    expect(recognizer.recognize({ href })).toEqual({
      service: COMPLY,
      origin: C,
      token: TOKEN,
      kind,
      apiUrl: API,
      canonicalKey: KEY,
    });
  });

  it.each([
    ['localhost API', `http://localhost:8787/api/v1/compliance-status/${TOKEN}`, 'local-localhost', 'http://localhost:8787'],
    ['localhost share', `http://localhost:8787/share/${TOKEN}`, 'local-localhost', 'http://localhost:8787'],
    // An alias of the local server's origin, spelt out as a service of its own (lib/core/services.ts).
    ['127.0.0.1 share', `http://127.0.0.1:8787/share/${TOKEN}`, 'local-localhost~1', 'http://127.0.0.1:8787'],
    ['second service', `https://service.example/share/${TOKEN}`, 'service', 'https://service.example'],
  ])('%s', (_name, href, serviceId, origin) => {
    const link = recognizer.recognize({ href });
    expect(link?.service.id).toBe(serviceId);
    expect(link?.origin).toBe(origin);
    expect(link?.apiUrl).toBe(`${origin}/api/v1/compliance-status/${TOKEN}`);
    expect(link?.canonicalKey).toBe(`${origin}|${TOKEN}`);
  });

  it('gives the API form and the share form one cache key', () => {
    const a = recognizer.recognize({ href: apiUrl(C) });
    const s = recognizer.recognize({ href: shareUrl(C) });
    expect(a?.kind).toBe('api');
    expect(s?.kind).toBe('share');
    expect(a?.canonicalKey).toBe(s?.canonicalKey);
  });

  it('keys differ per token and per origin', () => {
    const other = 'AAAAAAAAAAAAAAAAAAAAAA';
    expect(recognizer.recognize({ href: shareUrl(C, other) })?.canonicalKey).not.toBe(KEY);
    expect(recognizer.recognize({ href: shareUrl('https://service.example') })?.canonicalKey).not.toBe(KEY);
  });

  it('builds the API URL from the service template, not from the link', () => {
    const custom: ServiceConfig = {
      id: 'custom',
      name: 'Custom',
      origin: 'https://custom.example:8443',
      apiPathTemplate: '/v2/status/{token}.json',
      sharePathTemplates: ['/view/{token}'],
    };
    const link = createLinkRecognizer([custom]).recognize({ href: `https://custom.example:8443/view/${TOKEN}` });
    expect(link?.apiUrl).toBe(`https://custom.example:8443/v2/status/${TOKEN}.json`);
    expect(createLinkRecognizer([custom]).recognize({ href: `https://custom.example:8443/v2/status/${TOKEN}.json` })?.kind).toBe(
      'api',
    );
  });

  it('recognizes nothing with no services, and skips invalid service configurations', () => {
    expect(createLinkRecognizer([]).recognize({ href: shareUrl(C) })).toBeNull();
    const broken: ServiceConfig = { ...COMPLY, id: 'broken', origin: 'https://comply.example/' };
    expect(createLinkRecognizer([broken]).recognize({ href: shareUrl(C) })).toBeNull();
    const ftp: ServiceConfig = { ...COMPLY, id: 'ftp', origin: 'ftp://comply.example' };
    expect(createLinkRecognizer([ftp]).recognize({ href: `ftp://comply.example/share/${TOKEN}` })).toBeNull();
  });

  it('the standalone functions agree with the recognizer', () => {
    expect(recognizeLink({ href: shareUrl(C) }, SERVICES)?.canonicalKey).toBe(KEY);
    expect(recognizeAnchor(new FakeAnchor(shareUrl(C)), SERVICES)?.canonicalKey).toBe(KEY);
    expect(recognizeLink({ href: shareUrl('http://localhost:8787') }, LOCAL_SERVICES)?.service.id).toBe('local-localhost');
  });
});

describe('every wrapper', () => {
  const targets = [
    ['share link', shareUrl(C), 'share'],
    ['API link', apiUrl(C), 'api'],
    ['share link with query and hash', `${shareUrl(C)}/?ref=mail&x=a%2Fb#top`, 'share'],
    ['share link with upper-case scheme and host', `HTTPS://COMPLY.EXAMPLE/share/${TOKEN}`, 'share'],
  ] as const;
  const rows = WRAPPERS.flatMap((w) =>
    targets.map(([target, url, kind]) => ({ wrapper: w.name, target, wrapped: w.wrap(url), kind })),
  );

  it.each(rows)('$wrapper around a $target', ({ wrapped, kind }) => {
    const link = recognizer.recognize({ href: wrapped });
    expect(link?.canonicalKey).toBe(KEY);
    expect(link?.kind).toBe(kind);
  });

  it.each(WRAPPERS.map((w) => ({ wrapper: w.name, wrap: w.wrap })))(
    '$wrapper around a look-alike host is not a share link',
    ({ wrap }) => {
      expect(recognizer.recognize({ href: wrap(shareUrl('https://comply.example.evil.test')) })).toBeNull();
    },
  );

  it('Proofpoint v3 around a link whose query has replaced characters', () => {
    const wrapped = proofpointV3Encode(`${shareUrl(C)}?note=100%25*sure&city=Malmö#frag`);
    expect(wrapped).toContain('**');
    expect(recognizer.recognize({ href: wrapped })?.canonicalKey).toBe(KEY);
  });
});

describe('nested wrappers', () => {
  const nestings: ReadonlyArray<readonly string[]> = [
    ['Outlook Safe Links', 'Proofpoint v3'],
    ['Outlook Safe Links', 'Proofpoint v2'],
    ['Outlook safelink.html', 'Proofpoint v3'],
    ['Trend Micro click-time', 'Outlook Safe Links'],
    ['Gmail google.com/url?q=', 'Outlook Safe Links', 'Proofpoint v3'],
    ['Proofpoint v3', 'Outlook Safe Links'],
    ['Proofpoint v2', 'Gmail google.com/url?q='],
    ['LinkedIn safety', 'Slack'],
    ['Slack', 'LinkedIn redir', 'Proofpoint v1'],
    ['Trend Micro click-time', 'Outlook Safe Links', 'Proofpoint v2', 'Gmail google.com/url?q='],
  ];
  it.each(nestings.map((layers) => ({ layers: layers.join(' → '), list: layers })))('$layers', ({ list }) => {
    let href = shareUrl(C);
    for (const name of [...list].reverse()) href = wrapper(name)(href);
    expect(recognizer.recognize({ href })?.canonicalKey).toBe(KEY);
  });

  it('the real OWA safelink.html around Proofpoint v3 shape (inner URL left unencoded)', () => {
    const href = `https://outlook.office.com/mail/safelink.html?url=https://urldefense.com/v3/__${shareUrl(C)}__;!!K-Hz7m0Vt54!lqpl1Sy9GIEK$&corid=32eca395`;
    expect(recognizer.recognize({ href })?.canonicalKey).toBe(KEY);
  });
});

describe('Gmail data-saferedirecturl', () => {
  const gmail = wrapper('Gmail google.com/url?q=');

  it.each([
    ['href share link, attribute wraps the same link', shareUrl(C), gmail(shareUrl(C)), KEY],
    ['href API link, attribute wraps the share form of the same token', apiUrl(C), gmail(shareUrl(C)), KEY],
    [
      'href Safe Links, attribute wraps that Safe Link',
      wrapper('Outlook Safe Links')(shareUrl(C)),
      gmail(wrapper('Outlook Safe Links')(shareUrl(C))),
      KEY,
    ],
    ['attribute null', shareUrl(C), null, KEY],
    ['attribute empty', shareUrl(C), '', KEY],
    ['attribute wraps another token', shareUrl(C), gmail(shareUrl(C, 'BBBBBBBBBBBBBBBBBBBBBB')), null],
    ['attribute wraps a look-alike host', shareUrl(C), gmail(shareUrl('https://comply.example.evil.test')), null],
    ['attribute is an unrelated page', shareUrl(C), gmail('https://evil.test/'), null],
    [
      'attribute is a look-alike Google',
      shareUrl(C),
      `https://www.google.com.evil.test/url?q=${encodeURIComponent(shareUrl(C))}`,
      null,
    ],
    ['href elsewhere, attribute wraps a share link', 'https://evil.test/', gmail(shareUrl(C)), null],
  ])('%s', (_name, href, redirect, expected) => {
    expect(recognizer.recognize({ href, attributes: { 'data-saferedirecturl': redirect } })?.canonicalKey ?? null).toBe(expected);
    const attributes: Record<string, string> = redirect === null ? {} : { 'data-saferedirecturl': redirect };
    expect(recognizer.recognizeAnchor(new FakeAnchor(href, attributes))?.canonicalKey ?? null).toBe(expected);
  });
});

describe('recognizeAnchor', () => {
  it('uses the href the caller already read instead of reading the attribute again', () => {
    const anchor = new FakeAnchor(shareUrl(C));
    expect(recognizer.recognizeAnchor(anchor, shareUrl(C))?.canonicalKey).toBe(KEY);
    expect(anchor.reads).not.toContain('href');
    expect(recognizer.recognizeAnchor(new FakeAnchor(shareUrl(C)), null)).toBeNull(); // no href attribute
    const unread = new FakeAnchor(shareUrl(C));
    expect(recognizer.recognizeAnchor(unread)?.canonicalKey).toBe(KEY);
    expect(unread.reads).toContain('href');
  });

  it('judges the href, never the visible text', () => {
    const anchor = new FakeAnchor('https://evil.test/phish', {}, shareUrl(C));
    expect(recognizer.recognizeAnchor(anchor)).toBeNull();
    const honest = new FakeAnchor(shareUrl(C), {}, 'https://evil.test/phish');
    expect(recognizer.recognizeAnchor(honest)?.canonicalKey).toBe(KEY);
  });

  it('reads only the href attribute of an ordinary link (fast exit)', () => {
    const anchor = new FakeAnchor('https://news.example.org/article/1', { 'data-saferedirecturl': 'x' });
    expect(recognizer.recognizeAnchor(anchor)).toBeNull();
    expect(anchor.reads).toEqual(['href']);
  });

  it('reads the Gmail attribute only for a recognised link', () => {
    const anchor = new FakeAnchor(shareUrl(C));
    expect(recognizer.recognizeAnchor(anchor)?.canonicalKey).toBe(KEY);
    expect(anchor.reads).toEqual(['href', 'data-saferedirecturl']);
  });

  /** An anchor whose resolved `href` property is only readable on purpose (reading it parses a URL). */
  function anchorWith(attribute: string, resolved: string, baseURI: string) {
    const state = { resolvedReads: 0 };
    const anchor = {
      baseURI,
      getAttribute: (name: string) => (name === 'href' ? attribute : null),
      get href() {
        state.resolvedReads += 1;
        return resolved;
      },
    };
    return { anchor, state };
  }

  it('judges an absolute http(s) href attribute as written, without resolving it', () => {
    const { anchor, state } = anchorWith(shareUrl(C), shareUrl(C), 'https://crm.example/deals');
    expect(recognizer.recognizeAnchor(anchor)?.canonicalKey).toBe(KEY);
    expect(state.resolvedReads).toBe(0);
  });

  it('never resolves a relative href on a page whose base is not a configured service', () => {
    const { anchor, state } = anchorWith('/item/5', 'https://crm.example/item/5', 'https://crm.example/deals');
    expect(recognizer.recognizeAnchor(anchor)).toBeNull();
    expect(state.resolvedReads).toBe(0);
  });

  it('resolves a relative href on the service’s own pages, and judges the resolved URL', () => {
    const page = `${C}/demo`;
    const { anchor } = anchorWith(`/share/${TOKEN}`, `${C}/share/${TOKEN}`, page);
    expect(recognizer.recognizeAnchor(anchor)?.canonicalKey).toBe(KEY);
    const elsewhere = anchorWith('/item/5', `${C}/item/5`, page);
    expect(recognizer.recognizeAnchor(elsewhere.anchor)).toBeNull();
  });

  it('resolves scheme-relative and oddly written hrefs that name a configured host', () => {
    const host = new URL(C).host;
    for (const written of [`//${host}/share/${TOKEN}`, ` ${shareUrl(C)}`]) {
      const { anchor, state } = anchorWith(written, shareUrl(C), 'https://crm.example/');
      expect(recognizer.recognizeAnchor(anchor)?.canonicalKey, written).toBe(KEY);
      expect(state.resolvedReads, written).toBe(1);
    }
  });

  it('an attribute and a resolved href that disagree: the attribute rules when absolute', () => {
    // The property cannot differ from an absolute attribute in a browser; a fake that lies is not followed.
    const { anchor } = anchorWith('https://evil.test/phish', shareUrl(C), 'https://crm.example/');
    expect(recognizer.recognizeAnchor(anchor)).toBeNull();
  });

  it('falls back to the href attribute when href is not a string (SVG anchors)', () => {
    const svgLike = new FakeAnchor({ baseVal: 'ignored' }, { href: shareUrl(C) });
    expect(recognizer.recognizeAnchor(svgLike)?.canonicalKey).toBe(KEY);
    expect(recognizer.recognizeAnchor(new FakeAnchor(undefined, {}))).toBeNull();
  });

  it('does not resolve relative hrefs itself', () => {
    expect(recognizer.recognizeAnchor(new FakeAnchor(undefined, { href: `/share/${TOKEN}` }))).toBeNull();
  });
});

describe('works with only the second service configured', () => {
  it('does not match a service that is not in the list', () => {
    const only = createLinkRecognizer([SERVICE]);
    expect(only.recognize({ href: shareUrl(C) })).toBeNull();
    expect(only.recognize({ href: shareUrl('https://service.example') })?.service).toBe(SERVICE);
  });
});
