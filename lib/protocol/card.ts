import { defineExtensionMessaging } from '@webext-core/messaging';
import { z } from 'zod';
import { CARD_NONCE_PATTERN } from '../core/limits';
import { snapshotRequestSchema } from '../core/schemas/results';
import { protocolClient } from './client';
import type { ProtocolMapOf } from './define';

/**
 * The hover card page ↔ background (DESIGN decision 4). The card is a web-accessible page, so any
 * site could frame it: it never reads its link from its URL. The content script tells the background
 * which link it opened the card for, with a one-time nonce it also gives the card's frame as its
 * name (`openCard`, lib/protocol/content.ts; the frame sits in a closed shadow root, so the page
 * cannot read the name); the card page claims the link here with that nonce, once, in its own tab.
 * It then loads the snapshot through lib/protocol/pages.ts like any extension page.
 */
export const cardProtocol = {
  /**
   * Which link to show, claimed once with the nonce the content script gave the card's frame (its
   * name). null: nothing (a card page the content script did not make, or a second claim).
   */
  claimCard: {
    input: z.strictObject({ nonce: z.string().regex(CARD_NONCE_PATTERN) }),
    output: z.object({ request: snapshotRequestSchema, fetch: z.boolean() }).nullable(),
  },
} as const;

export type CardProtocolMap = ProtocolMapOf<typeof cardProtocol>;

export const cardMessenger = defineExtensionMessaging<CardProtocolMap>();

/** For the card page: parses what the background answers. */
export const cardClient = protocolClient(cardMessenger, cardProtocol);
