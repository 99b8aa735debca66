/**
 * Limits and bounds that more than one process checks: message sizes, settings ranges, the card's
 * size. Each is defined here once.
 */

/**
 * Most links one cache-peek message may ask about. Each message has a fixed cost on the page's main
 * thread (serialising, the messaging wrapper, the answer's promise chain), so a page of 500 share
 * links sends one message instead of five.
 */
export const MAX_PEEK_BATCH = 500;

/** Longest badge string the background sends a content script (the catalogs' are far shorter). */
export const MAX_BADGE_STRING = 1000;

/** Bounds of the hover delay, apart so that the content script can clamp with them alone. */
export const HOVER_DELAY_MS = { min: 300, max: 1500, default: 400 } as const;

/** Bounds and defaults of the user's numeric settings (the options page, the stored schema and the content script use these). */
export const SETTINGS_LIMITS = {
  hoverDelayMs: HOVER_DELAY_MS,
  cacheTtlMinutes: { min: 30, max: 360, default: 60 },
  /** Kept well under the server's 60/min per IP, which is shared by everyone behind one NAT. */
  requestBudgetPerMinute: { min: 1, max: 50, default: 30 },
} as const;

/** The hover card's largest size; the frame is also clamped to the viewport, and the card's body scrolls. */
export const CARD_MAX_WIDTH = 360;
export const CARD_MAX_HEIGHT = 560;

/** Most links one page-links answer may carry (a CRM list view can be long; more than this is not a list). */
export const MAX_PAGE_LINKS = 2000;

/** How the user asked for a snapshot: resting the pointer, a key on the badge, or a click on it. */
export const ACTIVATION_SOURCES = ['hover', 'keyboard', 'click'] as const;

/** The one-time name the content script gives its card's frame, and the card page claims its link with. */
export const CARD_NONCE_PATTERN = /^[0-9a-f]{32}$/;

/**
 * What a card the top frame draws for a subframe tells that frame: the pointer entered or left it; it
 * was dismissed from inside (its button or Escape: focus goes back to the badge); a press elsewhere
 * in the top document.
 */
export const HOSTED_CARD_EVENTS = ['enter', 'leave', 'dismiss', 'outside'] as const;

/** Largest coordinate or length a frame may report for its card's place (CSS pixels, far beyond any screen). */
export const MAX_CARD_COORDINATE = 1_000_000;

/** Most same-origin parents a frame climbs to the document its card is placed in (real pages nest two or three). */
export const MAX_FRAME_HOPS = 32;

/**
 * Uncached links hovering may fetch per tab per minute (a click or a key on the badge always may): a
 * page that moves links under a still pointer cannot spend the request budget on tokens it chooses.
 */
export const HOVER_FETCHES_PER_MINUTE = 10;

/** Watchlist bounds (the background enforces them; the pages say them). */
export const WATCHLIST_LIMITS = {
  /** Companies watched at once (ended watches count until their history is deleted). */
  maxWatches: 100,
  /** History points kept per watched link; the oldest go first. About a year of daily refreshes. */
  maxPointsPerWatch: 400,
  /** Readiness scores kept in a watch's summary for its sparkline and the week's change. */
  seriesLength: 90,
} as const;

/** Most links a frame's page-world report lists (more: the annotator is started and decides). */
export const MAX_REPORTED_HREFS = 2000;

/** Longest link a frame's page-world report lists (longer ones cannot be share links). */
export const MAX_REPORTED_HREF_LENGTH = 4096;
