import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { badgeTextFor } from '@/lib/core/i18n/badge';

describe('the badge strings the background sends the annotator', () => {
  it('always carry a locale Intl accepts, whatever the browser says its language is (the annotator formats with it as it is)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('en', 'fr', 'auto'),
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        (preference, ui) => {
          const { locale } = badgeTextFor(preference, ui);
          expect(() => new Intl.NumberFormat(locale)).not.toThrow();
          expect(Intl.getCanonicalLocales(locale)).toEqual([locale]);
        },
      ),
    );
    expect(badgeTextFor('fr', 'fr-SN').locale).toBe('fr-SN');
  });
});
