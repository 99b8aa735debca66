import type { BadgeText } from '@/lib/content/annotator/badge-view';
import { badgeStylesheet } from '@/lib/core/badge-look';
import { badgeEn } from '@/lib/core/i18n/en/badge';
import { badgeFr } from '@/lib/core/i18n/fr/badge';

/** What the background sends a content script for English and French readers (`badgeTextFor`). */
export const EN_TEXT: BadgeText = { locale: 'en-GB', strings: badgeEn, style: badgeStylesheet() };
export const FR_TEXT: BadgeText = { locale: 'fr-FR', strings: badgeFr, style: badgeStylesheet() };
