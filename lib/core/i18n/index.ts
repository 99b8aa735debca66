import { en, type AppCatalog } from './en';
import { fr } from './fr';
import type { Language } from './language';
import {
  createTranslator,
  type Catalogs,
  type MessageKey,
  type MessageParams,
  type ParamArgs,
  type Translator,
} from './translator';

/**
 * i18n for extension pages (options, popup, side panel, card). The content script should import the
 * slices instead (`./badge`, `./translator`, `./language`) to keep its bundle small.
 */

export const appCatalogs: Catalogs<AppCatalog> = { en, fr };
export type AppTranslator = Translator<AppCatalog>;
export type AppKey = MessageKey<AppCatalog>;

const translators = new Map<string, AppTranslator>();

export function appTranslator(language: Language, locale?: string): AppTranslator {
  const cacheKey = `${language}|${locale ?? ''}`;
  let translator = translators.get(cacheKey);
  if (!translator) translators.set(cacheKey, (translator = createTranslator(appCatalogs, language, locale)));
  return translator;
}

/** One-off translation with the whole catalog: `translate('fr', 'cache.cleared', { count: 2 })`. */
export function translate<K extends AppKey>(
  language: Language,
  key: K,
  ...params: ParamArgs<MessageParams<AppCatalog, K>>
): string {
  return appTranslator(language).t(key, ...params);
}

export { en, fr, type AppCatalog };
export * from './language';
export * from './translator';
