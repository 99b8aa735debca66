import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDayTime, formatPercent, formatRelative } from '@/lib/core/format';

describe('format', () => {
  const now = Date.parse('2026-11-22T10:00:00.000Z');

  it.each([
    [now + 6 * 24 * 3600_000, 'in 6 days'],
    [now - 3 * 60_000, '3 minutes ago'],
    [now - 3600_000, '1 hour ago'],
    [now, 'now'],
  ])('formatRelative(%s) → %s', (target, text) => {
    expect(formatRelative(target, now, 'en')).toBe(text);
  });

  it('formats absolute times in UTC, in English and French', () => {
    expect(formatDateTime('2026-11-29T09:05:00.000Z', 'en-GB')).toBe('29 Nov 2026, 09:05 UTC');
    expect(formatDateTime('2026-11-29T09:05:00.000Z', 'fr-FR')).toMatch(/^29 nov\. 2026.*09:05 UTC$/);
    expect(formatDate('2026-11-29T23:59:00.000Z', 'en-GB')).toBe('29 Nov 2026');
  });

  it('one date style per language, wherever the reader is and whatever the surface: day first, 24-hour, UTC (issue #27 item 7)', () => {
    const at = '2026-12-01T15:22:00.000Z';
    for (const locale of ['en', 'en-GB', 'en-US', 'en-NG', 'en-KE'])
      expect(formatDateTime(at, locale)).toBe('1 Dec 2026, 15:22 UTC');
    for (const locale of ['fr', 'fr-FR', 'fr-SN', 'fr-CA', 'fr-CI'])
      expect(formatDateTime(at, locale)).toBe(formatDateTime(at, 'fr-FR'));
    expect(formatDateTime(at, 'fr-FR')).toMatch(/^1 déc\. 2026.*15:22 UTC$/);
    expect(formatDayTime(at, 'en-US')).toBe('1 Dec, 15:22');
    expect(formatDate(at, 'en-US')).toBe('1 Dec 2026');
  });

  it('formats percentages by locale', () => {
    expect(formatPercent(77, 'en')).toBe('77%');
    expect(formatPercent(77, 'fr').replace(/\s/g, ' ')).toBe('77 %');
  });
});
