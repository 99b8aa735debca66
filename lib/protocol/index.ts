/**
 * lib/protocol: one module per process boundary, each message defined once with the zod schemas of
 * its input and answer; the content script imports these modules' types only (and the zod-free
 * card-frame protocol), everything else imports what it speaks.
 */
export { cardClient, cardMessenger, cardProtocol, type CardProtocolMap } from './card';
export { CARD_MESSAGE_SOURCE, parseCardFrameMessage, type CardFrameEvent, type CardFrameMessage } from './card-frame';
export { contentProtocol, type BadgeTextPayload, type ContentProtocolMap, type ContentSettings } from './content';
export { listPageLinks, pageLinksProtocol, watchPageLinks, type PageLink, type PageLinksProtocolMap } from './page-links';
export { backgroundClient, pagesMessenger, pagesProtocol, type PagesProtocolMap } from './pages';
