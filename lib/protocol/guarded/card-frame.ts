import { isFiniteNumber, isRecord } from '../../core/guards';
import { CARD_MAX_HEIGHT, CARD_MAX_WIDTH } from './card';

/**
 * postMessages from the card page (extension origin) to the content script in the page that frames
 * it. The receiver checks `event.source` and `event.origin` and then parses with `parseCardFrameMessage`:
 * a page can post anything to the window, and the shapes below are all a message can do.
 */
export const CARD_MESSAGE_SOURCE = 'compliance-lens-card';

/**
 * While the pointer moves on the card, the card page says `hover inside` again at most this often. A
 * frame is not always told when the pointer leaves it (Chromium sends it nothing when the pointer
 * goes straight into its parent or another frame), so it cannot say when the pointer comes back:
 * the repeats say it is on the card, and the frame's parent learns when it is gone from its own
 * pointer events. Only a pointer that moved on the card says so: a card redrawn under the place its
 * frame last saw the pointer is sent a `pointerover` there, the pointer maybe long gone.
 */
export const CARD_HOVER_REPEAT_MS = 100;

/** What a card page tells the content script that framed it. */
export type CardFrameEvent =
  | { kind: 'size'; width: number; height: number }
  | { kind: 'close'; reason: 'escape' | 'button' }
  /** The pointer is on the card (repeated while it moves there) or left it; the parent page sees no events inside the iframe. */
  | { kind: 'hover'; inside: boolean };

/** An event as posted: marked as the card's. */
export type CardFrameMessage = CardFrameEvent & { source: typeof CARD_MESSAGE_SOURCE };

const inRange = (value: unknown, max: number): value is number => isFiniteNumber(value) && value >= 1 && value <= max;

/** The event a card page posted, or null for anything else (another sender's message, a bad shape). */
export function parseCardFrameMessage(value: unknown): CardFrameEvent | null {
  if (!isRecord(value) || value.source !== CARD_MESSAGE_SOURCE) return null;
  if (value.kind === 'size' && inRange(value.width, CARD_MAX_WIDTH) && inRange(value.height, CARD_MAX_HEIGHT)) {
    return { kind: 'size', width: value.width, height: value.height };
  }
  if (value.kind === 'close' && (value.reason === 'escape' || value.reason === 'button')) {
    return { kind: 'close', reason: value.reason };
  }
  if (value.kind === 'hover' && typeof value.inside === 'boolean') {
    return { kind: 'hover', inside: value.inside };
  }
  return null;
}
