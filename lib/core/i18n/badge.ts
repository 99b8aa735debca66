import { badgeStylesheet } from '../badge-look';
import { badgeEn } from './en/badge';
import { badgeFr } from './fr/badge';
import { localeFor, resolveLanguage, type LanguagePreference } from './language';
import type { Catalogs } from './translator';

/**
 * The badge slice alone, for the content script:
 * `createTranslator(badgeCatalogs, language, locale).t('badge.idle.label')`.
 */
export const badgeCatalogs: Catalogs<typeof badgeEn> = { en: badgeEn, fr: badgeFr };

/** The badge's stylesheet, the same in every language (built once). */
const BADGE_STYLESHEET = badgeStylesheet();

/**
 * The badge strings and formatting locale for a language preference, with the badge's stylesheet
 * (the background sends them with the settings, in `getPageSettings` and its copy: the content script
 * carries neither catalog nor palette).
 */
export function badgeTextFor(
  preference: LanguagePreference,
  uiLanguage: string | undefined,
): { locale: string; strings: Readonly<Record<string, string>>; style: string } {
  const language = resolveLanguage(preference, uiLanguage);
  return { locale: localeFor(language, uiLanguage), strings: badgeCatalogs[language], style: BADGE_STYLESHEET };
}
