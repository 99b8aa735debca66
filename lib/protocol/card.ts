import { defineExtensionMessaging } from '@webext-core/messaging';
import { z } from 'zod';
import { LANGUAGES } from '../core/i18n/language';
import { peekResultSchema, snapshotRequestSchema } from '../core/schemas/results';
import { protocolClient } from './client';
import type { ProtocolMapOf } from './define';
import { CARD_NONCE_PATTERN } from './guarded/card';

/** What a card page's claim gets: its link, what to show and the reader's language; null: nothing. */
const cardClaimSchema = z
  .object({ request: snapshotRequestSchema, result: peekResultSchema, language: z.enum(LANGUAGES) })
  .nullable();

/**
 * The hover card page ↔ background (DESIGN decision 4). The card is a web-accessible page, so any
 * site could frame it: it never reads its link from its URL. The content script opens its card with
 * a one-time nonce it also gives the card's frame as its name (`openCard`, lib/protocol/content.ts;
 * the frame sits in a closed shadow root, so the page cannot read the name); the card page claims
 * the card here with that nonce, once, in its own tab, and gets the snapshot itself in the answer.
 */
export const cardProtocol = {
  /**
   * The card opened with this nonce, once: its link, what to show (the snapshot, fetched if the card
   * may fetch, else the cached one; null: neither, so the card offers to load it) and the reader's
   * language. null: nothing (a card page the content script did not make, or a second claim).
   */
  claimCard: {
    input: z.strictObject({ nonce: z.string().regex(CARD_NONCE_PATTERN) }),
    output: cardClaimSchema,
  },
  /**
   * A card page loaded ahead (`CARD_AHEAD_HASH`, before any intent) waits here until the top frame
   * draws a card in it, and claims that card in the same answer (as `claimCard`, with the nonce the
   * top frame gave it); null when none is drawn within `CARD_AHEAD_WAIT_MS`, newer waiting pages push
   * it out, or it was claimed. Nothing is fetched for the wait itself.
   */
  awaitCard: {
    input: z.strictObject({ nonce: z.string().regex(CARD_NONCE_PATTERN) }),
    output: cardClaimSchema,
  },
} as const;

export type CardProtocolMap = ProtocolMapOf<typeof cardProtocol>;
export type CardClaim = NonNullable<z.output<typeof cardProtocol.claimCard.output>>;

export const cardMessenger = defineExtensionMessaging<CardProtocolMap>();

/** For the card page: parses what the background answers. */
export const cardClient = protocolClient(cardMessenger, cardProtocol);
