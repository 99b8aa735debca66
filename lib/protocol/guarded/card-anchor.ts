import { isRecord } from '../../core/guards';
import { isCardNonce } from './content-answers';

/**
 * The message a frame posts to the top window just before it asks the background to have its card
 * drawn there: from it, the top frame's card host learns which window asks (`event.source`, which
 * only the browser sets). It carries a one-time key and nothing else, so a page that reads or forges
 * one learns nothing and can at most misplace a card.
 */
export const CARD_ANCHOR_SOURCE = 'compliance-lens-card-anchor';

export interface CardAnchorMessage {
  source: typeof CARD_ANCHOR_SOURCE;
  key: string;
}

export const cardAnchorMessage = (key: string): CardAnchorMessage => ({ source: CARD_ANCHOR_SOURCE, key });

/** The key of an anchor message, or null for anything else. */
export function parseCardAnchor(data: unknown): string | null {
  return isRecord(data) && data.source === CARD_ANCHOR_SOURCE && isCardNonce(data.key) ? data.key : null;
}
