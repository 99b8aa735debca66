import { describe, expect, it } from 'vitest';
import { appTranslator, createTranslator, translate } from '@/lib/core/i18n';
import { badgeCatalogs } from '@/lib/core/i18n/badge';
import { localeFor, resolveLanguage } from '@/lib/core/i18n/language';

const normalizeSpaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('translate', () => {
  it('interpolates {name} placeholders', () => {
    expect(translate('en', 'services.added', { name: 'Comply' })).toBe('Added Comply.');
    expect(translate('fr', 'services.added', { name: 'Comply' })).toBe('Comply ajouté.');
  });

  it('formats numbers for the locale', () => {
    expect(appTranslator('en', 'en-GB').t('snapshot.fundraiseScore', { score: 1200 })).toBe('Fundraise score 1,200/100');
    expect(normalizeSpaces(appTranslator('fr', 'fr-FR').t('snapshot.fundraiseScore', { score: 1200 }))).toBe(
      'Score de levée de fonds 1 200/100',
    );
  });

  it.each([
    ['en', 0, 'Cleared 0 cached entries.'],
    ['en', 1, 'Cleared 1 cached entry.'],
    ['en', 2, 'Cleared 2 cached entries.'],
    // French counts 0 and 1 as singular.
    ['fr', 0, '0 entrée supprimée du cache.'],
    ['fr', 1, '1 entrée supprimée du cache.'],
    ['fr', 2, '2 entrées supprimées du cache.'],
  ] as const)('plural %s %i', (language, count, text) => {
    expect(translate(language, 'cache.cleared', { count })).toBe(text);
  });

  it('falls back to `other` for plural categories a catalog lacks (French "many")', () => {
    expect(normalizeSpaces(translate('fr', 'cache.cleared', { count: 1_000_000 }))).toBe(
      '1 000 000 entrées supprimées du cache.',
    );
  });

  it('never throws: a missing French string shows English, an unknown key shows itself', () => {
    const catalogs = { en: { hello: 'Hello {name}', only: 'English only' }, fr: { hello: 'Bonjour {name}', only: '' } };
    const { t } = createTranslator({ en: catalogs.en, fr: { hello: 'Bonjour {name}' } as typeof catalogs.fr }, 'fr');
    expect(t('hello', { name: 'Awa' })).toBe('Bonjour Awa');
    expect(t('only')).toBe('English only');
  });

  it('leaves a placeholder without a param as written', () => {
    const { t } = createTranslator({ en: { path: 'Must contain {token}' }, fr: { path: 'Doit contenir {token}' } }, 'en');
    expect(t('path', { token: '{token}' })).toBe('Must contain {token}');
  });

  it('the badge slice works alone', () => {
    const { t } = createTranslator(badgeCatalogs, 'fr');
    expect(t('badge.error.expiredOn.label', { date: '20 novembre 2026', hint: t('badge.hint') })).toBe(
      'Instantané de conformité indisponible : ce lien de partage a expiré le 20 novembre 2026. Appuyez sur Entrée pour les détails.',
    );
  });

  it('is typed: unknown keys and missing params fail typecheck', () => {
    const { t } = appTranslator('en');
    // @ts-expect-error not a key
    expect(t('no.such.key')).toBe('no.such.key');
    // @ts-expect-error `name` is required
    expect(t('services.added')).toBe('Added {name}.');
    // @ts-expect-error plurals need `count`
    expect(t('cache.cleared', { name: 'x' })).toContain('Cleared');
    expect(t('options.title')).toBe('Compliance Lens settings');
  });
});

describe('language and locale', () => {
  it.each([
    ['auto', 'fr-SN', 'fr'],
    ['auto', 'fr', 'fr'],
    ['auto', 'FR_ci', 'fr'],
    ['auto', 'en-NG', 'en'],
    ['auto', 'pt-BR', 'en'],
    ['auto', undefined, 'en'],
    ['en', 'fr-CM', 'en'],
    ['fr', 'en-US', 'fr'],
  ] as const)('%s with browser %s → %s', (preference, ui, language) => {
    expect(resolveLanguage(preference, ui)).toBe(language);
  });

  it('keeps the browser’s regional locale when it matches the language', () => {
    expect(localeFor('fr', 'fr-SN')).toBe('fr-SN');
    expect(localeFor('fr', 'en-US')).toBe('fr-FR');
    expect(localeFor('en', 'en-NG')).toBe('en-NG');
    expect(localeFor('en', 'fr-CI')).toBe('en-GB');
    expect(localeFor('en', 'en-!!')).toBe('en-GB');
  });
});
