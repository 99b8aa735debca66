import { defineExtensionMessaging } from '@webext-core/messaging';
import { z } from 'zod';
import { LANGUAGES } from '../core/i18n/language';
import { peekResultSchema, snapshotRequestSchema } from '../core/schemas/results';
import { protocolClient } from './client';
import type { ProtocolMapOf } from './define';
import { CARD_NONCE_PATTERN } from './guarded/card';

/** Why a card has no snapshot to show and offers Load: the gesture was not seen, or the tab's allowance is spent. */
export const NOT_LOADED_REASONS = ['unseen', 'allowance'] as const;
export type NotLoadedReason = (typeof NOT_LOADED_REASONS)[number];

/**
 * What a card page's claim gets: its link, what to show and the reader's language; with no snapshot
 * (`result` null) because the card may not fetch, why (`unloaded`).
 */
const cardClaimSchema = z.object({
  request: snapshotRequestSchema,
  result: peekResultSchema,
  language: z.enum(LANGUAGES),
  unloaded: z.enum(NOT_LOADED_REASONS).optional(),
});

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
    output: cardClaimSchema.nullable(),
  },
  /**
   * A card page loaded ahead (`CARD_AHEAD_HASH`, before any intent) waits here until the top frame
   * draws a card in it (`drawn`, with the reader's language; false: none within `CARD_AHEAD_WAIT_MS`,
   * newer waiting pages pushed it out, or it was claimed). The card comes with the answer (`claim`, as
   * `claimCard` answers it, once) when its snapshot is known soon; otherwise the page shows that it is
   * loading and claims it with `claimCard`. Nothing is fetched for the wait itself.
   */
  awaitCard: {
    input: z.strictObject({ nonce: z.string().regex(CARD_NONCE_PATTERN) }),
    output: z.discriminatedUnion('drawn', [
      z.object({ drawn: z.literal(false) }),
      z.object({
        drawn: z.literal(true),
        language: z.enum(LANGUAGES),
        /** When the card was opened (epoch ms: the moment of intent), so a slow card counts its wait from there. */
        openedAt: z.number().int().nonnegative().optional(),
        claim: cardClaimSchema.optional(),
      }),
    ]),
  },
} as const;

export type CardProtocolMap = ProtocolMapOf<typeof cardProtocol>;
export type CardClaim = z.output<typeof cardClaimSchema>;
export type AwaitedCard = z.output<typeof cardProtocol.awaitCard.output>;

export const cardMessenger = defineExtensionMessaging<CardProtocolMap>();

/** For the card page: parses what the background answers. */
export const cardClient = protocolClient(cardMessenger, cardProtocol);
