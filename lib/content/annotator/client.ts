import type { ContentProtocolMap, ContentSettings } from '../../protocol/content';
import { toBadgeFace, toBadgeText, toBadgeChange, toContentSettings } from '../../protocol/guarded/content-answers';
import { PAGE_SETTINGS_COPY_KEY } from '../../core/storage-keys';
import { contentMessenger, extensionApi } from '../shared/messaging';
import type { BadgeText } from './badge-view';
import type { BadgeSnapshotClient } from './types';

/**
 * The annotator's side of lib/protocol/content.ts. The background answers it with badge summaries
 * only (score, label, band, or the error's code and times); they are checked here, where they enter
 * this process, with the guards of lib/protocol/guarded (zod would not fit the 15 KB budget).
 */

const messenger = contentMessenger<ContentProtocolMap>();

export const messagingSnapshotClient: BadgeSnapshotClient = {
  async peekMany(requests) {
    const answers: unknown = await messenger.send('peekBadges', requests);
    if (!Array.isArray(answers) || answers.length !== requests.length) return requests.map(() => null);
    return answers.map((answer: unknown) => (answer === null ? null : toBadgeFace(answer)));
  },
  listenChanges(onChange, signal) {
    const stop = messenger.answer('badgeChanged', (data) => {
      const change = toBadgeChange(data);
      if (change) onChange(change.key, change.badge);
      return { ok: true };
    });
    signal.addEventListener('abort', stop, { once: true });
  },
};

export type { ContentSettings };

const unexpectedAnswer = (message: string) => new Error(`${message}: unexpected answer`);

/** The settings the background keeps for content scripts in storage.local (null: none yet, or malformed). */
export async function readSettingsCopy(): Promise<ContentSettings | null> {
  try {
    return toContentSettings((await extensionApi().storage.local.get(PAGE_SETTINGS_COPY_KEY))[PAGE_SETTINGS_COPY_KEY]);
  } catch {
    return null;
  }
}

/**
 * The settings the content script needs (services to recognise, hover delay). At once by default:
 * from the background's copy in storage.local (a few milliseconds, the worker may sleep), else from
 * the background; with `waitForPolicy`, once the background has read the administrator policy
 * (seconds just after browser start).
 */
export async function fetchContentSettings(options: { waitForPolicy?: boolean } = {}): Promise<ContentSettings> {
  const copy = options.waitForPolicy ? null : await readSettingsCopy();
  if (copy) return copy;
  const settings = toContentSettings(
    await messenger.send('getPageSettings', options.waitForPolicy ? { waitForPolicy: true } : undefined),
  );
  if (!settings) throw unexpectedAnswer('getPageSettings');
  return settings;
}

/** The badge strings of the language the reader chose in the options (or the browser's). */
export async function fetchBadgeText(): Promise<BadgeText> {
  const text = toBadgeText(await messenger.send('getBadgeText'));
  if (!text) throw unexpectedAnswer('getBadgeText');
  return text;
}

/** Has the background load the card presenter into this frame (lib/content/card-presenter), once per frame. */
export const loadCardPresenter = (): Promise<unknown> => messenger.send('loadCardPresenter');
