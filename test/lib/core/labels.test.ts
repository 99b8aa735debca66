import { describe, expect, it } from 'vitest';
import { checklistCompletionPct, readinessLabelFor, riskBandFor } from '@/lib/core/labels';

describe('readinessLabelFor', () => {
  it.each([
    [0, 'Critical'],
    [40, 'Critical'],
    [41, 'In Progress'],
    [70, 'In Progress'],
    [71, 'Good Standing'],
    [90, 'Good Standing'],
    [91, 'Regulator Ready'],
    [100, 'Regulator Ready'],
  ])('%i → %s', (score, label) => {
    expect(readinessLabelFor(score)).toBe(label);
  });

  it.each([-1, 101, 50.5, Number.NaN])('rejects %s', (score) => {
    expect(() => readinessLabelFor(score)).toThrow(RangeError);
  });
});

describe('riskBandFor', () => {
  it.each([
    [0, 'high'],
    [39, 'high'],
    [40, 'medium'],
    [64, 'medium'],
    [65, 'low'],
    [84, 'low'],
    [85, 'investor_ready'],
    [100, 'investor_ready'],
  ])('%i → %s', (score, band) => {
    expect(riskBandFor(score)).toBe(band);
  });
});

describe('checklistCompletionPct', () => {
  it.each([
    [0, 0, 0],
    [0, 10, 0],
    [5, 10, 50],
    [199, 200, 99],
    [10, 10, 100],
    [12, 10, 100],
  ])('%i of %i → %i%%', (complete, total, pct) => {
    expect(checklistCompletionPct(complete, total)).toBe(pct);
  });
});
