import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { en, fr } from '@/lib/core/i18n';
import { badgeCatalogs } from '@/lib/core/i18n/badge';
import { cardCatalogs } from '@/lib/core/i18n/card';
import { badgeEn } from '@/lib/core/i18n/en/badge';
import { optionsEn } from '@/lib/core/i18n/en/options';
import { popupEn } from '@/lib/core/i18n/en/popup';
import { snapshotEn } from '@/lib/core/i18n/en/snapshot';
import { watchlistEn } from '@/lib/core/i18n/en/watchlist';
import { vocabularyEn } from '@/lib/core/i18n/en/vocabulary';

const manifestMessagesSchema = z.record(z.string(), z.object({ message: z.string() }).loose());

/** Keys whose French text is rightly the same as the English: names, codes, units, language names. */
const SAME_IN_BOTH = new Set<string>([
  'snapshot.card.brand', // the product's name
  'hoverDelay.option', // "{ms} ms"
  'cacheTtl.minutes#one', // "minute" is French too
  'cacheTtl.minutes#other',
  'language.en', // each language is named in itself
  'language.fr',
  'watchlist.csv.service', // "Service" is French too
  'watchlist.csv.signature', // "Signature" is French too
  'panel.csv.signature',
]);

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
/** Only placeholders, digits and punctuation: nothing to translate. */
const hasWords = (text: string) => /\p{L}/u.test(text.replace(/\{\w+\}/g, ''));

describe('catalogs', () => {
  const enKeys = Object.keys(en).sort();
  const frKeys = Object.keys(fr).sort();

  it('French has exactly the English keys', () => {
    expect(frKeys).toEqual(enKeys);
  });

  it('slices do not collide and each key belongs to its slice', () => {
    const slices = {
      badge: badgeEn,
      vocabulary: vocabularyEn,
      snapshot: snapshotEn,
      options: optionsEn,
      popup: popupEn,
      watchlist: watchlistEn,
    };
    expect(Object.values(slices).reduce((sum, slice) => sum + Object.keys(slice).length, 0)).toBe(enKeys.length);
    expect(Object.keys(badgeEn).every((key) => key.startsWith('badge.'))).toBe(true);
    // The snapshot slice holds the card's watch control too: the card page loads this slice alone.
    expect(
      Object.keys(snapshotEn).every((key) => ['snapshot.', 'error.', 'watch.'].some((prefix) => key.startsWith(prefix))),
    ).toBe(true);
    expect(Object.keys(watchlistEn).every((key) => key.startsWith('watch.') || key.startsWith('watchlist.'))).toBe(true);
    expect(Object.keys(vocabularyEn).every((key) => key.startsWith('vocab.') || key.startsWith('snapshot.'))).toBe(true);
    expect(Object.keys(badgeCatalogs.fr).sort()).toEqual(Object.keys(badgeEn).sort());
    expect(Object.keys(cardCatalogs.fr).sort()).toEqual(Object.keys(cardCatalogs.en).sort());
    expect(Object.keys(cardCatalogs.en).every((key) => enKeys.includes(key))).toBe(true);
  });

  // "each key": the test summary counts these apart, as bookkeeping (scripts/summarize-tests.mjs).
  describe('each key', () => {
    it.each(enKeys)('%s: French is non-empty and uses the same placeholders', (key) => {
      const english = en[key as keyof typeof en];
      const french = fr[key as keyof typeof fr];
      expect(french.trim()).not.toBe('');
      expect(placeholders(french)).toEqual(placeholders(english));
    });
  });

  it('no French string is the English one, except names, codes and units on the allowlist', () => {
    const untranslated = enKeys.filter((key) => {
      const english = en[key as keyof typeof en];
      return hasWords(english) && fr[key as keyof typeof fr] === english && !SAME_IN_BOTH.has(key);
    });
    expect(untranslated).toEqual([]);
  });

  it('the allowlist holds only keys that exist and really are identical', () => {
    for (const key of SAME_IN_BOTH) {
      expect(en[key as keyof typeof en]).toBeDefined();
      expect(fr[key as keyof typeof fr]).toBe(en[key as keyof typeof en]);
    }
  });

  it('every plural has an `other` form in both languages', () => {
    const bases = new Set(enKeys.filter((key) => key.includes('#')).map((key) => key.split('#')[0]));
    for (const base of bases) {
      expect(enKeys).toContain(`${base}#other`);
      expect(frKeys).toContain(`${base}#other`);
    }
  });

  it('manifest messages exist in both locales', () => {
    const read = (locale: string): Record<string, { message: string }> =>
      manifestMessagesSchema.parse(
        JSON.parse(
          readFileSync(path.resolve(import.meta.dirname, `../../../../public/_locales/${locale}/messages.json`), 'utf8'),
        ),
      );
    const enMessages = read('en');
    const frMessages = read('fr');
    expect(Object.keys(frMessages).sort()).toEqual(Object.keys(enMessages).sort());
    expect(enMessages.extName?.message).toBe('Compliance Lens');
    expect(frMessages.extDescription?.message).not.toBe(enMessages.extDescription?.message);
  });
});
