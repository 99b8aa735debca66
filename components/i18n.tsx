import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { appTranslator, type AppTranslator } from '@/lib/core/i18n';
import { localeFor, resolveLanguage, type Language, type LanguagePreference } from '@/lib/core/i18n/language';
import { getLanguagePreference, watchLanguagePreference } from '@/lib/extension/language-preference';
import { browserUiLanguage, CardI18nContext } from './card-i18n';

export { browserUiLanguage, CardI18nProvider, useCardI18n } from './card-i18n';

/** English until a provider says otherwise, so components work without one. */
const I18nContext = createContext<AppTranslator>(appTranslator('en'));

/** `{ t, locale, language }` for the nearest provider. */
export function useI18n(): AppTranslator {
  return useContext(I18nContext);
}

export interface I18nProviderProps {
  language: Language;
  /** Formatting locale; defaults to the browser's when it matches `language`. */
  locale?: string;
  children: ReactNode;
}

export function I18nProvider({ language, locale, children }: I18nProviderProps) {
  const translator = appTranslator(language, locale ?? localeFor(language, browserUiLanguage()));
  return (
    <I18nContext.Provider value={translator}>
      <CardI18nContext.Provider value={translator}>{children}</CardI18nContext.Provider>
    </I18nContext.Provider>
  );
}

/** The stored preference, kept current when it changes anywhere (e.g. in the options page). */
export function useLanguagePreference(): LanguagePreference | undefined {
  const [preference, setPreference] = useState<LanguagePreference>();
  useEffect(() => {
    let active = true;
    void getLanguagePreference().then((value) => {
      if (active) setPreference(value);
    });
    const unwatch = watchLanguagePreference(setPreference);
    return () => {
      active = false;
      unwatch();
    };
  }, []);
  return preference;
}

/**
 * Follows the user's language preference from storage. Renders nothing until it is read (a few ms),
 * so the page does not flash in the wrong language.
 */
export function StoredLanguageProvider({ children }: { children: ReactNode }) {
  const preference = useLanguagePreference();
  const language = useMemo(
    () => (preference === undefined ? undefined : resolveLanguage(preference, browserUiLanguage())),
    [preference],
  );
  if (language === undefined) return null;
  return <I18nProvider language={language}>{children}</I18nProvider>;
}
