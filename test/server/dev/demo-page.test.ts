import { describe, expect, it } from 'vitest';
import { badgeChipCss, type BadgeLookState } from '../../../lib/core/badge-look';
import { renderDemoPage, type DemoLink, type DemoRow } from '../../../server/dev/demo-page';
import { expectInert, parse, text } from '../support/html-document';

/** Proofpoint URL Defense v2 `u=`: `-XX` is `%XX`, `_` is `/`. */
function decodeProofpointV2(wrapped: string): string {
  const u = new URL(wrapped).searchParams.get('u') ?? '';
  return decodeURIComponent(u.replace(/-/g, '%').replace(/_/g, '/'));
}

describe('renderDemoPage', () => {
  const base = 'http://localhost:8787';
  const tok = (c: string) => c.repeat(43);
  /** What the server reads for each state: an active link's readiness, an expired link, a revoked one (404). */
  const EXPECTED: Record<DemoLink['state'], BadgeLookState> = {
    active: { state: 'ready', score: 76, label: 'Good Standing' },
    expired: { state: 'error', code: 'EXPIRED' },
    revoked: { state: 'error', code: 'NOT_FOUND' },
  };
  /** A demo link whose API and share URLs carry `token`. */
  const demoLink = (label: string, company: string, state: DemoLink['state'], token: string): DemoRow => ({
    label,
    company,
    state,
    token,
    apiUrl: `${base}/api/v1/compliance-status/${token}`,
    shareUrl: `${base}/share/${token}`,
    expected: EXPECTED[state],
  });
  const links: DemoRow[] = [
    demoLink('Series A data room', 'Ìlú Digital Exchange Ltd', 'active', tok('A')),
    demoLink('Seed link', 'Kobo Vault Custody Ltd', 'active', tok('B')),
    demoLink('Tokenised RWA', 'Sahel Tokenworks SA', 'active', `a-b_c${tok('C')}`),
    demoLink('Bank DD', 'Harambee Pay Ltd', 'active', tok('D')),
    demoLink('Angels', 'Gold Coast Digital Assets Ltd', 'active', `x_y-z${tok('E')}`),
    demoLink('Demo day', 'Gold Coast Digital Assets Ltd', 'expired', tok('F')),
    demoLink('Old link', 'NaijaRaise Offerings Ltd', 'revoked', tok('G')),
  ];
  const html = renderDemoPage({ baseUrl: base, links });
  const doc = parse(html);
  const shareUrls = new Set(links.map((l) => l.shareUrl));
  const apiUrls = new Set(links.map((l) => l.apiUrl));

  function anchors(form: string, state?: string) {
    const stateSel = state ? `[data-demo-state="${state}"]` : '';
    return [...doc.querySelectorAll(`a[data-demo-form="${form}"]${stateSel}`)];
  }

  it('is inert and explains what to expect', () => {
    expectInert(doc, html);
    const intro = doc.body.textContent ?? '';
    expect(intro).toMatch(/badge/i);
    expect(intro).toMatch(/hover/i);
    expect(intro).toContain('counts as a view for the founder');
    for (const a of doc.querySelectorAll('a')) {
      expect(a.getAttribute('data-demo-state')).toMatch(/^(active|expired|revoked|lookalike)$/);
      expect(a.getAttribute('data-demo-form')).toMatch(
        /^(plain-share|plain-api|gmail|safelinks|proofpoint-v2|table|frame|shadow-root|lookalike)$/,
      );
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    }
  });

  it('has a plain share URL and a plain API URL', () => {
    const [share] = anchors('plain-share', 'active');
    const [api] = anchors('plain-api', 'active');
    expect(shareUrls.has(share?.getAttribute('href') ?? '')).toBe(true);
    expect(share?.textContent).toBe(share?.getAttribute('href'));
    expect(apiUrls.has(api?.getAttribute('href') ?? '')).toBe(true);
  });

  it('has a Gmail anchor whose data-saferedirecturl q= decodes to its href', () => {
    const [gmail] = anchors('gmail', 'active');
    const href = gmail?.getAttribute('href') ?? '';
    expect(shareUrls.has(href)).toBe(true);
    const redirect = new URL(gmail?.getAttribute('data-saferedirecturl') ?? '');
    expect(redirect.origin).toBe('https://www.google.com');
    expect(redirect.pathname).toBe('/url');
    expect(redirect.searchParams.get('q')).toBe(href);
    expect(redirect.searchParams.get('source')).toBe('gmail');
    expect(redirect.searchParams.get('ust')).toMatch(/^\d{16}$/);
    expect(redirect.searchParams.get('usg')).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('has an Outlook Safe Links-wrapped link that unwraps to a share URL', () => {
    const [safe] = anchors('safelinks', 'active');
    const wrapped = new URL(safe?.getAttribute('href') ?? '');
    expect(wrapped.hostname).toBe('nam12.safelinks.protection.outlook.com');
    expect(wrapped.searchParams.get('reserved')).toBe('0');
    expect(wrapped.searchParams.get('data')).toBeTruthy();
    expect(wrapped.searchParams.get('sdata')).toBeTruthy();
    expect(shareUrls.has(wrapped.searchParams.get('url') ?? '')).toBe(true);
    // in the raw HTML, query separators are entity-escaped
    expect(html).toContain('&amp;data=');
  });

  it('has a Proofpoint v2-wrapped link whose u= decodes back, even with - and _ in the token', () => {
    const [pp] = anchors('proofpoint-v2', 'active');
    const href = pp?.getAttribute('href') ?? '';
    const wrapped = new URL(href);
    expect(wrapped.origin + wrapped.pathname).toBe('https://urldefense.proofpoint.com/v2/url');
    for (const key of ['d', 'c', 'r', 'm', 's', 'e']) expect(wrapped.searchParams.has(key)).toBe(true);
    const u = wrapped.searchParams.get('u') ?? '';
    expect(u).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(u.startsWith('http-3A__localhost-3A8787_share_')).toBe(true);
    const decoded = decodeProofpointV2(href);
    expect(decoded).toBe(links[4]?.shareUrl);
    expect(decoded).toContain('x_y-z');
  });

  it('decodes the fixture-style Proofpoint v2 examples with the same decoder', () => {
    expect(
      decodeProofpointV2(
        'https://urldefense.proofpoint.com/v2/url?u=https-3A__media.mnn.com_assets_images_2016_06_jupiter-2Dnasa.jpg.638x0-5Fq80-5Fcrop-2Dsmart.jpg&d=DwMBaQ&e=',
      ),
    ).toBe('https://media.mnn.com/assets/images/2016/06/jupiter-nasa.jpg.638x0_q80_crop-smart.jpg');
  });

  it('holds a share link in a mail body frame (srcdoc) and one in a web component (declarative open shadow root)', () => {
    const frame = doc.querySelector('iframe.mail-frame');
    const framed = parse(frame?.getAttribute('srcdoc') ?? '').querySelector('a[data-demo-form="frame"]');
    expect(shareUrls.has(framed?.getAttribute('href') ?? '')).toBe(true);
    const template = doc.querySelector('deal-record > template');
    expect(template?.getAttribute('shadowrootmode')).toBe('open');
    const inRoot = (template as HTMLTemplateElement | null)?.content.querySelector('a[data-demo-form="shadow-root"]');
    expect(shareUrls.has(inRoot?.getAttribute('href') ?? '')).toBe(true);
  });

  it('lists every link in the deal-flow table with its state', () => {
    const rows = anchors('table');
    expect(rows.length).toBe(links.length);
    for (const link of links) {
      const a = rows.find((r) => r.getAttribute('href') === link.shareUrl);
      expect(a?.getAttribute('data-demo-state')).toBe(link.state);
      expect(a?.textContent).toBe(link.label);
      expect(a?.closest('tr')?.textContent).toContain(link.company);
    }
    expect(anchors('table', 'expired').length).toBe(1);
    expect(anchors('table', 'revoked').length).toBe(1);
    const headers = [...doc.querySelectorAll('table th')].map((th) => th.textContent);
    expect(headers).toEqual(expect.arrayContaining(['Company', 'Stage', 'Owner', 'Compliance link']));
  });

  it("shows each link's expected badge as the extension draws it: not loaded, then its score with the scale, expired or not found", () => {
    const badges = (link: DemoRow) =>
      [
        ...(doc
          .querySelector(`a[data-demo-form="table"][href="${link.shareUrl}"]`)
          ?.closest('tr')
          ?.querySelectorAll('.cl-badge') ?? []),
      ].map((chip) => `${chip.textContent}|${chip.getAttribute('data-tone')}`);
    expect(badges(links[0]!)).toEqual(['CL|neutral', '76/100|blue']);
    expect(badges(links[5]!)).toEqual(['CL|neutral', '◷|neutral']);
    expect(badges(links[6]!)).toEqual(['CL|neutral', '?|neutral']);
    const row = (link: DemoRow) =>
      doc.querySelector(`a[data-demo-form="table"][href="${link.shareUrl}"]`)?.closest('tr')?.textContent;
    expect(row(links[0]!)).toContain('Readiness 76/100 · Good Standing');
    // No raw API code in the column any more.
    expect(doc.querySelector('table')?.textContent).not.toMatch(/NOT_FOUND|EXPIRED|410|404/);
    // The chip's look is the badge's own stylesheet.
    expect(doc.querySelector('style')?.textContent).toContain(badgeChipCss('.cl-badge'));
  });

  it('has labelled look-alikes that do not point at the service origin', () => {
    const fakes = anchors('lookalike', 'lookalike');
    const hrefs = fakes.map((a) => a.getAttribute('href') ?? '');
    const token = tok('A');
    expect(hrefs).toContain(`http://localhost.evil.test:8787/share/${token}`);
    expect(hrefs).toContain(`http://evil.test/localhost:8787/share/${token}`);
    const deceptive = fakes.find((a) => a.textContent === links[0]?.shareUrl);
    expect(deceptive).toBeDefined();
    expect(new URL(deceptive?.getAttribute('href') ?? '').origin).not.toBe(base);
    for (const href of hrefs) {
      let url = new URL(href);
      const inner = url.hostname.endsWith('safelinks.protection.outlook.com') ? url.searchParams.get('url') : null;
      if (inner) url = new URL(inner);
      expect(url.origin).not.toBe(base);
    }
    for (const a of fakes) {
      expect(a.closest('li')?.textContent).toContain('look-alike (should not be annotated)');
    }
  });

  it('escapes hostile labels, companies and URLs', () => {
    const hostile = `<script>alert(1)</script>"onmouseover="alert(2)`;
    const badHtml = renderDemoPage({
      baseUrl: `${base}"><script>`,
      links: [demoLink(hostile, hostile, 'active', `${tok('H')}"onmouseover="x`)],
    });
    const bad = parse(badHtml);
    expectInert(bad, badHtml);
    const a = bad.querySelector('a[data-demo-form="table"]');
    expect(a?.textContent).toBe(hostile);
    expect(a?.getAttribute('href')).toBe(`${base}/share/${tok('H')}"onmouseover="x`);
  });

  it('shows a friendly note when there is no demo data', () => {
    const emptyHtml = renderDemoPage({ baseUrl: base, links: [] });
    const empty = parse(emptyHtml);
    expectInert(empty, emptyHtml);
    expect(text(empty, 'demo-empty')).toBe('No demo data: start the server with npm run server -- --seed');
    expect(empty.querySelectorAll('a').length).toBe(0);
  });

  it('still renders every form when only expired or revoked links exist', () => {
    const only = parse(renderDemoPage({ baseUrl: base, links: links.slice(5) }));
    for (const form of ['plain-share', 'plain-api', 'gmail', 'safelinks', 'proofpoint-v2', 'table', 'lookalike']) {
      expect(only.querySelectorAll(`a[data-demo-form="${form}"]`).length).toBeGreaterThan(0);
    }
  });
});
