import { isCardNonce, isRecord } from '../../core/guards';

/**
 * The message a frame posts to the top window just before it asks the background to have its card
 * drawn there: from it, the top frame's card host (card-host.ts) learns which window asks
 * (`event.source`, which only the browser sets). It carries a one-time key and nothing else, so a
 * page that reads or forges one learns nothing and can at most misplace a card.
 */
export const CARD_ANCHOR_SOURCE = 'compliance-lens-card-anchor';

/** 128 random bits as hex: `crypto.randomUUID` needs a secure context, and plain http pages are not. */
export function newNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Posts a new anchor key from `win` to its top window, and returns it. */
export function postCardAnchor(win: Window): string {
  const key = newNonce();
  win.top?.postMessage({ source: CARD_ANCHOR_SOURCE, key }, '*');
  return key;
}

/** The key of an anchor message, or null for anything else. */
export function parseCardAnchor(data: unknown): string | null {
  return isRecord(data) && data.source === CARD_ANCHOR_SOURCE && isCardNonce(data.key) ? data.key : null;
}
