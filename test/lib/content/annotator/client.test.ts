import { describe, expect, it } from 'vitest';
import { withUsableLocale } from '@/lib/content/annotator/client';
import { badgeTextFor } from '@/lib/core/i18n/badge';

describe('the badge strings the annotator takes', () => {
  it('keeps the locale Intl accepts, and falls back to English for one it refuses', () => {
    const sent = badgeTextFor('fr', 'fr-SN');
    expect(withUsableLocale(sent)).toEqual(sent);
    expect(withUsableLocale({ locale: 'not a locale!', strings: { 'badge.hint': 'Enter' }, style: '.b{}' })).toEqual({
      locale: 'en',
      strings: { 'badge.hint': 'Enter' },
      style: '.b{}',
    });
  });
});
