import { isFiniteNumber, isRecord } from '../core/guards';
import { CARD_MAX_HEIGHT, CARD_MAX_WIDTH } from '../core/limits';

/**
 * postMessages from the card page (extension origin) to the content script in the page that frames
 * it. The receiver checks `event.source` and `event.origin` and then parses with `parseCardFrameMessage`:
 * a page can post anything to the window, and the shapes below are all a message can do.
 */
export const CARD_MESSAGE_SOURCE = 'compliance-lens-card';

export type CardFrameMessage =
  | { source: typeof CARD_MESSAGE_SOURCE; kind: 'size'; width: number; height: number }
  | { source: typeof CARD_MESSAGE_SOURCE; kind: 'close'; reason: 'escape' | 'button' }
  /** The pointer entered or left the card (the parent page sees no events inside the iframe). */
  | { source: typeof CARD_MESSAGE_SOURCE; kind: 'hover'; inside: boolean };

const inRange = (value: unknown, max: number): value is number => isFiniteNumber(value) && value >= 1 && value <= max;

export function parseCardFrameMessage(value: unknown): CardFrameMessage | null {
  if (!isRecord(value) || value.source !== CARD_MESSAGE_SOURCE) return null;
  if (value.kind === 'size' && inRange(value.width, CARD_MAX_WIDTH) && inRange(value.height, CARD_MAX_HEIGHT)) {
    return { source: CARD_MESSAGE_SOURCE, kind: 'size', width: value.width, height: value.height };
  }
  if (value.kind === 'close' && (value.reason === 'escape' || value.reason === 'button')) {
    return { source: CARD_MESSAGE_SOURCE, kind: 'close', reason: value.reason };
  }
  if (value.kind === 'hover' && typeof value.inside === 'boolean') {
    return { source: CARD_MESSAGE_SOURCE, kind: 'hover', inside: value.inside };
  }
  return null;
}
