import { describe, expect, it } from 'vitest';
import {
  changeSincePrevious,
  changeSinceWeekBefore,
  diffPoints,
  endChange,
  EXPIRY_WARNING_MS,
  formatDelta,
  isNotable,
} from '@/lib/core/watchlist/diff';
import type { WatchChange, WatchPoint } from '@/lib/core/watchlist/types';
import { FIXTURE_NOW } from '@/test/fixtures/snapshot';
import { buildPoint } from '@/test/fixtures/watchlist';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const before = buildPoint({ at: FIXTURE_NOW });
const after = (overrides: Partial<WatchPoint>) => buildPoint({ ...before, at: FIXTURE_NOW + DAY, ...overrides });
const kinds = (changes: WatchChange[]) => changes.map((change) => change.kind);

describe('diffPoints: every kind of change', () => {
  it('the first point has no changes; an identical refresh has none either', () => {
    expect(diffPoints(null, before)).toEqual([]);
    expect(diffPoints(before, after({}))).toEqual([]);
  });

  it('readiness up and down, by how much', () => {
    expect(diffPoints(before, after({ readinessScore: 74 }))).toEqual([{ kind: 'readiness', from: 68, to: 74, delta: 6 }]);
    expect(diffPoints(before, after({ readinessScore: 65 }))).toEqual([{ kind: 'readiness', from: 68, to: 65, delta: -3 }]);
  });

  it('fundraise score', () => {
    expect(diffPoints(before, after({ fundraiseScore: 60 }))).toEqual([{ kind: 'fundraise', from: 57, to: 60, delta: 3 }]);
  });

  it('readiness label and risk band changes come first, with the score moves after them', () => {
    const changes = diffPoints(
      before,
      after({ readinessScore: 72, readinessLabel: 'Good Standing', fundraiseScore: 66, riskBand: 'low' }),
    );
    expect(changes).toEqual([
      { kind: 'label', from: 'In Progress', to: 'Good Standing' },
      { kind: 'band', from: 'medium', to: 'low' },
      { kind: 'readiness', from: 68, to: 72, delta: 4 },
      { kind: 'fundraise', from: 57, to: 66, delta: 9 },
    ]);
  });

  it('a gap added and a gap resolved, with their severity (most severe first)', () => {
    const gaps = [{ title: 'AML/CFT programme not yet board-approved', severity: 'critical' as const }];
    const start = after({ gaps });
    const next = buildPoint({
      ...start,
      at: start.at + DAY,
      gaps: [
        { title: 'Travel-rule messaging not in place', severity: 'medium' },
        { title: 'Cold-wallet custody unaudited', severity: 'high' },
      ],
    });
    expect(diffPoints(start, next)).toEqual([
      { kind: 'gap-added', title: 'Cold-wallet custody unaudited', severity: 'high' },
      { kind: 'gap-added', title: 'Travel-rule messaging not in place', severity: 'medium' },
      { kind: 'gap-resolved', title: 'AML/CFT programme not yet board-approved', severity: 'critical', displaced: false },
    ]);
  });

  it('a gap that left a full top-3 list may only have been displaced, and says so', () => {
    const full = before.gaps;
    expect(full).toHaveLength(3);
    const next = after({ gaps: [{ title: 'A new critical gap', severity: 'critical' }, full[0]!, full[1]!] });
    expect(diffPoints(before, next)).toEqual([
      { kind: 'gap-added', title: 'A new critical gap', severity: 'critical' },
      { kind: 'gap-resolved', title: full[2]!.title, severity: full[2]!.severity, displaced: true },
    ]);
  });

  it('a gap whose severity moved is one change, not a removal and an addition', () => {
    const [first, second, third] = before.gaps;
    const next = after({ gaps: [first!, { ...second!, severity: 'critical' }, third!] });
    expect(diffPoints(before, next)).toEqual([{ kind: 'gap-severity', title: second!.title, from: 'high', to: 'critical' }]);
  });

  it('a new DD pack (hash or generation time changed)', () => {
    expect(kinds(diffPoints(before, after({ packHash: 'ffff0000' })))).toEqual(['new-pack']);
    expect(diffPoints(before, after({ packGeneratedAt: '2026-11-30T10:00:00.000Z' }))).toEqual([
      { kind: 'new-pack', hash: before.packHash, generatedAt: '2026-11-30T10:00:00.000Z' },
    ]);
  });

  it('the link expiring within 48 hours: said once, when it enters the window', () => {
    const expiresAt = new Date(FIXTURE_NOW + 7 * DAY).toISOString();
    const far = buildPoint({ at: FIXTURE_NOW, expiresAt });
    const near = buildPoint({ at: FIXTURE_NOW + 5.5 * DAY, expiresAt });
    const nearer = buildPoint({ at: FIXTURE_NOW + 6.5 * DAY, expiresAt });
    expect(diffPoints(far, near)).toEqual([{ kind: 'expiring', expiresAt }]);
    expect(diffPoints(near, nearer)).toEqual([]);
    // Exactly at the edge of the window counts; past the expiry it is not "expiring" any more.
    expect(kinds(diffPoints(far, buildPoint({ at: Date.parse(expiresAt) - EXPIRY_WARNING_MS, expiresAt })))).toEqual([
      'expiring',
    ]);
    expect(diffPoints(far, buildPoint({ at: Date.parse(expiresAt) + 1, expiresAt }))).toEqual([]);
  });

  it('checklist completion, ARIP stage and product classification', () => {
    expect(diffPoints(before, after({ checklistPct: 70, aripStage: 'aip_active', productClassification: 'HYBRID' }))).toEqual([
      { kind: 'checklist', from: 64, to: 70 },
      { kind: 'arip', from: 'formal_application', to: 'aip_active' },
      { kind: 'classification', from: 'DAX', to: 'HYBRID' },
    ]);
  });

  it('the link revoked or expired ends the watch', () => {
    expect(endChange('NOT_FOUND')).toEqual({ kind: 'ended', code: 'NOT_FOUND' });
    expect(endChange('EXPIRED')).toEqual({ kind: 'ended', code: 'EXPIRED' });
  });
});

describe('isNotable: what is worth a notification', () => {
  const notable: [string, WatchChange][] = [
    ['label', { kind: 'label', from: 'In Progress', to: 'Good Standing' }],
    ['band', { kind: 'band', from: 'medium', to: 'high' }],
    ['readiness +5', { kind: 'readiness', from: 60, to: 65, delta: 5 }],
    ['readiness −7', { kind: 'readiness', from: 60, to: 53, delta: -7 }],
    ['fundraise +5', { kind: 'fundraise', from: 60, to: 65, delta: 5 }],
    ['critical gap added', { kind: 'gap-added', title: 'x', severity: 'critical' }],
    ['high gap resolved', { kind: 'gap-resolved', title: 'x', severity: 'high', displaced: false }],
    ['gap became high', { kind: 'gap-severity', title: 'x', from: 'medium', to: 'high' }],
    ['new pack', { kind: 'new-pack', hash: 'a', generatedAt: null }],
    ['expiring', { kind: 'expiring', expiresAt: '2026-11-29T08:00:00.000Z' }],
    ['ended', { kind: 'ended', code: 'NOT_FOUND' }],
  ];
  const quiet: [string, WatchChange][] = [
    ['readiness +4', { kind: 'readiness', from: 60, to: 64, delta: 4 }],
    ['medium gap added', { kind: 'gap-added', title: 'x', severity: 'medium' }],
    ['critical gap displaced', { kind: 'gap-resolved', title: 'x', severity: 'critical', displaced: true }],
    ['gap became medium', { kind: 'gap-severity', title: 'x', from: 'high', to: 'medium' }],
    ['checklist', { kind: 'checklist', from: 60, to: 70 }],
    ['arip', { kind: 'arip', from: null, to: 'aip_active' }],
    ['classification', { kind: 'classification', from: 'DAX', to: 'DAC' }],
  ];
  it.each(notable)('%s is notable', (_name, change) => expect(isNotable(change)).toBe(true));
  it.each(quiet)('%s is not', (_name, change) => expect(isNotable(change)).toBe(false));
});

describe('deltas', () => {
  it('formats with a plus, a real minus sign, or 0', () => {
    expect([formatDelta(6), formatDelta(-3), formatDelta(0)]).toEqual(['+6', '\u22123', '0']);
  });

  it('since the previous refresh: null until there are two points', () => {
    expect(changeSincePrevious(null, before)).toBeNull();
    expect(changeSincePrevious(before, after({ readinessScore: 62 }))).toBe(-6);
  });

  it('since a week before: against the newest sample at least a week older; null before a week of history', () => {
    const series = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((day) => ({ at: FIXTURE_NOW + day * DAY, score: 60 + day }));
    expect(changeSinceWeekBefore(series)).toBe(7);
    expect(changeSinceWeekBefore(series.slice(0, 7))).toBeNull();
    expect(changeSinceWeekBefore([])).toBeNull();
  });
});
