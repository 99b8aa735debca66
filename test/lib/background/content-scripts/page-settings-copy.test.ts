import { describe, expect, it } from 'vitest';
import { contentSettingsOf, createPageSettingsCopy, type CopyArea } from '@/lib/background/content-scripts/page-settings-copy';
import { LOCAL_SERVICES } from '@/lib/core/services';
import { PAGE_SETTINGS_COPY_KEY } from '@/lib/core/storage-keys';
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

describe('the content scripts’ copy of the settings', () => {
  it('holds what the message answers: each alias spelled out as a service of its own, nothing else of a service', async () => {
    const area = memoryArea();
    await createPageSettingsCopy(() => Promise.resolve(settings), area).refresh();
    const copy = area.items[PAGE_SETTINGS_COPY_KEY];
    expect(copy).toEqual(contentSettingsOf(settings));
    expect(contentSettingsOf(settings).services.map((service) => service.origin)).toEqual([
      'http://localhost:8787',
      'http://127.0.0.1:8787',
    ]);
  });

  it('is written again only when it changes', async () => {
    const area = memoryArea();
    const copy = createPageSettingsCopy(() => Promise.resolve(settings), area);
    await copy.refresh();
    await copy.refresh();
    expect(area.writes).toBe(1);
  });
});
