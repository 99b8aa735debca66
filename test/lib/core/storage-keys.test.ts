import { describe, expect, it } from 'vitest';
import { LANGUAGE_ITEM_KEY } from '@/lib/core/i18n/language';
import { changesPageSettings, LAST_POLICY_STORAGE_KEY, PAGE_SETTINGS_COPY_KEY, USER_SETTINGS_KEY } from '@/lib/core/storage-keys';

describe('changesPageSettings', () => {
  it('is true for the user settings, the last policy or the language (the copy holds the badge words) changing in storage.local', () => {
    expect(changesPageSettings({ [USER_SETTINGS_KEY]: {} }, 'local')).toBe(true);
    expect(changesPageSettings({ [LAST_POLICY_STORAGE_KEY]: {} }, 'local')).toBe(true);
    expect(changesPageSettings({ [LANGUAGE_ITEM_KEY]: {} }, 'local')).toBe(true);
  });

  it('is false for other keys (the copy itself among them) or other areas', () => {
    expect(changesPageSettings({ [PAGE_SETTINGS_COPY_KEY]: {} }, 'local')).toBe(false);
    expect(changesPageSettings({ theme: {} }, 'local')).toBe(false);
    expect(changesPageSettings({ [USER_SETTINGS_KEY]: {} }, 'session')).toBe(false);
    expect(changesPageSettings({ [USER_SETTINGS_KEY]: {} }, 'sync')).toBe(false);
  });
});
