/**
 * `storage.local` keys that content scripts watch. Zod-free and dependency-free: the content script
 * imports this module and must stay within its size budget.
 */

/** The user's settings (lib/extension/settings.ts `defineSettingsItem`). */
export const USER_SETTINGS_KEY = 'settings';

/** The last administrator policy read (lib/extension/settings.ts `createManagedPolicyReader`). */
export const LAST_POLICY_STORAGE_KEY = 'lastManagedPolicy';

/** Whether a `storage.onChanged` event may change what a content script recognises (services, hover delay). */
export function changesPageSettings(changes: object, area: string): boolean {
  return area === 'local' && (USER_SETTINGS_KEY in changes || LAST_POLICY_STORAGE_KEY in changes);
}
