import { isEpochMs, isErrorCode, isFiniteNumber, isRecord, isString, isStringArray, isTone } from '../../core/guards';
import { HOVER_DELAY_MS, MAX_BADGE_FACE_TEXT, MAX_BADGE_STRING, MAX_BADGE_STYLE } from '../../core/limits';
import type { BadgeFace } from '../../core/badge-face';
import { canonicalKeyOf } from '../../core/links/templates';
import type { ServiceConfig } from '../../core/services';
import type { BadgeTextPayload, CardEvent, ContentSettings, FrameRect, OpenCardAnswer, ShowCard } from '../content';
import { CARD_EVENTS, CARD_NONCE_PATTERN, MAX_CARD_COORDINATE, MAX_FRAME_HOPS, type CardEventKind } from './card';

/**
 * What the background answers and pushes to a content script (lib/protocol/content.ts), checked
 * where it enters that process. Hand-written, not zod: zod/mini alone is ~5 KB gzip of the 15 KB
 * content-script budget (measured). Each guard accepts exactly what its zod schema accepts, as a copy
 * of the fields it keeps (test/lib/protocol/guarded/content-answers.test.ts holds them to the schemas).
 */

/**
 * A badge answer that is not one: "unreadable", worded by the annotator (no label of its own). Its
 * look is badge-look's for INVALID_RESPONSE (test/lib/protocol/guarded/content-answers.test.ts).
 */
export const INVALID_BADGE: BadgeFace = {
  state: 'error',
  code: 'INVALID_RESPONSE',
  text: '!',
  tone: 'orange',
  dashed: false,
  mark: true,
  label: '',
};

export function isCardNonce(value: unknown): value is string {
  return typeof value === 'string' && CARD_NONCE_PATTERN.test(value);
}

export function isCardEventKind(value: unknown): value is CardEventKind {
  return (CARD_EVENTS as readonly unknown[]).includes(value);
}

/** A coordinate or length as `frameRectSchema` has it (CSS pixels, bounded). */
export function isCoordinate(value: unknown, min = -MAX_CARD_COORDINATE): value is number {
  return isFiniteNumber(value) && value >= min && value <= MAX_CARD_COORDINATE;
}

/** What `frameRectSchema` accepts, as a copy of its four coordinates (extra keys dropped); null for anything else. */
export function toFrameRect(value: unknown): FrameRect | null {
  if (!isRecord(value)) return null;
  const { left, top, right, bottom } = value;
  return isCoordinate(left) && isCoordinate(top) && isCoordinate(right) && isCoordinate(bottom)
    ? { left, top, right, bottom }
    : null;
}

/** A badge face (`badgeFaceSchema`); anything malformed reads as INVALID_RESPONSE. */
export function toBadgeFace(value: unknown): BadgeFace {
  if (!isRecord(value)) return INVALID_BADGE;
  const { text, tone, dashed, mark, label } = value;
  const worded =
    isString(text, MAX_BADGE_FACE_TEXT) &&
    isTone(tone) &&
    typeof dashed === 'boolean' &&
    typeof mark === 'boolean' &&
    isString(label, MAX_BADGE_STRING);
  if (!worded) return INVALID_BADGE;
  const look = { text, tone, dashed, mark, label };
  if (value.state === 'ready') return { state: 'ready', ...look };
  const { code, withdrawn, retryAt } = value;
  if (value.state !== 'error' || !isErrorCode(code)) return INVALID_BADGE;
  if ((withdrawn !== undefined && withdrawn !== true) || (retryAt !== undefined && !isEpochMs(retryAt))) return INVALID_BADGE;
  const face: BadgeFace = { state: 'error', code, ...look };
  if (withdrawn) face.withdrawn = true;
  if (retryAt !== undefined) face.retryAt = retryAt;
  return face;
}

/** `openCard`'s answer; a malformed one is a card not drawn. */
export function toOpenCardAnswer(value: unknown): OpenCardAnswer {
  return { shown: isRecord(value) && value.shown === true };
}

function toService(value: unknown): ServiceConfig | null {
  if (!isRecord(value)) return null;
  const { id, name, origin, apiPathTemplate, sharePathTemplates } = value;
  if (!isString(id) || !isString(name) || !isString(origin) || !isString(apiPathTemplate)) return null;
  if (!isStringArray(sharePathTemplates)) return null;
  return { id, name, origin, apiPathTemplate, sharePathTemplates };
}

/** `getPageSettings`' answer: a malformed service is dropped (the recogniser would never match it), the delay clamped. */
export function toContentSettings(value: unknown): ContentSettings | null {
  if (!isRecord(value) || !Array.isArray(value.services) || !isFiniteNumber(value.hoverDelayMs)) return null;
  const services = value.services.map(toService).filter((service) => service !== null);
  const { min, max } = HOVER_DELAY_MS;
  return { services, hoverDelayMs: Math.min(Math.max(value.hoverDelayMs, min), max), settled: value.settled !== false };
}

/** The badge's words (`text` of `getPageSettings` and of the settings copy): string values only (anything else is dropped, and its key shows); null when malformed. */
export function toBadgeText(value: unknown): BadgeTextPayload | null {
  if (!isRecord(value) || !isString(value.locale) || !isRecord(value.strings) || !isString(value.style, MAX_BADGE_STYLE))
    return null;
  const strings: Record<string, string> = {};
  for (const [key, text] of Object.entries(value.strings)) {
    if (isString(text) && text.length <= MAX_BADGE_STRING) strings[key] = text;
  }
  return { locale: value.locale, strings, style: value.style };
}

/** `showCard` (to the top frame), checked. */
export function toShowCard(value: unknown): ShowCard | null {
  if (!isRecord(value)) return null;
  const rect = toFrameRect(value.rect);
  const { key, hops, viewport, focus, at } = value;
  if (!rect || !isCardNonce(value.nonce) || (key !== undefined && !isCardNonce(key))) return null;
  if (typeof hops !== 'number' || !Number.isInteger(hops) || hops < 0 || hops > MAX_FRAME_HOPS) return null;
  if (typeof focus !== 'boolean' || !isRecord(viewport) || !isRecord(at)) return null;
  const { width, height } = viewport;
  const { x, y } = at;
  if (!isCoordinate(width, 0) || !isCoordinate(height, 0) || !isCoordinate(x) || !isCoordinate(y)) return null;
  return {
    nonce: value.nonce,
    ...(key === undefined ? {} : { key }),
    hops,
    rect,
    viewport: { width, height },
    at: { x, y },
    focus,
  };
}

/** `moveCard` (to the top frame), checked. */
export function toMoveCard(value: unknown): { nonce: string; rect: FrameRect } | null {
  if (!isRecord(value) || !isCardNonce(value.nonce)) return null;
  const rect = toFrameRect(value.rect);
  return rect && { nonce: value.nonce, rect };
}

/** `closeCard` (to any frame): the nonce of the card to close, or null. */
export function toCloseCard(value: unknown): string | null {
  return isRecord(value) && isCardNonce(value.nonce) ? value.nonce : null;
}

/** `cardEvent` (to the frame whose card the top frame draws), checked. */
export function toCardEvent(value: unknown): CardEvent | null {
  return isRecord(value) && isCardNonce(value.nonce) && isCardEventKind(value.event)
    ? { nonce: value.nonce, event: value.event }
    : null;
}

/** `badgeChanged`: the link's canonical key and the face its badges show now (a malformed face: INVALID_BADGE). */
export function toBadgeChange(value: unknown): { key: string; badge: BadgeFace } | null {
  return isRecord(value) && typeof value.origin === 'string' && typeof value.token === 'string'
    ? { key: canonicalKeyOf(value.origin, value.token), badge: toBadgeFace(value.badge) }
    : null;
}
