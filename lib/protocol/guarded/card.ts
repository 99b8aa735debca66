/**
 * The hover card's wire vocabulary, shared by the content script, the card page and the background:
 * how a card is asked for, the nonce that names it, what a card the top frame draws for a subframe
 * tells that frame, and the bounds of every size and coordinate a frame may send.
 */

/** How the user asked for a snapshot: resting the pointer, a key on the badge, or a click on it. */
export const ACTIVATION_SOURCES = ['hover', 'keyboard', 'click'] as const;
export type ActivationSource = (typeof ACTIVATION_SOURCES)[number];

/** The one-time name the content script gives its card's frame, and the card page claims its link with. */
export const CARD_NONCE_PATTERN = /^[0-9a-f]{32}$/;

/**
 * What a card the top frame draws for a subframe tells that frame: the pointer entered or left it; it
 * was dismissed from inside (its button or Escape: focus goes back to the badge); a press elsewhere
 * in the top document.
 */
export const CARD_EVENTS = ['enter', 'leave', 'dismiss', 'outside'] as const;
export type CardEventKind = (typeof CARD_EVENTS)[number];

/** Largest coordinate or length a frame may report for its card's place (CSS pixels, far beyond any screen). */
export const MAX_CARD_COORDINATE = 1_000_000;

/** Most same-origin parents a frame climbs to the document its card is placed in (real pages nest two or three). */
export const MAX_FRAME_HOPS = 32;

/** The hover card's largest size; the frame is also clamped to the viewport, and the card's body scrolls. */
export const CARD_MAX_WIDTH = 360;
export const CARD_MAX_HEIGHT = 560;

/** The element the top frame draws a card in (its card page's frame sits in its closed shadow root). */
export const CARD_TAG = 'compliance-lens-card';

/**
 * The address fragment of a card page loaded ahead of intent (when the pointer first rests): it waits
 * for a card to be drawn in it (`awaitCard`, lib/protocol/card.ts), and shows nothing until then.
 */
export const CARD_AHEAD_HASH = '#ahead';

/** How long a card page loaded ahead waits for its card; the top frame drops it a little sooner. */
export const CARD_AHEAD_WAIT_MS = 60_000;
/** How long the answer that a card is drawn waits for its snapshot before the page shows that it is loading. */
export const CARD_AHEAD_CLAIM_WAIT_MS = 100;
export const CARD_AHEAD_KEPT_MS = 50_000;
