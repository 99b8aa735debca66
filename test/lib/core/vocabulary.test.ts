import { describe, expect, it } from 'vitest';
import { appTranslator } from '@/lib/core/i18n';
import {
  ARIP_STAGE_CODES,
  ARIP_STAGES,
  PRODUCT_CLASSIFICATION_CODES,
  PRODUCT_CLASSIFICATIONS,
  RISK_BANDS,
} from '@/lib/core/labels';
import { aripStageName, productName, readinessText, regulatorName, riskText, sinceText } from '@/lib/core/vocabulary';
import { DEMO_ORGANISATIONS } from '@/server/dev/seed-data';

const en = appTranslator('en', 'en-GB');
const fr = appTranslator('fr', 'fr-FR');

describe('one vocabulary (issue #27 item 5)', () => {
  it('pairs the readiness score with its own scale and label, and the band with the fundraising risk', () => {
    expect(readinessText(en, 93, 'Regulator Ready')).toBe('Readiness 93/100 · Regulator Ready');
    expect(riskText(en, 'low')).toBe('Fundraising risk: Low');
    expect(riskText(en, 'investor_ready')).toBe('Fundraising risk: Investor ready');
    expect(readinessText(fr, 44, 'In Progress')).toBe('Préparation 44/100 · En cours');
    expect(riskText(fr, 'high')).toBe('Risque de levée de fonds : Élevé');
  });

  it.each([en, fr])('names every band, product class and ARIP stage in words, never by its code (%#)', (i18n) => {
    for (const band of RISK_BANDS) expect(riskText(i18n, band)).not.toMatch(/_|high|medium|low\b/);
    for (const code of PRODUCT_CLASSIFICATION_CODES) expect(productName(i18n, code)?.name).not.toContain(code);
    for (const code of ARIP_STAGE_CODES) expect(aripStageName(i18n, code)?.name).not.toMatch(/_/);
  });

  it('uses the spec’s own English names for product classes and ARIP stages, and keeps the code at hand', () => {
    for (const code of PRODUCT_CLASSIFICATION_CODES)
      expect(productName(en, code)).toEqual({ name: PRODUCT_CLASSIFICATIONS[code], code });
    for (const code of ARIP_STAGE_CODES) expect(aripStageName(en, code)).toEqual({ name: ARIP_STAGES[code], code });
    expect(productName(en, null)).toBeNull();
    expect(aripStageName(en, null)).toBeNull();
  });

  it('names regulators by their official name; a code it does not know is said to be a code', () => {
    expect(regulatorName(en, 'SEC_NIGERIA')).toEqual({
      name: 'Securities and Exchange Commission, Nigeria',
      code: 'SEC_NIGERIA',
    });
    expect(regulatorName(fr, 'AMF_UMOA').name).toBe('Autorité des marchés financiers de l’UMOA');
    expect(regulatorName(en, 'XYZ_BOARD')).toEqual({ name: 'Regulator code XYZ_BOARD', code: 'XYZ_BOARD' });
    expect(regulatorName(en, 'constructor').name).toBe('Regulator code constructor');
  });

  it('knows every regulator the demo data uses', () => {
    const codes = DEMO_ORGANISATIONS.flatMap((organisation) => [
      organisation.profile.primary_regulator,
      ...organisation.profile.secondary_regulators,
    ]).filter((code): code is string => code !== null);
    for (const code of codes) expect(regulatorName(en, code).name, code).not.toContain(code);
  });

  it('a past event is never in the future: up to a minute late (or early, a clock behind the service’s) is "just now"', () => {
    const now = Date.parse('2026-11-22T10:00:00.000Z');
    expect(sinceText(en, now + 2000, now)).toBe('just now');
    expect(sinceText(en, now - 30_000, now)).toBe('just now');
    expect(sinceText(fr, now + 2000, now)).toBe('à l’instant');
    expect(sinceText(en, now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(sinceText(fr, now - 3 * 24 * 3600_000, now)).toBe('il y a 3 jours');
  });
});
