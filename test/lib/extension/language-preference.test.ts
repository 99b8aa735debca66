import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { getLanguagePreference, setLanguagePreference, watchLanguagePreference } from '@/lib/extension/language-preference';

beforeEach(() => fakeBrowser.reset());

describe('language preference', () => {
  it('is auto until the user chooses', async () => {
    expect(await getLanguagePreference()).toBe('auto');
  });

  it('round-trips a choice', async () => {
    await setLanguagePreference('fr');
    expect(await getLanguagePreference()).toBe('fr');
    expect(await fakeBrowser.storage.local.get('language')).toEqual({ language: 'fr' });
  });

  it('reads anything unexpected as auto', async () => {
    await fakeBrowser.storage.local.set({ language: 'de' });
    expect(await getLanguagePreference()).toBe('auto');
    await fakeBrowser.storage.local.set({ language: 42 });
    expect(await getLanguagePreference()).toBe('auto');
  });

  it('refuses to write an unknown language', async () => {
    // @ts-expect-error not a language preference
    await expect(setLanguagePreference('de')).rejects.toThrow();
  });

  it('tells watchers about changes, parsed', async () => {
    const seen: string[] = [];
    const unwatch = watchLanguagePreference((value) => seen.push(value));
    await setLanguagePreference('en');
    await fakeBrowser.storage.local.set({ language: 'xx' });
    unwatch();
    expect(seen).toEqual(['en', 'auto']);
  });
});
