import { describe, expect, it } from 'vitest';
import { toBadgeResult, toBadgeText, toContentSettings } from '@/lib/content/annotator/client';
import { badgeTextFor } from '@/lib/core/i18n/badge';
import { snapshotResultSchema, toBadgeSummary, type SnapshotResult } from '@/lib/core/schemas/results';
import { buildSnapshot } from '@/test/fixtures/snapshot';

describe('toBadgeResult (content-script check of background answers)', () => {
  it('keeps only score, label and band of a valid ready result', () => {
    const result: SnapshotResult = snapshotResultSchema.parse({
      status: 'ready',
      snapshot: buildSnapshot({ scores: { readiness_score: 76, fundraise_score: 50 } }),
      meta: { token_status: 'active', view_count: 3 },
      fetchedAt: 1,
      fromCache: false,
    });
    // The background reduces the result; the content script checks what arrives.
    const summary = toBadgeSummary(result);
    expect(summary).toEqual({ state: 'ready', score: 76, label: 'Good Standing', band: 'medium' });
    expect(toBadgeResult(summary)).toEqual(summary);
  });

  it('passes error codes and times through', () => {
    expect(toBadgeResult({ state: 'error', code: 'EXPIRED', message: 'x', expiredAt: '2026-11-20T10:00:00.000Z' })).toEqual({
      state: 'error',
      code: 'EXPIRED',
      retryAt: undefined,
      expiredAt: '2026-11-20T10:00:00.000Z',
    });
  });

  it.each([
    ['not an object', 'ready'],
    ['null', null],
    ['unknown state', { state: 'weird' }],
    ['score out of range', { state: 'ready', score: 101, label: 'Critical', band: 'high' }],
    ['unknown label', { state: 'ready', score: 10, label: 'Great', band: 'high' }],
    ['unknown band', { state: 'ready', score: 10, label: 'Critical', band: 'huge' }],
    [
      'a full snapshot instead of a summary',
      {
        state: 'ready',
        snapshot: { scores: { readiness_score: 10, readiness_label: 'Critical', fundraise_risk_band: 'high' } },
      },
    ],
    ['missing code', { state: 'error' }],
    ['bad retryAt', { state: 'error', code: 'RATE_LIMITED', retryAt: 'soon' }],
  ])('turns a malformed answer (%s) into INVALID_RESPONSE', (_name, value) => {
    expect(toBadgeResult(value)).toEqual({ state: 'error', code: 'INVALID_RESPONSE' });
  });

  it('reads the settings it needs and drops malformed services', () => {
    const settings = toContentSettings({
      hoverDelayMs: 400,
      services: [
        { id: 'a', name: 'A', origin: 'https://a.example', apiPathTemplate: '/api/{token}', sharePathTemplates: ['/s/{token}'] },
        { id: 'b', origin: 42 },
      ],
    });
    expect(settings.services.map((service) => service.id)).toEqual(['a']);
    expect(() => toContentSettings({ services: 'x' })).toThrow();
  });

  it('takes the badge strings the background sends, keeping only strings and a locale Intl accepts', () => {
    const sent = badgeTextFor('fr', 'fr-SN');
    expect(toBadgeText(sent)).toEqual({ locale: 'fr-SN', strings: sent.strings });
    const odd = toBadgeText({
      locale: 'not a locale!',
      strings: { 'badge.brand': 'CL', 'badge.hint': 42, long: 'x'.repeat(5000) },
    });
    expect(odd).toEqual({ locale: 'en', strings: { 'badge.brand': 'CL' } });
    expect(() => toBadgeText({ strings: {} })).toThrow();
    expect(() => toBadgeText(null)).toThrow();
  });
});
