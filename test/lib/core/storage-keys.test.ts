import { describe, expect, it } from 'vitest';
import { changesPageSettings, LAST_POLICY_STORAGE_KEY, USER_SETTINGS_KEY } from '@/lib/core/storage-keys';

describe('changesPageSettings', () => {
  it('is true for the user settings or the last policy changing in storage.local', () => {
    expect(changesPageSettings({ [USER_SETTINGS_KEY]: {} }, 'local')).toBe(true);
    expect(changesPageSettings({ [LAST_POLICY_STORAGE_KEY]: {} }, 'local')).toBe(true);
  });

  it('is false for other keys or other areas', () => {
    expect(changesPageSettings({ language: {} }, 'local')).toBe(false);
    expect(changesPageSettings({ [USER_SETTINGS_KEY]: {} }, 'session')).toBe(false);
    expect(changesPageSettings({ [USER_SETTINGS_KEY]: {} }, 'sync')).toBe(false);
  });
});
