import { defineExtensionMessaging } from '@webext-core/messaging';
import { z } from 'zod';
import { LANGUAGES, type Language } from '../core/i18n/language';
import { peekResultSchema, snapshotRequestSchema } from '../core/schemas/results';
import { protocolClient } from './client';
import type { ProtocolMapOf } from './define';
import { CARD_NONCE_PATTERN } from './guarded/card';

/** Why a card has no snapshot to show and offers Load: the gesture was not seen, or the tab's allowance is spent. */
export const NOT_LOADED_REASONS = ['unseen', 'allowance'] as const;
export type NotLoadedReason = (typeof NOT_LOADED_REASONS)[number];

/**
 * What a card page's card is: its link, what to show and the reader's language; with no snapshot
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
 * the frame sits in a closed shadow root, so the page cannot read the name), or has it drawn in the
 * card page loaded ahead, named with that page's own nonce; either way the card page waits here for
 * its card with the nonce, in its own tab, once, and gets the snapshot itself in the answer.
 */
export const cardProtocol = {
  /**
   * Waits until a card is drawn with this nonce (`drawn`, with the reader's language; false: none
   * within `CARD_AHEAD_WAIT_MS`, newer waiting pages pushed it out, or it was claimed: a page the
   * content script did not make gets nothing, and costs no view). The card comes with the answer
   * (`claim`: its link, what to show, once) when its snapshot is known soon (the snapshot, fetched
   * if the card may fetch, else the cached one; null: neither, so the card offers to load it).
   * Otherwise the page shows that it is loading and waits again: that answer brings the card. Nothing
   * is fetched for the wait itself.
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

/** A card drawn with a page's nonce: the reader's language, and its card, or the wait for it (its snapshot is slow). */
export interface DrawnCard {
  language: Language;
  openedAt?: number;
  claim: CardClaim | (() => Promise<CardClaim | null>);
}

/**
 * How a card page gets its card, loaded ahead or not: waits once until it is drawn, and once more for
 * its snapshot if it was slow to come. A worker that restarts meanwhile drops the wait, which is asked
 * again (its routes are in storage.session). null: no card for this nonce.
 */
export async function awaitDrawnCard(
  nonce: string,
  awaitCard: (input: { nonce: string }) => Promise<AwaitedCard> = cardClient.awaitCard,
): Promise<DrawnCard | null> {
  const ask = async (): Promise<AwaitedCard> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await awaitCard({ nonce });
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  };
  if (!CARD_NONCE_PATTERN.test(nonce)) return null;
  const first = await ask().catch(() => null);
  if (!first?.drawn) return null;
  const { language, openedAt } = first;
  const claim = first.claim ?? (async () => ask().then((next) => (next.drawn ? (next.claim ?? null) : null)));
  return { language, claim, ...(openedAt === undefined ? {} : { openedAt }) };
}

/** The card itself, waited for through a slow snapshot (a page that shows its own Loading meanwhile); null: none. */
export async function claimOfDrawn(drawn: Promise<DrawnCard | null>): Promise<CardClaim | null> {
  const card = await drawn;
  return typeof card?.claim === 'function' ? card.claim() : (card?.claim ?? null);
}
