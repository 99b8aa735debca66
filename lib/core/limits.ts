/**
 * Message size limits shared by senders and receivers. Zod-free, so the content script can import it.
 */

/**
 * Most links one cache-peek message may ask about. Each message has a fixed cost on the page's main
 * thread (serialising, the messaging wrapper, the answer's promise chain), so a page of 500 share
 * links sends one message instead of five.
 */
export const MAX_PEEK_BATCH = 500;

/** Longest badge string the background sends a content script (the catalogs' are far shorter). */
export const MAX_BADGE_STRING = 1000;
