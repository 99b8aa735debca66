import type { ContentProtocolMap, ContentSettings, HostedCardEvent } from '../../protocol/content';
import type { ServiceConfig } from '../../core/services';
import {
  isCardNonce,
  isEpochMs,
  isErrorCode,
  isFiniteNumber,
  isHostedCardEvent,
  isReadinessLabel,
  isRecord,
  isRiskBand,
  isScore,
  isString,
  isStringArray,
  isTimestamp,
} from '../../core/guards';
import { HOVER_DELAY_MS, MAX_BADGE_STRING } from '../../core/limits';
import type { BadgeText } from './badge-view';
import type { CardBindingClient } from './card';
import { contentMessenger } from '../shared/messaging';
import type { BadgeResult } from './badge-view';
import type { BadgeSnapshotClient } from './types';

/**
 * The content script's side of lib/protocol/content.ts. The background answers it with badge
 * summaries only (score, label, band, or the error's code and times); they are checked here, where
 * they enter this process, with small hand-written guards (lib/core/guards.ts: zod would not fit
 * the 15 KB budget). Anything malformed becomes INVALID_RESPONSE.
 */

const messenger = contentMessenger<ContentProtocolMap>();

export function toBadgeResult(value: unknown): BadgeResult {
  if (!isRecord(value)) return INVALID;
  if (value.state === 'ready') {
    if (!isScore(value.score) || !isReadinessLabel(value.label) || !isRiskBand(value.band)) return INVALID;
    return { state: 'ready', score: value.score, label: value.label, band: value.band };
  }
  if (value.state === 'error' && isErrorCode(value.code)) {
    if (value.retryAt !== undefined && !isEpochMs(value.retryAt)) return INVALID;
    if (value.expiredAt !== undefined && !isTimestamp(value.expiredAt)) return INVALID;
    return { state: 'error', code: value.code, retryAt: value.retryAt, expiredAt: value.expiredAt };
  }
  return INVALID;
}

const INVALID: BadgeResult = { state: 'error', code: 'INVALID_RESPONSE' };

const unexpectedAnswer = (message: string) => new Error(`${message}: unexpected answer`);

export const messagingSnapshotClient: BadgeSnapshotClient = {
  async peekMany(requests) {
    const answers: unknown = await messenger.send('peekBadges', requests);
    if (!Array.isArray(answers) || answers.length !== requests.length) return requests.map(() => null);
    return answers.map((answer: unknown) => (answer === null ? null : toBadgeResult(answer)));
  },
  async get(request) {
    return toBadgeResult(await messenger.send('getBadge', request));
  },
};

export type { ContentSettings };

function toService(value: unknown): ServiceConfig | null {
  if (!isRecord(value)) return null;
  const { id, name, origin, apiPathTemplate, sharePathTemplates } = value;
  if (!isString(id) || !isString(name) || !isString(origin) || !isString(apiPathTemplate)) return null;
  if (!isStringArray(sharePathTemplates)) return null;
  return { id, name, origin, apiPathTemplate, sharePathTemplates };
}

export function toContentSettings(value: unknown): ContentSettings {
  if (!isRecord(value) || !Array.isArray(value.services) || !isFiniteNumber(value.hoverDelayMs)) {
    throw unexpectedAnswer('getPageSettings');
  }
  // A malformed entry is dropped (the recognizer would never match it anyway).
  const services = value.services.map(toService).filter((service) => service !== null);
  const { min, max } = HOVER_DELAY_MS;
  return { services, hoverDelayMs: Math.min(Math.max(value.hoverDelayMs, min), max), settled: value.settled !== false };
}

/**
 * The settings the content script needs (services to recognise, hover delay). At once by default;
 * with `waitForPolicy`, once the background has read the administrator policy (seconds just after
 * browser start).
 */
export async function fetchContentSettings(options: { waitForPolicy?: boolean } = {}): Promise<ContentSettings> {
  return toContentSettings(await messenger.send('getPageSettings', options.waitForPolicy ? { waitForPolicy: true } : undefined));
}

/** What the background passes on from the card the top frame draws for this frame; null when malformed. */
export function toHostedCardEvent(value: unknown): HostedCardEvent | null {
  return isRecord(value) && isCardNonce(value.nonce) && isHostedCardEvent(value.event)
    ? { nonce: value.nonce, event: value.event }
    : null;
}

/** The card's binding in the background (lib/content/card-frame.ts `CardBindingClient`). */
export const cardBinding: CardBindingClient = {
  open: async (binding) => {
    const answer: unknown = await messenger.send('openCard', binding);
    return { fetch: isRecord(answer) && answer.fetch === true, inTop: isRecord(answer) && answer.inTop === true };
  },
  move: (nonce, rect) => messenger.send('moveCard', { nonce, rect }),
  close: (nonce) => messenger.send('closeCard', { nonce }),
  onReplaced(listener) {
    messenger.answer('cardReplaced', () => listener());
  },
  onHostedEvent(listener) {
    messenger.answer('cardEvent', (data) => {
      const event = toHostedCardEvent(data);
      if (event) listener(event);
    });
  },
};

/** The badge strings the background sent: string values only; anything else is dropped (its key shows). */
export function toBadgeText(value: unknown): BadgeText {
  if (!isRecord(value) || !isString(value.locale) || !isRecord(value.strings)) {
    throw unexpectedAnswer('getBadgeText');
  }
  const strings: Record<string, string> = {};
  for (const [key, text] of Object.entries(value.strings)) {
    if (isString(text) && text.length <= MAX_BADGE_STRING) strings[key] = text;
  }
  let locale = value.locale;
  try {
    // A tag Intl refuses would break every date on the badges. Checked without building a formatter:
    // a page's first `new Intl.DateTimeFormat` loads locale data (22-50 ms measured here).
    Intl.getCanonicalLocales(locale);
  } catch {
    locale = 'en';
  }
  return { locale, strings };
}

/** The badge strings of the language the reader chose in the options (or the browser's). */
export async function fetchBadgeText(): Promise<BadgeText> {
  return toBadgeText(await messenger.send('getBadgeText'));
}
