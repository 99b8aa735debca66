import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../lib/core/format';
import { READINESS_LABELS, RISK_BANDS, RISK_BAND_MEANINGS } from '../../../lib/core/labels';
import { PALETTE, paletteCssVariables } from '../../../lib/core/palette';
import { DEMO_ORGANISATIONS } from '../../../server/dev/seed-data';
import { DISCLAIMER } from '../../../server/snapshots/snapshot';
import { formatUtc } from '../../../server/platform/views/html';
import { renderSharePage } from '../../../server/snapshots/share-page';
import { byTestId, expectInert, parse, text } from '../support/html-document';
import { envelopeForOrganisation, makeEnvelope } from '../support/snapshot-envelope';

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
    // One vocabulary with the extension (issue #27 item 5): names on screen, the codes in tooltips.
    expect(text(doc, 'product-classification')).toBe('Digital Asset Custodian');
    expect(byTestId(doc, 'product-classification').querySelector('[title]')?.getAttribute('title')).toBe('Code: DAC');
    expect(text(doc, 'primary-regulator')).toBe('Securities and Exchange Commission, Nigeria');
    expect(byTestId(doc, 'primary-regulator').querySelector('[data-code]')?.getAttribute('data-code')).toBe('SEC_NIGERIA');
    expect([...doc.querySelectorAll('[data-testid="secondary-regulators"] li')].map((item) => item.textContent)).toEqual([
      'Central Bank of Nigeria',
      'Nigerian Financial Intelligence Unit',
    ]);
    expect(text(doc, 'arip-stage')).toBe('Stage 3: Formal Application');
    expect(doc.body.textContent).not.toMatch(/\b[A-Z]+_[A-Z_]+\b|\b[a-z]+_[a-z_]+\b/);
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

  it('is the extension’s product: its mark, its palette, its date style (issue #27 item 7)', () => {
    const doc = parse(renderSharePage(makeEnvelope()));
    expect(doc.querySelector('.brand svg.brand-mark')).not.toBeNull();
    expect(doc.querySelector('.brand')?.textContent).not.toMatch(/^\s*C\b/);
    const css = doc.querySelector('style')?.textContent ?? '';
    for (const scheme of [PALETTE.light, PALETTE.dark]) expect(css).toContain(paletteCssVariables(scheme));
    expect(formatUtc('2026-12-01T15:22:00.000Z')).toBe(formatDateTime('2026-12-01T15:22:00.000Z', 'en-US'));
    expect(formatUtc('2026-12-01T15:22:00.000Z')).toBe('1 Dec 2026, 15:22 UTC');
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
        makeEnvelope({
          product_classification: null,
          primary_regulator: null,
          secondary_regulators: [],
          arip_stage: null,
          pack_generated_at: null,
          pack_verification_hash: null,
          view_count: 1,
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
    const doc = parse(renderSharePage(makeEnvelope({ gaps: [] })));
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
      const doc = parse(renderSharePage(makeEnvelope({ readiness_score: score, fundraise_score: fundraise })));
      readinessTones.add(byTestId(doc, 'readiness-label').className);
      riskTones.add(byTestId(doc, 'risk-band').className);
    }
    expect(readinessTones.size).toBe(READINESS_LABELS.length);
    expect(riskTones.size).toBe(RISK_BANDS.length);
  });

  it('escapes hostile founder-provided values everywhere', () => {
    const hostile = `<script>alert(1)</script>"onmouseover="alert(2)" '><img src=x onerror=alert(3)>`;
    const envelope = makeEnvelope({}, (e) => {
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
