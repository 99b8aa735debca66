/** The annotator content script as WXT builds it: the top frame's (`content_scripts[0].js` of the manifest). */
export const ANNOTATOR_SCRIPT = 'annotator.js';

/**
 * The card presenter (an unlisted script WXT builds at the root): the background runs it in a frame
 * the first time the annotator there needs a card (lib/content/card-presenter).
 */
export const CARD_PRESENTER_SCRIPT = 'card-presenter.js';

/**
 * The frame relay (an unlisted script WXT builds at the root): beside the annotator in the top frame,
 * it passes the sentinels' signals to the background (lib/content/top-frame/frame-relay.ts).
 */
export const FRAME_RELAY_SCRIPT = 'frame-relay.js';

/**
 * The frame sentinel (an unlisted script WXT builds at the root): runs in the page's own world of
 * every subframe, and signals when links appear (lib/page-world).
 */
export const FRAME_SENTINEL_SCRIPT = 'frame-sentinel.js';

/**
 * The content scripts of a page the extension runs on, one entry each: the manifest's
 * `content_scripts` (wxt.config.ts) and the runtime registrations for enabled sites
 * (lib/background/content-scripts/content-registration.ts) are both made from this list. Each also runs in a window
 * or frame without an address of its own that a matched page opened or wrote. The relay has an entry
 * of its own, not a second file of the annotator's: in one entry the two cost 22 ms more script on
 * the page of 20,000 anchors (docs/design-changes.md).
 */
export const PAGE_SCRIPTS = [
  /**
   * The top frame: the annotator (subframes get it from the background, where a share link is). It
   * starts with the page: each badge's room is taken as its link is parsed, before the first paint.
   */
  { name: 'annotator', js: ANNOTATOR_SCRIPT, allFrames: false, world: 'ISOLATED', runAt: 'document_start' },
  /** The top frame: the relay of the sentinels' signals. */
  { name: 'frame-relay', js: FRAME_RELAY_SCRIPT, allFrames: false, world: 'ISOLATED', runAt: 'document_idle' },
  /** Every frame, in the page's own world (the top frame's exits at once). */
  { name: 'frame-sentinel', js: FRAME_SENTINEL_SCRIPT, allFrames: true, world: 'MAIN', runAt: 'document_idle' },
] as const;

/**
 * Hosts the annotator content script runs on by default. Other sites: optional permission + runtime
 * registration, or a one-off scan from the popup.
 */
export const ANNOTATOR_MATCHES = [
  'https://mail.google.com/*',
  'https://outlook.office.com/*',
  'https://outlook.office365.com/*',
  'https://outlook.live.com/*',
  'https://*.affinity.co/*',
  'https://app.attio.com/*',
  'https://app.hubspot.com/*',
  'https://app-eu1.hubspot.com/*',
  'https://www.notion.so/*',
  'https://airtable.com/*',
  'https://*.pipedrive.com/*',
  'https://*.lightning.force.com/*',
  // Any port: the local demo and the end-to-end tests.
  'http://localhost/*',
  'http://127.0.0.1/*',
];

/** The card page: the one web-accessible resource (its scripts load from its own origin). */
export const CARD_PAGE = 'card.html';

/**
 * The match pattern (and host-permission pattern) for an enabled site such as `crm.example.com`,
 * `*.example.com` or `crm.example.com:8443`: every scheme the annotator handles, every port (Firefox
 * match patterns take no port).
 */
export function siteMatchPattern(site: string): string {
  return `*://${site.trim().toLowerCase().replace(/:\d+$/, '')}/*`;
}

/** One pattern per site, without duplicates, in a stable order (so unchanged settings change nothing). */
export function enabledSiteMatches(sites: readonly string[]): string[] {
  return [...new Set(sites.map(siteMatchPattern))].sort();
}
