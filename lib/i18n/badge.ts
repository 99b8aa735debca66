import { badgeEn } from './en/badge';
import { badgeFr } from './fr/badge';
import type { Catalogs } from './translator';

/**
 * The badge slice alone, for the content script:
 * `createTranslator(badgeCatalogs, language, locale).t('badge.idle.label')`.
 */
export const badgeCatalogs: Catalogs<typeof badgeEn> = { en: badgeEn, fr: badgeFr };
