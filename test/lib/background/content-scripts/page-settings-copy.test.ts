import { describe, expect, it } from 'vitest';
import { contentSettingsOf, createPageSettingsCopy, type CopyArea } from '@/lib/background/content-scripts/page-settings-copy';
import { LOCAL_SERVICES } from '@/lib/core/services';
import { PAGE_SETTINGS_COPY_KEY } from '@/lib/core/storage-keys';
import { badgeTextFor } from '@/lib/core/i18n/badge';
import { copiedBadgeText } from '@/lib/content/annotator/client';
import { toContentSettings } from '@/lib/protocol/guarded/content-answers';
import { DEFAULT_USER_SETTINGS, mergeSettings, type PageSettings } from '@/lib/core/schemas/settings';

const settings: PageSettings = {
  ...mergeSettings(DEFAULT_USER_SETTINGS, {}),
  services: LOCAL_SERVICES.map((service) => ({ ...service, source: 'user', locked: false })),
  settled: true,
};

function memoryArea(): CopyArea & { items: Record<string, unknown>; writes: number } {
  const area = {
    items: {} as Record<string, unknown>,
    writes: 0,
    get: (key: string) => Promise.resolve(key in area.items ? { [key]: area.items[key] } : {}),
    set: (items: Record<string, unknown>) => {
      area.writes += 1;
      Object.assign(area.items, items);
      return Promise.resolve();
    },
  };
  return area;
}

const frenchText = () => Promise.resolve(badgeTextFor('fr', 'en-GB'));

describe('the content scripts’ copy of the settings', () => {
  it('holds what the messages answer: the settings, each alias spelled out as a service of its own, and the badge words', async () => {
    const area = memoryArea();
    await createPageSettingsCopy({ getPageSettings: () => Promise.resolve(settings), getBadgeText: frenchText }, area).refresh();
    const copy = area.items[PAGE_SETTINGS_COPY_KEY];
    const french = badgeTextFor('fr', 'en-GB');
    expect(copy).toEqual(contentSettingsOf(settings, french));
    // What the annotator reads of it, with its own guards.
    expect(toContentSettings(copy)?.services).toEqual(contentSettingsOf(settings, french).services);
    expect(copiedBadgeText(copy)?.locale).toBe('fr-FR');
    expect(copiedBadgeText(copy)?.style).toBe(french.style);
    expect(contentSettingsOf(settings, french).services.map((service) => service.origin)).toEqual([
      'http://localhost:8787',
      'http://127.0.0.1:8787',
    ]);
  });

  it('is written again only when it changes', async () => {
    const area = memoryArea();
    const copy = createPageSettingsCopy({ getPageSettings: () => Promise.resolve(settings), getBadgeText: frenchText }, area);
    await copy.refresh();
    await copy.refresh();
    expect(area.writes).toBe(1);
  });

  it('is written again when the words change (another language chosen)', async () => {
    const area = memoryArea();
    let language: 'en' | 'fr' = 'en';
    const copy = createPageSettingsCopy(
      { getPageSettings: () => Promise.resolve(settings), getBadgeText: () => Promise.resolve(badgeTextFor(language, 'en-GB')) },
      area,
    );
    await copy.refresh();
    language = 'fr';
    await copy.refresh();
    expect(area.writes).toBe(2);
    expect(copiedBadgeText(area.items[PAGE_SETTINGS_COPY_KEY])?.locale).toBe('fr-FR');
  });
});
