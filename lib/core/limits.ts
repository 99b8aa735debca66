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

/** Longest badge stylesheet the background sends a content script (lib/core/badge-look.ts `badgeStylesheet`, about 3 KB). */
export const MAX_BADGE_STYLE = 8000;

/** Longest text a badge's chip shows ("100/100"; the chip has room for little more). */
export const MAX_BADGE_FACE_TEXT = 8;

/** Bounds of the hover delay, apart so that the content script can clamp with them alone. */
export const HOVER_DELAY_MS = { min: 300, max: 1500, default: 400 } as const;

/** Bounds and defaults of the user's numeric settings (the options page, the stored schema and the content script use these). */
export const SETTINGS_LIMITS = {
  hoverDelayMs: HOVER_DELAY_MS,
  cacheTtlMinutes: { min: 30, max: 360, default: 60 },
  /** Kept well under the server's 60/min per IP, which is shared by everyone behind one NAT. */
  requestBudgetPerMinute: { min: 1, max: 50, default: 30 },
} as const;

/** Most links one page-links answer may carry (a CRM list view can be long; more than this is not a list). */
export const MAX_PAGE_LINKS = 2000;

/** Longest text of a link's own words a page-links answer carries (a row names the link by them). */
export const MAX_PAGE_LINK_TEXT = 120;

/**
 * Longest disclaimer a snapshot may carry (a real one is about 500 characters). One bound for the
 * snapshot and for the watch that keeps it, so a snapshot the card shows can always be watched; a
 * longer one is an unreadable answer, not a truncated disclaimer.
 */
export const MAX_DISCLAIMER_LENGTH = 20_000;

/** Watchlist bounds (the background enforces them; the pages say them). */
export const WATCHLIST_LIMITS = {
  /** Companies watched at once (ended watches count until their history is deleted). */
  maxWatches: 100,
  /** History points kept per watched link; the oldest go first. About a year of daily refreshes. */
  maxPointsPerWatch: 400,
  /** Readiness scores kept in a watch's summary for its sparkline and the week's change. */
  seriesLength: 90,
} as const;
