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

/** The badge's words and stylesheet in a copy or an answer of `getPageSettings` (null: none, or malformed). */
export const copiedBadgeText = (copy: unknown): BadgeText | null => toBadgeText(Reflect.get(Object(copy), 'text'));

/** What an annotator starts from, checked: the settings, and the badge's words (null: none came). */
export interface PageStart {
  settings: ContentSettings;
  text: BadgeText | null;
}

function toPageStart(value: unknown): PageStart | null {
  const settings = toContentSettings(value);
  return settings && { settings, text: copiedBadgeText(value) };
}

/**
 * What an annotator starts from (`getPageSettings`: the settings and the badge's words): the
 * background's copy in storage.local, in one read and without a message (the worker may sleep), else
 * asked for; with `waitForPolicy`, asked for once the administrator policy is read (seconds just after
 * browser start).
 */
export async function fetchPageStart(options: { waitForPolicy?: boolean } = {}): Promise<PageStart> {
  if (!options.waitForPolicy) {
    try {
      const copy = toPageStart((await extensionApi().storage.local.get(PAGE_SETTINGS_COPY_KEY))[PAGE_SETTINGS_COPY_KEY]);
      // A copy an older version wrote (no words) is not one: asked for, the answer has them.
      if (copy?.text) return copy;
    } catch {
      // Unreadable: asked for.
    }
  }
  const answer = toPageStart(
    await messenger.send('getPageSettings', options.waitForPolicy ? { waitForPolicy: true } : undefined),
  );
  if (!answer) throw unexpectedAnswer('getPageSettings');
  return answer;
}

/** Has the background load the card presenter into this frame (lib/content/card-presenter), once per frame. */
export const loadCardPresenter = (): Promise<unknown> => messenger.send('loadCardPresenter');
