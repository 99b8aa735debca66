import type { CardAnchor, ContentProtocolMap, ContentSettings, FrameRect } from '../../protocol/content';
import type { ActivationSource, CardEventKind } from '../../protocol/guarded/card';
import {
  toBadgeFace,
  toBadgeText,
  toBadgeChange,
  toCardEvent,
  toCloseCard,
  toContentSettings,
  toOpenCardAnswer,
} from '../../protocol/guarded/content-answers';
import { contentMessenger } from '../shared/messaging';
import type { BadgeResult, BadgeText } from './badge-view';
import type { BadgeSnapshotClient, SnapshotRequest } from './types';

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

/**
 * The settings the content script needs (services to recognise, hover delay). At once by default;
 * with `waitForPolicy`, once the background has read the administrator policy (seconds just after
 * browser start).
 */
export async function fetchContentSettings(options: { waitForPolicy?: boolean } = {}): Promise<ContentSettings> {
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
  return withUsableLocale(text);
}

/** The strings with their locale, or English's if Intl refuses it (it would break every date on the badges). */
export function withUsableLocale(text: BadgeText): BadgeText {
  try {
    // Checked without building a formatter: a page's first `new Intl.DateTimeFormat` loads locale data (22-50 ms measured here).
    Intl.getCanonicalLocales(text.locale);
    return text;
  } catch {
    return { ...text, locale: 'en' };
  }
}

/** What the card asks the background for (lib/background/cards/card-routes.ts owns the card's life). */
export interface CardClient {
  /**
   * Opens this tab's card for `request` next to `anchor` (the card page named `nonce` claims it);
   * answers, once the snapshot is known, whether the card is drawn and what the badge shows (null: nothing).
   */
  open(
    card: SnapshotRequest & { nonce: string; intent: ActivationSource; seen: boolean; anchor: CardAnchor },
  ): Promise<{ shown: boolean; badge: BadgeResult | null }>;
  /** The card's badge moved to `rect`. */
  move(nonce: string, rect: FrameRect): Promise<unknown>;
  close(nonce: string): Promise<unknown>;
  /** Has the top frame load a card page ahead (nothing is fetched). */
  warm(): Promise<unknown>;
  /**
   * Calls `onClose` when the background closes a card of this frame (another frame's card replaced
   * it) and `onEvent` with what the card did, until `signal` aborts.
   */
  listen(
    handlers: {
      onClose(nonce: string): void;
      onEvent(nonce: string, event: CardEventKind): void;
    },
    signal: AbortSignal,
  ): void;
}

export const cardClient: CardClient = {
  open: async (card) => toOpenCardAnswer(await messenger.send('openCard', card)),
  move: (nonce, rect) => messenger.send('moveCard', { nonce, rect }),
  close: (nonce) => messenger.send('closeCard', { nonce }),
  warm: () => messenger.send('warmCard'),
  listen(handlers, signal) {
    const stops = [
      messenger.answer('closeCard', (data) => {
        const nonce = toCloseCard(data);
        if (nonce) handlers.onClose(nonce);
        return { ok: true };
      }),
      messenger.answer('cardEvent', (data) => {
        const event = toCardEvent(data);
        if (event) handlers.onEvent(event.nonce, event.event);
        return { ok: true };
      }),
    ];
    signal.addEventListener('abort', () => stops.forEach((stop) => stop()), { once: true });
  },
};
