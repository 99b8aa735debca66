import { defineExtensionMessaging } from '@webext-core/messaging';
import { snapshotRequestSchema } from '../core/schemas/results';
import { protocolClient } from './client';
import type { ProtocolMapOf } from './define';
import { noInput } from './schemas';

/**
 * The hover card page ↔ background (DESIGN decision 4). The card is a web-accessible page, so any
 * site could frame it with a forged query string: it never reads its link from its URL. The content
 * script tells the background which link it opened the card for (`openCard`, lib/protocol/content.ts);
 * the card page asks here and gets the link bound to its own tab, as the browser reports the sender.
 * The card page loads the snapshot itself through lib/protocol/pages.ts like any extension page.
 */
export const cardProtocol = {
  /** Which link to show. null = none. */
  getCardForTab: { input: noInput, output: snapshotRequestSchema.nullable() },
} as const;

export type CardProtocolMap = ProtocolMapOf<typeof cardProtocol>;

export const cardMessenger = defineExtensionMessaging<CardProtocolMap>();

/** For the card page: parses what the background answers. */
export const cardClient = protocolClient(cardMessenger, cardProtocol);
