import type { PageSettings } from '../../core/schemas/settings';
import { spellOutAliases } from '../../core/services';
import { PAGE_SETTINGS_COPY_KEY } from '../../core/storage-keys';
import type { BadgeTextPayload } from '../../protocol/content';

/** The part of `storage.local` the copy needs (injected: tests pass a fake). */
export interface CopyArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

export interface PageSettingsCopy {
  /** Writes the settings again if they differ from the copy; one write at a time. */
  refresh(): Promise<void>;
}

/**
 * What content scripts get of the settings, by message or from the copy: the services to recognise
 * (a service's aliases spelled out as services of their own: the background makes them one link),
 * the hover delay, whether the policy was read, and the badge's words (`text`).
 */
export function contentSettingsOf({ services, hoverDelayMs, settled }: PageSettings, text: BadgeTextPayload) {
  return {
    services: spellOutAliases(services).map(({ id, name, origin, apiPathTemplate, sharePathTemplates }) => ({
      id,
      name,
      origin,
      apiPathTemplate,
      sharePathTemplates,
    })),
    hoverDelayMs,
    settled,
    text,
  };
}

/** Where the content scripts' settings come from: the merged settings, and the reader's language. */
export interface ContentSettingsSources {
  getPageSettings(): Promise<PageSettings>;
  getBadgeText(): Promise<BadgeTextPayload>;
}

/** What `getPageSettings` answers and the copy holds, read afresh from its sources. */
export async function readContentSettings(sources: ContentSettingsSources) {
  const [settings, text] = await Promise.all([sources.getPageSettings(), sources.getBadgeText()]);
  return contentSettingsOf(settings, text);
}

/**
 * Keeps the content scripts' settings (services to recognise, hover delay, whether the policy was
 * read) and the badge's words and stylesheet in the reader's language (`text`), what `getPageSettings`
 * answers, in `storage.local` under PAGE_SETTINGS_COPY_KEY: an annotator that starts with the page
 * reads them there in one read, without a message and without waking this worker, and takes its
 * badges' room before the page is first painted. Only what recognition and the badge need is copied.
 * The background still checks every request on its own settings (DESIGN decision 3).
 */
export function createPageSettingsCopy(sources: ContentSettingsSources, area: CopyArea): PageSettingsCopy {
  let chain: Promise<void> = Promise.resolve();
  return {
    refresh() {
      chain = chain
        .then(async () => {
          const next = await readContentSettings(sources);
          const current: unknown = (await area.get(PAGE_SETTINGS_COPY_KEY))[PAGE_SETTINGS_COPY_KEY];
          if (JSON.stringify(current) !== JSON.stringify(next)) await area.set({ [PAGE_SETTINGS_COPY_KEY]: next });
        })
        .catch((error: unknown) => console.warn('[Compliance Lens] page settings not copied:', error));
      return chain;
    },
  };
}
