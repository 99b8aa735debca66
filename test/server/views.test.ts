import { afterAll, describe, expect, it } from 'vitest';
import { Window } from 'happy-dom';
import {
  API_VERSION,
  ARIP_STAGES,
  ARIP_STAGE_CODES,
  GAP_SEVERITY_RANK,
  PRODUCT_CLASSIFICATIONS,
  PRODUCT_CLASSIFICATION_CODES,
  READINESS_LABELS,
  RISK_BANDS,
  RISK_BAND_MEANINGS,
  checklistCompletionPct,
  readinessLabelFor,
  riskBandFor,
} from '../../lib/core/labels';
import { snapshotSuccessEnvelopeSchema, type SnapshotSuccessEnvelope } from '../../lib/core/schemas/snapshot';
import { renderSharePage } from '../../server/views/share-page';
import { ERROR_PAGE_COPY, renderErrorPage, type ErrorPageStatus } from '../../server/views/error-page';
import { renderDemoPage, type DemoLink } from '../../server/views/demo-page';
import { escapeHtml, formatUtc } from '../../server/views/html';
import { DEMO_ORGANISATIONS, type DemoOrganisation } from '../../server/seed-data';

const window = new Window();
afterAll(async () => {
  await window.happyDOM.close();
});

function parse(html: string) {
  return new window.DOMParser().parseFromString(html, 'text/html');
}

type Doc = ReturnType<typeof parse>;

function byTestId(doc: Doc, id: string) {
  const el = doc.querySelector(`[data-testid="${id}"]`);
  if (!el) throw new Error(`no element with data-testid="${id}"`);
  return el;
}

function text(doc: Doc, id: string): string {
  return (byTestId(doc, id).textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** No script elements, no inline event handlers, no javascript: URLs, no external resources. */
function expectInert(doc: Doc, html: string): void {
  expect(doc.querySelectorAll('script').length).toBe(0);
  expect(html.toLowerCase()).not.toContain('<script');
  for (const el of doc.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      expect(attr.name.startsWith('on'), `${el.tagName} has ${attr.name}`).toBe(false);
    }
  }
  for (const el of doc.querySelectorAll('[href], [src]')) {
    const ref = el.getAttribute('href') ?? el.getAttribute('src') ?? '';
    expect(ref.trim().toLowerCase().startsWith('javascript:')).toBe(false);
  }
  expect(doc.querySelectorAll('link, img, iframe, object, embed, base, form').length).toBe(0);
}

const DISCLAIMER =
  'This Regulatory DD Pack is an AI-assisted self-assessment prepared from information provided by the founder. ' +
  'It is regulatory information, not legal advice, and it is not an opinion, licence, certification or guarantee of ' +
  'compliance or licence status by the service, any regulator or any other party. Scores and gaps may be incomplete or ' +
  'out of date. Investors, lenders and partners must carry out their own independent due diligence before relying on it.';

const BASE: SnapshotSuccessEnvelope = {
  success: true,
  data: {
    api_version: API_VERSION,
    company: { name: 'Ìlú Digital Exchange Ltd' },
    scores: {
      readiness_score: 78,
      readiness_label: readinessLabelFor(78),
      fundraise_score: 58,
      fundraise_risk_band: riskBandFor(58),
      fundraise_risk_label: RISK_BAND_MEANINGS[riskBandFor(58)],
      checklist_completion_pct: checklistCompletionPct(36, 44),
      checklist_complete: 36,
      checklist_total: 44,
    },
    licensing: {
      product_classification: 'DAC',
      product_classification_label: PRODUCT_CLASSIFICATIONS.DAC,
      primary_regulator: 'SEC_NIGERIA',
      secondary_regulators: ['CBN', 'NFIU'],
      arip_stage: 'formal_application',
      arip_stage_label: ARIP_STAGES.formal_application,
    },
    verification: {
      last_score_calculated_at: '2026-06-15T08:30:00.000Z',
      pack_generated_at: '2026-06-14T17:05:00.000Z',
      pack_verification_hash: 'a3f9c21e7b04',
      share_expires_at: '2026-06-21T17:05:00.000Z',
      snapshot_at: '2026-06-16T09:12:45.123Z',
    },
    top_gaps: [
      {
        title: 'Segregation of client digital assets not attested',
        severity: 'critical',
        regulatory_basis: 'SEC Nigeria rules on custody of digital assets.',
      },
      { title: 'Travel Rule not implemented', severity: 'high', regulatory_basis: 'FATF Recommendation 16.' },
      { title: 'Penetration test outdated', severity: 'medium', regulatory_basis: 'SEC Nigeria technology-risk expectations.' },
    ],
    links: {
      human_summary_url: 'http://localhost:8787/share/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
      service_profile_url: 'https://service.example/',
    },
    disclaimer: DISCLAIMER,
  },
  meta: { token_status: 'active', view_count: 12 },
};

/** A valid envelope (checked against lib's schema), optionally changed by `mutate`. */
function makeEnvelope(mutate?: (envelope: SnapshotSuccessEnvelope) => void): SnapshotSuccessEnvelope {
  const envelope = structuredClone(BASE);
  mutate?.(envelope);
  return snapshotSuccessEnvelopeSchema.parse(envelope);
}

/** What the server would send for a seeded organisation (top 3 gaps by severity). */
function envelopeForOrganisation(org: DemoOrganisation): SnapshotSuccessEnvelope {
  const { profile } = org;
  const band = riskBandFor(profile.fundraise_score);
  return makeEnvelope((e) => {
    e.data.company.name = org.name;
    e.data.scores = {
      readiness_score: profile.readiness_score,
      readiness_label: readinessLabelFor(profile.readiness_score),
      fundraise_score: profile.fundraise_score,
      fundraise_risk_band: band,
      fundraise_risk_label: RISK_BAND_MEANINGS[band],
      checklist_completion_pct: checklistCompletionPct(profile.checklist_complete, profile.checklist_total),
      checklist_complete: profile.checklist_complete,
      checklist_total: profile.checklist_total,
    };
    e.data.licensing = {
      product_classification: profile.product_classification,
      product_classification_label: profile.product_classification
        ? PRODUCT_CLASSIFICATIONS[profile.product_classification]
        : null,
      primary_regulator: profile.primary_regulator,
      secondary_regulators: profile.secondary_regulators,
      arip_stage: profile.arip_stage,
      arip_stage_label: profile.arip_stage ? ARIP_STAGES[profile.arip_stage] : null,
    };
    e.data.top_gaps = [...profile.gaps].sort((a, b) => GAP_SEVERITY_RANK[a.severity] - GAP_SEVERITY_RANK[b.severity]).slice(0, 3);
  });
}

describe('escapeHtml', () => {
  it('escapes the five HTML specials and backticks', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\`</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;',
    );
    expect(escapeHtml(42)).toBe('42');
  });
});

describe('formatUtc', () => {
  it('formats in UTC regardless of the input offset', () => {
    expect(formatUtc('2026-06-16T09:12:45.123Z')).toBe('16 Jun 2026, 09:12 UTC');
    expect(formatUtc('2026-06-16T01:05:00+03:00')).toBe('15 Jun 2026, 22:05 UTC');
    expect(formatUtc('not a date')).toBe('not a date');
  });
});

describe('renderSharePage', () => {
  it('is a complete HTML5 document with a title and no scripts or external resources', () => {
    const html = renderSharePage(makeEnvelope());
    expect(html.startsWith('<!doctype html>')).toBe(true);
    const doc = parse(html);
    expect(doc.documentElement.getAttribute('lang')).toBe('en');
    expect(doc.title).toContain('Ìlú Digital Exchange Ltd');
    expect(doc.querySelector('meta[name="viewport"]')).not.toBeNull();
    expect(doc.querySelector('style')?.textContent).toContain('prefers-color-scheme: dark');
    expect(doc.querySelector('style')?.textContent).toContain('@media print');
    expectInert(doc, html);
  });

  it('shows every field of the snapshot', () => {
    const doc = parse(renderSharePage(makeEnvelope()));
    expect(text(doc, 'company-name')).toBe('Ìlú Digital Exchange Ltd');
    expect(text(doc, 'readiness-score')).toBe('78');
    expect(text(doc, 'readiness-label')).toBe('Good Standing');
    expect(byTestId(doc, 'readiness-label').className).toContain('tone-blue');
    expect(text(doc, 'fundraise-score')).toBe('58');
    expect(text(doc, 'risk-band')).toContain('Medium');
    expect(byTestId(doc, 'risk-band').getAttribute('data-band')).toBe('medium');
    expect(byTestId(doc, 'risk-band').className).toContain('tone-amber');
    expect(text(doc, 'risk-label')).toBe(RISK_BAND_MEANINGS.medium);
    expect(text(doc, 'checklist-complete')).toBe('36');
    expect(text(doc, 'checklist-total')).toBe('44');
    expect(text(doc, 'checklist-pct')).toBe('81% complete');
    expect(text(doc, 'product-classification')).toBe('Digital Asset Custodian DAC');
    expect(text(doc, 'primary-regulator')).toBe('SEC_NIGERIA');
    expect(text(doc, 'secondary-regulators')).toBe('CBNNFIU');
    expect(doc.querySelectorAll('[data-testid="secondary-regulators"] .chip').length).toBe(2);
    expect(text(doc, 'arip-stage')).toBe('Stage 3: Formal Application');
    expect(text(doc, 'pack-hash')).toBe('a3f9c21e7b04');
    expect(text(doc, 'view-count')).toBe('12 views');

    const gaps = doc.querySelectorAll('[data-testid="gap"]');
    expect(gaps.length).toBe(3);
    const first = gaps[0];
    if (!first) throw new Error('no gap');
    expect(first.querySelector('[data-testid="gap-title"]')?.textContent).toBe(
      'Segregation of client digital assets not attested',
    );
    expect(first.querySelector('[data-testid="gap-severity"]')?.textContent).toBe('critical');
    expect(first.querySelector('[data-testid="gap-severity"]')?.className).toContain('tone-red');
    expect(first.querySelector('[data-testid="gap-basis"]')?.textContent).toBe('SEC Nigeria rules on custody of digital assets.');
    expect(doc.querySelector('[data-testid="no-gaps"]')).toBeNull();
    expect(doc.body.textContent).toContain('founder self-assessment, not a certification');
  });

  it('shows every verification time in UTC with a machine-readable <time datetime>', () => {
    const envelope = makeEnvelope();
    const doc = parse(renderSharePage(envelope));
    const v = envelope.data.verification;
    const cases: [string, string][] = [
      ['score-calculated', v.last_score_calculated_at],
      ['pack-generated', v.pack_generated_at ?? ''],
      ['share-expires', v.share_expires_at],
      ['snapshot-at', v.snapshot_at],
    ];
    for (const [id, iso] of cases) {
      const time = byTestId(doc, id).querySelector('time');
      expect(time?.getAttribute('datetime')).toBe(iso);
      expect(time?.textContent).toBe(formatUtc(iso));
      expect(time?.textContent).toMatch(/UTC$/);
    }
    expect(text(doc, 'share-expires')).toBe('21 Jun 2026, 17:05 UTC');
  });

  it('handles a snapshot without pack, classification, regulators or ARIP stage', () => {
    const doc = parse(
      renderSharePage(
        makeEnvelope((e) => {
          e.data.licensing = {
            product_classification: null,
            product_classification_label: null,
            primary_regulator: null,
            secondary_regulators: [],
            arip_stage: null,
            arip_stage_label: null,
          };
          e.data.verification.pack_generated_at = null;
          e.data.verification.pack_verification_hash = null;
          e.meta.view_count = 1;
        }),
      ),
    );
    expect(text(doc, 'product-classification')).toBe('Not classified');
    expect(text(doc, 'primary-regulator')).toBe('None stated');
    expect(text(doc, 'secondary-regulators')).toBe('None');
    expect(text(doc, 'arip-stage')).toBe('Not in ARIP');
    expect(text(doc, 'pack-generated')).toBe('No DD pack generated');
    expect(doc.querySelector('[data-testid="pack-hash"]')).toBeNull();
    expect(text(doc, 'view-count')).toBe('1 view');
  });

  it('shows a clear empty state when there are no gaps', () => {
    const doc = parse(renderSharePage(makeEnvelope((e) => void (e.data.top_gaps = []))));
    expect(doc.querySelectorAll('[data-testid="gap"]').length).toBe(0);
    expect(text(doc, 'no-gaps')).toContain('No open gaps reported');
  });

  it('shows the full disclaimer, visibly, never truncated', () => {
    const doc = parse(renderSharePage(makeEnvelope()));
    const el = byTestId(doc, 'disclaimer');
    expect(el.textContent).toBe(DISCLAIMER);
    for (let node: typeof el | null = el; node; node = node.parentElement) {
      expect(node.hasAttribute('hidden')).toBe(false);
      expect(node.getAttribute('aria-hidden')).toBeNull();
      expect(node.tagName).not.toBe('DETAILS');
      expect((node.getAttribute('style') ?? '').replace(/\s/g, '')).not.toMatch(/display:none|visibility:hidden/);
    }
    // no CSS that clips it
    expect(doc.querySelector('style')?.textContent).not.toMatch(/\.disclaimer[^{]*\{[^}]*(text-overflow|line-clamp|max-height)/);
  });

  it('colours every readiness label and risk band distinctly', () => {
    const readinessTones = new Set<string>();
    const riskTones = new Set<string>();
    for (const [score, fundraise] of [
      [10, 10],
      [50, 50],
      [80, 70],
      [95, 95],
    ] as const) {
      const doc = parse(
        renderSharePage(
          makeEnvelope((e) => {
            e.data.scores.readiness_score = score;
            e.data.scores.readiness_label = readinessLabelFor(score);
            e.data.scores.fundraise_score = fundraise;
            e.data.scores.fundraise_risk_band = riskBandFor(fundraise);
            e.data.scores.fundraise_risk_label = RISK_BAND_MEANINGS[riskBandFor(fundraise)];
          }),
        ),
      );
      readinessTones.add(byTestId(doc, 'readiness-label').className);
      riskTones.add(byTestId(doc, 'risk-band').className);
    }
    expect(readinessTones.size).toBe(READINESS_LABELS.length);
    expect(riskTones.size).toBe(RISK_BANDS.length);
  });

  it('escapes hostile founder-provided values everywhere', () => {
    const hostile = `<script>alert(1)</script>"onmouseover="alert(2)" '><img src=x onerror=alert(3)>`;
    const envelope = makeEnvelope((e) => {
      e.data.company.name = hostile;
      e.data.api_version = hostile;
      e.data.scores.fundraise_risk_label = hostile;
      e.data.licensing.product_classification_label = hostile;
      e.data.licensing.primary_regulator = hostile;
      e.data.licensing.secondary_regulators = [hostile];
      e.data.licensing.arip_stage_label = hostile;
      e.data.verification.pack_verification_hash = hostile;
      e.data.top_gaps = [{ title: hostile, severity: 'high', regulatory_basis: hostile }];
      e.data.disclaimer = hostile;
    });
    const html = renderSharePage(envelope);
    const doc = parse(html);
    expectInert(doc, html);
    expect(doc.querySelectorAll('img').length).toBe(0);
    expect(text(doc, 'company-name')).toBe(hostile.replace(/\s+/g, ' '));
    expect(byTestId(doc, 'gap-title').textContent).toBe(hostile);
    expect(byTestId(doc, 'gap-basis').textContent).toBe(hostile);
    expect(byTestId(doc, 'disclaimer').textContent).toBe(hostile);
    expect(byTestId(doc, 'pack-hash').textContent).toBe(hostile);
    expect(doc.title).toContain(hostile);
    expect(doc.querySelector('meta[name="description"]')?.getAttribute('content')).toContain(hostile);
  });

  it('renders every seeded organisation', () => {
    for (const org of DEMO_ORGANISATIONS) {
      const html = renderSharePage(envelopeForOrganisation(org));
      const doc = parse(html);
      expectInert(doc, html);
      expect(text(doc, 'company-name')).toBe(org.name);
      expect(doc.querySelectorAll('[data-testid="gap"]').length).toBe(Math.min(org.profile.gaps.length, 3));
    }
  });
});

describe('renderErrorPage', () => {
  const statuses: [ErrorPageStatus, string][] = [
    [404, 'Not Found'],
    [410, 'Gone'],
    [421, 'Misdirected Request'],
    [429, 'Too Many Requests'],
    [500, 'Internal Server Error'],
  ];

  it.each(statuses)('%i shows its status text, title and message', (status, statusText) => {
    const copy = ERROR_PAGE_COPY[status];
    const html = renderErrorPage({ status, ...copy });
    const doc = parse(html);
    expectInert(doc, html);
    expect(text(doc, 'error-status')).toBe(`Error ${status} · ${statusText}`);
    expect(doc.querySelector('h1')?.textContent).toBe(copy.title);
    expect(text(doc, 'error-message')).toBe(copy.message);
    expect(doc.title).toContain(String(status));
    expect(byTestId(doc, 'error-page').getAttribute('data-status')).toBe(String(status));
  });

  it('404 copy does not reveal whether a token existed, was revoked or expired', () => {
    const doc = parse(renderErrorPage({ status: 404, ...ERROR_PAGE_COPY[404] }));
    const body = (doc.body.textContent ?? '').replace(/\s+/g, ' ');
    expect(body).not.toMatch(/\brevoked\b|\bexpired\b|\bdeleted\b|never existed|no longer exists|was valid/i);
  });

  it('escapes the title and message', () => {
    const html = renderErrorPage({ status: 500, title: '<script>x</script>', message: '"onmouseover="y' });
    const doc = parse(html);
    expectInert(doc, html);
    expect(doc.querySelector('h1')?.textContent).toBe('<script>x</script>');
    expect(text(doc, 'error-message')).toBe('"onmouseover="y');
  });
});

/** Proofpoint URL Defense v2 `u=`: `-XX` is `%XX`, `_` is `/`. */
function decodeProofpointV2(wrapped: string): string {
  const u = new URL(wrapped).searchParams.get('u') ?? '';
  return decodeURIComponent(u.replace(/-/g, '%').replace(/_/g, '/'));
}

describe('renderDemoPage', () => {
  const base = 'http://localhost:8787';
  const tok = (c: string) => c.repeat(43);
  const links: DemoLink[] = [
    {
      label: 'Series A data room',
      company: 'Ìlú Digital Exchange Ltd',
      state: 'active',
      apiUrl: `${base}/api/v1/compliance-status/${tok('A')}`,
      shareUrl: `${base}/share/${tok('A')}`,
    },
    {
      label: 'Seed link',
      company: 'Kobo Vault Custody Ltd',
      state: 'active',
      apiUrl: `${base}/api/v1/compliance-status/${tok('B')}`,
      shareUrl: `${base}/share/${tok('B')}`,
    },
    {
      label: 'Tokenised RWA',
      company: 'Sahel Tokenworks SA',
      state: 'active',
      apiUrl: `${base}/api/v1/compliance-status/a-b_c${tok('C')}`,
      shareUrl: `${base}/share/a-b_c${tok('C')}`,
    },
    {
      label: 'Bank DD',
      company: 'Harambee Pay Ltd',
      state: 'active',
      apiUrl: `${base}/api/v1/compliance-status/${tok('D')}`,
      shareUrl: `${base}/share/${tok('D')}`,
    },
    {
      label: 'Angels',
      company: 'Gold Coast Digital Assets Ltd',
      state: 'active',
      apiUrl: `${base}/api/v1/compliance-status/x_y-z${tok('E')}`,
      shareUrl: `${base}/share/x_y-z${tok('E')}`,
    },
    {
      label: 'Demo day',
      company: 'Gold Coast Digital Assets Ltd',
      state: 'expired',
      apiUrl: `${base}/api/v1/compliance-status/${tok('F')}`,
      shareUrl: `${base}/share/${tok('F')}`,
    },
    {
      label: 'Old link',
      company: 'NaijaRaise Offerings Ltd',
      state: 'revoked',
      apiUrl: `${base}/api/v1/compliance-status/${tok('G')}`,
      shareUrl: `${base}/share/${tok('G')}`,
    },
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
      expect(a.getAttribute('data-demo-form')).toMatch(/^(plain-share|plain-api|gmail|safelinks|proofpoint-v2|table|lookalike)$/);
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
      links: [
        {
          label: hostile,
          company: hostile,
          state: 'active',
          apiUrl: `${base}/api/v1/compliance-status/${tok('H')}"onmouseover="x`,
          shareUrl: `${base}/share/${tok('H')}"onmouseover="x`,
        },
      ],
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

describe('DEMO_ORGANISATIONS coverage', () => {
  const orgs = DEMO_ORGANISATIONS;
  const profiles = orgs.map((o) => o.profile);

  it('has 6 to 10 organisations with unique names, all on a tier that can share', () => {
    expect(orgs.length).toBeGreaterThanOrEqual(6);
    expect(orgs.length).toBeLessThanOrEqual(10);
    expect(new Set(orgs.map((o) => o.name)).size).toBe(orgs.length);
    for (const org of orgs) expect(['growth', 'scale']).toContain(org.subscription_tier);
  });

  it('has valid profiles', () => {
    for (const p of profiles) {
      for (const score of [p.readiness_score, p.fundraise_score]) {
        expect(Number.isInteger(score) && score >= 0 && score <= 100).toBe(true);
      }
      expect(p.checklist_total).toBeGreaterThan(0);
      expect(p.checklist_complete).toBeLessThanOrEqual(p.checklist_total);
      for (const gap of p.gaps) {
        expect(gap.title.length).toBeGreaterThan(0);
        expect(gap.regulatory_basis.length).toBeGreaterThan(0);
      }
    }
  });

  it('covers every readiness label', () => {
    const labels = new Set(profiles.map((p) => readinessLabelFor(p.readiness_score)));
    expect([...labels].sort()).toEqual([...READINESS_LABELS].sort());
  });

  it('covers every risk band', () => {
    const bands = new Set(profiles.map((p) => riskBandFor(p.fundraise_score)));
    expect([...bands].sort()).toEqual([...RISK_BANDS].sort());
  });

  it('covers every ARIP stage', () => {
    const stages = new Set(profiles.map((p) => p.arip_stage));
    for (const code of ARIP_STAGE_CODES) expect(stages.has(code)).toBe(true);
  });

  it('covers every product classification and null', () => {
    const classes = new Set(profiles.map((p) => p.product_classification));
    for (const code of PRODUCT_CLASSIFICATION_CODES) expect(classes.has(code)).toBe(true);
    expect(classes.has(null)).toBe(true);
  });

  it('has organisations with 0, exactly 1 and more than 3 gaps', () => {
    const counts = profiles.map((p) => p.gaps.length);
    expect(counts).toContain(0);
    expect(counts).toContain(1);
    expect(counts.some((n) => n > 3)).toBe(true);
  });

  it('has active, expired and revoked links, and an active link for every organisation', () => {
    const states = orgs.flatMap((o) => o.links.map((l) => l.state));
    expect(states).toContain('active');
    expect(states).toContain('expired');
    expect(states).toContain('revoked');
    for (const org of orgs) expect(org.links.some((l) => l.state === 'active')).toBe(true);
  });
});
