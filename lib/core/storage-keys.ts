/**
 * `storage.local` keys that content scripts watch. Zod-free and dependency-free: the content script
 * imports this module and must stay within its size budget.
 */

import { LANGUAGE_ITEM_KEY } from './i18n/language';

/** The user's settings (lib/extension/settings.ts `defineSettingsItem`). */
export const USER_SETTINGS_KEY = 'settings';

/** The last administrator policy read (lib/extension/settings.ts `createManagedPolicyReader`). */
export const LAST_POLICY_STORAGE_KEY = 'lastManagedPolicy';

/**
 * The content scripts' settings (services to recognise, hover delay) and the badge's words, merged by
 * the background and kept here whenever they change: an annotator starting with the page reads them
 * without a message and without waking the service worker, so its badges take their room before the
 * page is first painted.
 */
export const PAGE_SETTINGS_COPY_KEY = 'pageSettingsCopy';

/** Whether a `storage.onChanged` event changes what the content scripts' copy is made from (the language among them: it words the badges). */
export function changesPageSettings(changes: object, area: string): boolean {
  return area === 'local' && (USER_SETTINGS_KEY in changes || LAST_POLICY_STORAGE_KEY in changes || LANGUAGE_ITEM_KEY in changes);
}
