import { describe, expect, it } from 'vitest';
import {
  ARIP_STAGE_CODES,
  PRODUCT_CLASSIFICATION_CODES,
  READINESS_LABELS,
  RISK_BANDS,
  readinessLabelFor,
  riskBandFor,
} from '../../../lib/core/labels';
import { DEMO_ORGANISATIONS } from '../../../server/dev/seed-data';

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
