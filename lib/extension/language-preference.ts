import { z } from 'zod';
import { storage } from 'wxt/utils/storage';
import {
  DEFAULT_LANGUAGE_PREFERENCE,
  LANGUAGE_ITEM_KEY,
  LANGUAGE_PREFERENCES,
  type LanguagePreference,
} from '../core/i18n/language';

/** The language the user chose in the options page (`auto` follows the browser). */
export const LANGUAGE_STORAGE_KEY = `local:${LANGUAGE_ITEM_KEY}` as const;

export const languagePreferenceSchema = z.enum(LANGUAGE_PREFERENCES).catch(DEFAULT_LANGUAGE_PREFERENCE);

export const languagePreferenceItem = storage.defineItem<unknown>(LANGUAGE_STORAGE_KEY, {
  fallback: DEFAULT_LANGUAGE_PREFERENCE,
});

/** Never throws: anything unexpected in storage reads as `auto`. */
export async function getLanguagePreference(): Promise<LanguagePreference> {
  return languagePreferenceSchema.parse(await languagePreferenceItem.getValue());
}

export async function setLanguagePreference(preference: LanguagePreference): Promise<void> {
  await languagePreferenceItem.setValue(z.enum(LANGUAGE_PREFERENCES).parse(preference));
}

export function watchLanguagePreference(onChange: (preference: LanguagePreference) => void): () => void {
  return languagePreferenceItem.watch((value) => onChange(languagePreferenceSchema.parse(value)));
}
