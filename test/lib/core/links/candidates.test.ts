// @vitest-environment happy-dom
/**
 * `candidateSelector`: the CSS first cut the content script uses before `recognizeAnchor`. It may let
 * through anchors that are not share links, but never hold back one that is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLinkRecognizer, unwrapUrl } from '@/lib/core/links';
import type { ServiceConfig } from '@/lib/core/services';
import { API_PATH_TEMPLATE, SHARE_PATH_TEMPLATE } from '@/lib/core/services';
import { wrappedLinks } from '../../../fixtures/wrapped-links';
import { COMPLY, SERVICES, TOKEN, WRAPPERS, apiUrl, shareUrl } from './helpers';

const recognizer = createLinkRecognizer(SERVICES);
const ELSEWHERE = 'https://crm.example/deals/42';

function anchor(href: string): HTMLAnchorElement {
  const element = document.createElement('a');
  element.setAttribute('href', href);
  return element;
}

function isCandidate(href: string, base = ELSEWHERE, current = recognizer): boolean {
  const selector = current.candidateSelector(base);
  return selector !== null && anchor(href).matches(selector);
}

describe('candidateSelector', () => {
  it('lets through every configured service’s links, direct and behind every wrapper, in any case', () => {
    for (const service of SERVICES) {
      for (const url of [shareUrl(service.origin), apiUrl(service.origin)]) {
        expect(isCandidate(url), url).toBe(true);
        expect(isCandidate(url.toUpperCase()), url).toBe(true);
        for (const { name, wrap } of WRAPPERS) {
          expect(recognizer.recognizeHref(wrap(url))?.token, `${name}: ${url}`).toBe(TOKEN);
          expect(isCandidate(wrap(url)), `${name}: ${url}`).toBe(true);
        }
      }
    }
  });

  it('holds back ordinary links, so the content script never reads them', () => {
    for (const href of [
      'https://example.org/item/5',
      'https://news.example.net/a',
      'mailto:ada@kobo.example',
      '/deals/42',
      '#top',
    ]) {
      expect(isCandidate(href), href).toBe(false);
    }
  });

  it('on a service’s own pages every link is a candidate (relative hrefs resolve to the service)', () => {
    expect(recognizer.candidateSelector(`${COMPLY.origin}/demo`)).toBe('a[href]');
    expect(isCandidate(`/share/${TOKEN}`, `${COMPLY.origin}/demo`)).toBe(true);
    expect(isCandidate(`/share/${TOKEN}`)).toBe(false);
    // Same host, another port or scheme: relative links land elsewhere.
    const other = new URL(COMPLY.origin);
    other.port = '8443';
    expect(recognizer.candidateSelector(`${other.origin}/demo`)).not.toBe('a[href]');
    expect(recognizer.candidateSelector(`${COMPLY.origin.replace('https:', 'http:')}/demo`)).not.toBe('a[href]');
  });

  it('is null when no service is configured (nothing can be a share link)', () => {
    expect(createLinkRecognizer([]).candidateSelector(ELSEWHERE)).toBeNull();
  });

  it('property: whatever recognizeAnchor accepts, the selector lets through', () => {
    const hrefs = fc.oneof(
      fc
        .constantFrom(...SERVICES.map((service) => service.origin))
        .chain((origin) =>
          fc.constantFrom(...WRAPPERS.map((wrapper) => wrapper.wrap), (url: string) => url).map((wrap) => wrap(shareUrl(origin))),
        ),
      fc.string({ maxLength: 80 }),
    );
    fc.assert(
      fc.property(hrefs, (href) => {
        const element = anchor(href);
        if (recognizer.recognizeAnchor(element) !== null) expect(isCandidate(href)).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  // Real-world wrapped links (test/fixtures/wrapped-links): with a service configured at each one's real target,
  // the wrapped form must still be a candidate (every wrapper keeps the host's letters and digits).
  const fixtures = wrappedLinks
    .filter((fixture) => fixture.expected !== fixture.input && URL.canParse(unwrapUrl(fixture.input)))
    .filter((fixture) => /^https?:$/.test(new URL(unwrapUrl(fixture.input)).protocol))
    // IDN hosts are never recognised in any written form (see rejects.test.ts), so need no candidate.
    .filter((fixture) => !new URL(unwrapUrl(fixture.input)).hostname.includes('xn--'));

  it.each(fixtures.map((fixture, index) => ({ ...fixture, label: `#${index} ${fixture.format}` })))(
    '$label: a wrapped link to a configured host is a candidate',
    ({ input }) => {
      const target = new URL(unwrapUrl(input));
      const service: ServiceConfig = {
        id: 'fixture',
        name: 'Fixture target',
        origin: target.origin,
        apiPathTemplate: API_PATH_TEMPLATE,
        sharePathTemplates: [SHARE_PATH_TEMPLATE],
      };
      expect(isCandidate(input, ELSEWHERE, createLinkRecognizer([service]))).toBe(true);
    },
  );
});
