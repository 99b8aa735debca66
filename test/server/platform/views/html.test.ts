import { describe, expect, it } from 'vitest';
import { escapeHtml, formatUtc } from '../../../../server/platform/views/html';

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
