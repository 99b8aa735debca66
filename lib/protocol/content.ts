import { z } from 'zod';
import {
  ACTIVATION_SOURCES,
  CARD_NONCE_PATTERN,
  HOSTED_CARD_EVENTS,
  MAX_BADGE_STRING,
  MAX_CARD_COORDINATE,
  MAX_FRAME_HOPS,
  MAX_PEEK_BATCH,
} from '../core/limits';
import { badgeSummarySchema, snapshotRequestSchema } from '../core/schemas/results';
import { serviceConfigSchema } from '../core/schemas/service';
import { hoverDelayMsSchema } from '../core/schemas/settings';
import { TOKEN_PATTERN } from '../core/token';
import type { ProtocolMapOf } from './define';
import { noInput, ok } from './schemas';

const cardNonceSchema = z.string().regex(CARD_NONCE_PATTERN);

const coordinate = z.number().min(-MAX_CARD_COORDINATE).max(MAX_CARD_COORDINATE);
const length = z.number().min(0).max(MAX_CARD_COORDINATE);

/** A box in a frame's viewport, in CSS pixels. */
export const frameRectSchema = z.strictObject({ left: coordinate, top: coordinate, right: coordinate, bottom: coordinate });

/**
 * A frame whose topmost same-origin document is not the top frame's (a sandboxed mail body, a frame of
 * another origin) asks the top frame to draw its card: a card page cannot run in a sandboxed frame,
 * and in a small frame it would be cut off. The frame posts `key` to the top window, from which the
 * top frame learns its window; `hops` same-origin parents up from it is the document that `rect`
 * (the badge's box) is in, whose viewport has this size (so the top frame tries the frame elements
 * of that size first: touching another frame's window builds the extension's world in it).
 */
const topFrameCardSchema = z.strictObject({
  key: cardNonceSchema,
  hops: z.int().min(0).max(MAX_FRAME_HOPS),
  rect: frameRectSchema,
  viewport: z.strictObject({ width: length, height: length }),
});

const hostedCardEventSchema = z.strictObject({ nonce: cardNonceSchema, event: z.enum(HOSTED_CARD_EVENTS) });

/**
 * Content script ↔ background. The content script runs inside untrusted pages: the background
 * parses every input with these schemas and answers with badge-sized data only. The content script
 * imports this module for its types alone (no zod in its bundle) and checks the answers with its
 * own guards (lib/content/guards.ts), which property tests hold to these output schemas.
 */
export const contentProtocol = {
  /** Cached while fresh, else one budgeted fetch (one view), reduced to what a badge shows. Only on intent. */
  getBadge: { input: snapshotRequestSchema, output: badgeSummarySchema },
  /** Cache only, never a fetch: the badges of links already seen. null = nothing cached. */
  peekBadges: {
    input: z.array(snapshotRequestSchema).max(MAX_PEEK_BATCH),
    output: z.array(badgeSummarySchema.nullable()),
  },
  /**
   * The services to recognise and the hover delay. Answered at once, even while the browser's first
   * read of the administrator policy is pending (`settled: false`); `waitForPolicy` waits for it.
   */
  getPageSettings: {
    input: z.strictObject({ waitForPolicy: z.boolean().optional() }).optional(),
    output: z.object({
      services: z.array(serviceConfigSchema),
      hoverDelayMs: hoverDelayMsSchema,
      settled: z.boolean(),
    }),
  },
  /** The badge strings and locale of the reader's language (the content script bundles no catalog). */
  getBadgeText: {
    input: noInput,
    output: z.object({
      locale: z.string().min(2).max(35),
      strings: z.record(z.string().max(100), z.string().max(MAX_BADGE_STRING)),
    }),
  },
  /**
   * "My tab's card now shows this link": the card page this content script made claims it with
   * `nonce` (its frame's name). The answer says whether the link may be fetched: a hover beyond the
   * tab's allowance shows the card from the cache only (security finding 6). With `inTopFrame`, from
   * a subframe, the top frame draws the card; `inTop` says whether it does (else this frame draws it).
   */
  openCard: {
    input: snapshotRequestSchema.extend({
      token: z.string().regex(TOKEN_PATTERN),
      nonce: cardNonceSchema,
      intent: z.enum(ACTIVATION_SOURCES),
      inTopFrame: topFrameCardSchema.optional(),
    }),
    output: z.object({ fetch: z.boolean(), inTop: z.boolean() }),
  },
  /** The badge of the card the top frame draws for this frame moved (scrolling, resizing) to `rect`. */
  moveCard: { input: z.strictObject({ nonce: cardNonceSchema, rect: frameRectSchema }), output: ok },
  /** The card of `nonce` was closed: forget its binding (and the top frame removes it, if it drew it). */
  closeCard: { input: z.strictObject({ nonce: cardNonceSchema }), output: ok },
  /** From the top frame: what happened to the card it draws for a subframe (passed on to that frame). */
  hostedCardEvent: { input: hostedCardEventSchema, output: ok },
  /**
   * From the top frame's frame relay, passing on a frame sentinel's signal (a subframe now holds links):
   * find the frames of the tab that hold a share link.
   */
  locateLinkFrames: { input: noInput, output: ok },
} as const;

/** Background → a content script (one frame of a tab). */
export const contentPushProtocol = {
  /** Another frame of the tab opened its card: close this one (one card per tab). */
  cardReplaced: { input: noInput, output: z.undefined() },
  /** To the top frame: draw the card of `nonce` for the subframe that posted `key` (replacing any it draws). */
  showHostedCard: {
    input: topFrameCardSchema.extend({
      nonce: cardNonceSchema,
      /** Opened from the keyboard: focus moves into the card. */
      focus: z.boolean(),
    }),
    output: ok,
  },
  /** To the top frame: the badge of the card it draws moved. */
  moveHostedCard: { input: z.strictObject({ nonce: cardNonceSchema, rect: frameRectSchema }), output: ok },
  /** To the top frame: remove the card of `nonce`, if it still draws it. */
  removeHostedCard: { input: z.strictObject({ nonce: cardNonceSchema }), output: ok },
  /** To the frame whose card the top frame draws: what happened to it. */
  cardEvent: { input: hostedCardEventSchema, output: z.undefined() },
} as const;

export type ContentPushType = keyof typeof contentPushProtocol;
export type ContentProtocolMap = ProtocolMapOf<typeof contentProtocol & typeof contentPushProtocol>;
export type FrameRect = z.output<typeof frameRectSchema>;
export type TopFrameCard = z.output<typeof topFrameCardSchema>;
export type HostedCard = z.output<typeof contentPushProtocol.showHostedCard.input>;
export type HostedCardEvent = z.output<typeof hostedCardEventSchema>;
export type ContentSettings = z.output<typeof contentProtocol.getPageSettings.output>;
export type BadgeTextPayload = z.output<typeof contentProtocol.getBadgeText.output>;
