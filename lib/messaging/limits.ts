/**
 * Message size limits shared by senders and receivers. Zod-free, so the content script can import it.
 *
 * Cache peeks: one message per 500 links. Each message has a fixed cost on the page's main thread
 * (serialising, the messaging wrapper, the answer's promise chain); at 100 per message the five
 * messages of a 500-link page measured ~15 ms of the content script's time, at 500 per message one.
 */
export const MAX_PEEK_BATCH = 500;
