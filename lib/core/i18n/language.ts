/**
 * Languages and locales. Framework-free and zod-free, so the content script can import it cheaply.
 */

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** What the user picks in the options page; `auto` follows the browser's UI language. */
export const LANGUAGE_PREFERENCES = ['auto', ...LANGUAGES] as const;
export type LanguagePreference = (typeof LANGUAGE_PREFERENCES)[number];

export const DEFAULT_LANGUAGE_PREFERENCE: LanguagePreference = 'auto';

/** The storage.local key holding the preference (lib/extension/language-preference.ts; the background words the content scripts' copy again when it changes). */
export const LANGUAGE_ITEM_KEY = 'language';

/** Formatting locale when the browser's own locale is for another language. */
const DEFAULT_LOCALE: Readonly<Record<Language, string>> = { en: 'en-GB', fr: 'fr-FR' };

function primarySubtag(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/** `auto` → French when the browser UI language starts with `fr`, else English. */
export function resolveLanguage(preference: LanguagePreference, uiLanguage: string | undefined): Language {
  if (preference !== 'auto') return preference;
  return uiLanguage !== undefined && primarySubtag(uiLanguage) === 'fr' ? 'fr' : 'en';
}

/**
 * The locale for dates and numbers: the browser's own (e.g. `fr-SN`, `en-NG`) when it is a variant of
 * the chosen language, so regional conventions are kept; otherwise a default for that language.
 */
export function localeFor(language: Language, uiLanguage: string | undefined): string {
  if (uiLanguage !== undefined && primarySubtag(uiLanguage) === language) {
    try {
      const [canonical] = Intl.getCanonicalLocales(uiLanguage.replace('_', '-'));
      if (canonical) return canonical;
    } catch {
      // Not a valid BCP 47 tag: use the default below.
    }
  }
  return DEFAULT_LOCALE[language];
}
