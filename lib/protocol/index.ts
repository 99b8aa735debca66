/**
 * lib/protocol: one module per process boundary, each message defined once with the zod schemas of
 * its input and answer. The content script imports these modules' types only, and at runtime only
 * lib/protocol/guarded (the zod-free wire formats and their guards); everything else imports what it speaks.
 */
export { cardClient, cardMessenger, cardProtocol, type CardClaim, type CardProtocolMap } from './card';
export { contentProtocol, type BadgeTextPayload, type ContentProtocolMap, type ContentSettings } from './content';
export { listPageLinks, pageLinksProtocol, watchPageLinks, type PageLink, type PageLinksProtocolMap } from './page-links';
export { backgroundClient, pagesMessenger, pagesProtocol, type PagesProtocolMap } from './pages';
