import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { browser } from 'wxt/browser';
import { cardCatalogs, type CardTranslator } from '@/lib/core/i18n/card';
import { localeFor, type Language } from '@/lib/core/i18n/language';
import { createTranslator } from '@/lib/core/i18n/translator';

/**
 * The translator of the components that show a snapshot (the card, its errors, its figures): over the
 * snapshot slice of the catalog only, so the hover card page loads that slice alone (and nothing that
 * reads extension storage). Every other page's provider (components/i18n.tsx) gives its whole
 * translator here too. English until a provider says otherwise.
 */
export const CardI18nContext = createContext<CardTranslator>(createTranslator(cardCatalogs, 'en'));

export function useCardI18n(): CardTranslator {
  return useContext(CardI18nContext);
}

export function browserUiLanguage(): string | undefined {
  try {
    return browser.i18n.getUILanguage();
  } catch {
    return typeof navigator === 'undefined' ? undefined : navigator.language;
  }
}

/** The hover card page's provider: the snapshot slice in the language the background sent with the card. */
export function CardI18nProvider({ language, children }: { language: Language; children: ReactNode }) {
  const translator = useMemo(
    () => createTranslator(cardCatalogs, language, localeFor(language, browserUiLanguage())),
    [language],
  );
  return <CardI18nContext.Provider value={translator}>{children}</CardI18nContext.Provider>;
}
