import { describe, expect, it } from 'vitest';
import { appTranslator } from '@/lib/core/i18n';
import { describeCadence, describeChange } from '@/lib/core/watchlist/describe';
import type { WatchChange } from '@/lib/core/watchlist/types';
import { FIXTURE_NOW } from '@/test/fixtures/snapshot';

const en = appTranslator('en', 'en-GB');
const fr = appTranslator('fr', 'fr-FR');
const changes: WatchChange[] = [
  { kind: 'readiness', from: 68, to: 74, delta: 6 },
  { kind: 'fundraise', from: 57, to: 50, delta: -7 },
  { kind: 'label', from: 'In Progress', to: 'Good Standing' },
  { kind: 'band', from: 'medium', to: 'low' },
  { kind: 'gap-added', title: 'Cold-wallet custody unaudited', severity: 'critical' },
  { kind: 'gap-resolved', title: 'No named compliance officer', severity: 'medium', displaced: false },
  { kind: 'gap-resolved', title: 'No named compliance officer', severity: 'medium', displaced: true },
  { kind: 'gap-severity', title: 'Travel rule', from: 'medium', to: 'high' },
  { kind: 'checklist', from: 64, to: 70 },
  { kind: 'arip', from: null, to: 'aip_active' },
  { kind: 'classification', from: 'DAX', to: null },
  { kind: 'new-pack', hash: 'ffff0000', generatedAt: null },
  { kind: 'new-pack', hash: null, generatedAt: null },
  { kind: 'expiring', expiresAt: new Date(FIXTURE_NOW + 36 * 3600_000).toISOString() },
  { kind: 'ended', code: 'NOT_FOUND' },
  { kind: 'ended', code: 'EXPIRED' },
];

describe('describeChange', () => {
  it('says each kind of change in English', () => {
    expect(changes.map((change) => describeChange(en, change, FIXTURE_NOW))).toEqual([
      'Readiness score 68 → 74 (+6)',
      'Fundraise score 57 → 50 (\u22127)',
      'Readiness: In Progress → Good Standing',
      'Fundraising risk: Medium → Low',
      'New critical gap: Cold-wallet custody unaudited',
      'Gap resolved (medium): No named compliance officer',
      'Gap no longer in the top 3 (medium): No named compliance officer',
      'Gap severity medium → high: Travel rule',
      'Checklist 64% → 70%',
      'ARIP stage: Not in ARIP → Stage 4: AIP — Active',
      'Product: Digital Asset Exchange → Not classified',
      'New DD pack (ffff0000)',
      'New DD pack',
      'Link expires in 2 days',
      'Link revoked or no longer known: watch ended',
      'Link expired: watch ended',
    ]);
  });

  it('and in French, with the French labels', () => {
    const text = changes.map((change) => describeChange(fr, change, FIXTURE_NOW));
    expect(text[0]).toBe('Score de préparation 68 → 74 (+6)');
    expect(text[4]).toBe('Nouvel écart (critique) : Cold-wallet custody unaudited');
    expect(text[13]).toBe('Le lien expire après-demain');
    expect(text.every((line) => line.length > 0 && !line.includes('{'))).toBe(true);
  });

  it('cadence', () => {
    expect(describeCadence(en, { cadence: 'daily', intervalSeconds: 30 })).toBe('once a day');
    expect(describeCadence(fr, { cadence: 'interval', intervalSeconds: 30 })).toBe('toutes les 30 s');
  });
});
