import { z } from 'zod';
import { MAX_BADGE_STRING, MAX_BADGE_STYLE, MAX_PEEK_BATCH } from '../core/limits';
import { badgeFaceSchema, snapshotRequestSchema } from '../core/schemas/results';
import { serviceConfigSchema } from '../core/schemas/service';
import { hoverDelayMsSchema } from '../core/schemas/settings';
import { TOKEN_PATTERN } from '../core/token';
import type { ProtocolMapOf } from './define';
import { ACTIVATION_SOURCES, CARD_EVENTS, CARD_NONCE_PATTERN, MAX_CARD_COORDINATE, MAX_FRAME_HOPS } from './guarded/card';
import { noInput, ok } from './schemas';

const cardNonceSchema = z.string().regex(CARD_NONCE_PATTERN);

const coordinate = z.number().min(-MAX_CARD_COORDINATE).max(MAX_CARD_COORDINATE);
const length = z.number().min(0).max(MAX_CARD_COORDINATE);

/** A box in a frame's viewport, in CSS pixels. */
export const frameRectSchema = z.strictObject({ left: coordinate, top: coordinate, right: coordinate, bottom: coordinate });

/**
 * Where the card goes. The top frame's card host draws every card of the tab (a card page cannot run
 * in a sandboxed frame, a small frame would cut it off, and a card drawn in a frame would outlive it).
 * `rect` is the badge's box in the viewport of the document `hops` same-origin parents up from the
 * asking frame, whose size is `viewport`. A subframe posts `key` to the top window first, from which
 * the host learns its window and finds that document's frame element (trying the frame elements of
 * that size first: touching another frame's window builds the extension's world in it). The top
 * frame's own links send no key: their box is in the top viewport already.
 */
const cardAnchorSchema = z.strictObject({
  key: cardNonceSchema.optional(),
  hops: z.int().min(0).max(MAX_FRAME_HOPS),
  rect: frameRectSchema,
  viewport: z.strictObject({ width: length, height: length }),
  /** Where the gesture was (the pointer, or the badge's centre for a click or a key), in the same viewport as `rect`. */
  at: z.strictObject({ x: coordinate, y: coordinate }),
});

/**
 * The card messages that pass through the background unchanged, each defined once: a frame sends
 * them to the background, which checks that they come from the card's own frame (or, for `cardEvent`,
 * from the top frame that draws it) and passes them on to the frame they concern.
 */
const cardMessages = {
  /** The badge of the card moved (scrolling, resizing): its frame → background → the top frame that draws it. */
  moveCard: { input: z.strictObject({ nonce: cardNonceSchema, rect: frameRectSchema }), output: ok },
  /**
   * The card of `nonce` is closed: from its frame (the background forgets it and tells the top frame
   * that draws it), or from the background to a frame whose card another frame's card replaced.
   */
  closeCard: { input: z.strictObject({ nonce: cardNonceSchema }), output: ok },
  /** What the card did (the pointer entered or left it, a dismissal, a press elsewhere): top frame → background → its frame. */
  cardEvent: { input: z.strictObject({ nonce: cardNonceSchema, event: z.enum(CARD_EVENTS) }), output: ok },
} as const;

/**
 * Content script → background. The content script runs inside untrusted pages: the background
 * parses every input with these schemas and answers with badge-sized data only. The content script
 * imports this module for its types alone (no zod in its bundle) and checks the answers with the
 * guards of lib/protocol/guarded/content-answers.ts, which property tests hold to these schemas.
 */
/** The badge's words in the reader's language and its stylesheet (zod-free check: `toBadgeText`). */
const badgeTextSchema = z.object({
  locale: z.string().min(2).max(35),
  strings: z.record(z.string().max(100), z.string().max(MAX_BADGE_STRING)),
  style: z.string().max(MAX_BADGE_STYLE),
});

export const contentProtocol = {
  /** Cache only, never a fetch: the badges of links already seen. null = nothing cached. */
  peekBadges: {
    input: z.array(snapshotRequestSchema).max(MAX_PEEK_BATCH),
    output: z.array(badgeFaceSchema.nullable()),
  },
  /**
   * What an annotator starts from, the same as the background's copy in storage.local (read first,
   * without a message: lib/background/content-scripts/page-settings-copy.ts): the services to
   * recognise, the hover delay, and `text`, the badge strings and locale of the reader's language and
   * the badge's stylesheet (the content script bundles no catalog and no palette: lib/core/badge-look.ts
   * `badgeStylesheet`). Answered at once, even while the browser's first read of the administrator
   * policy is pending (`settled: false`); `waitForPolicy` waits for it.
   */
  getPageSettings: {
    input: z.strictObject({ waitForPolicy: z.boolean().optional() }).optional(),
    output: z.object({
      services: z.array(serviceConfigSchema),
      hoverDelayMs: hoverDelayMsSchema,
      settled: z.boolean(),
      text: badgeTextSchema,
    }),
  },
  /**
   * "My tab's card now shows this link, next to `anchor`": the background has the top frame draw it,
   * and the card page named `nonce` claims it (lib/protocol/card.ts). The background decides whether
   * the link may be fetched (only a gesture a person could see, `seen` here and the top frame's verdict
   * on the frames around it, and within the tab's allowance: else the card shows the cache only, with
   * Load), fetches it, and answers, once that fetch is over, whether the card is drawn (false: nothing in
   * the top frame answers). What the link's badges show comes only as `badgeChanged`, before this answer.
   */
  openCard: {
    input: snapshotRequestSchema.extend({
      token: z.string().regex(TOKEN_PATTERN),
      nonce: cardNonceSchema,
      intent: z.enum(ACTIVATION_SOURCES),
      /** The frame's verdict: the gesture was on something a person could see, through the frames it can reach. */
      seen: z.boolean(),
      anchor: cardAnchorSchema,
    }),
    output: z.object({ shown: z.boolean() }),
  },
  ...cardMessages,
  /**
   * The pointer came to rest on a link or its badge, or a badge took focus (before any intent): the
   * background has the top frame load a card page ahead, so the card is there the moment intent is.
   * Nothing is fetched.
   */
  warmCard: { input: noInput, output: ok },
  /**
   * Load the card presenter into the asking frame (lib/content/card-presenter, a script of its own):
   * the annotator asks the first time a reader's pointer comes to one of its links. Answered once it ran.
   */
  loadCardPresenter: { input: noInput, output: ok },
  /**
   * From the top frame, while it draws a subframe's card: is that frame still there? Nothing tells a
   * document that a frame below it went (and a page can keep the frame's window from the top frame).
   * The background asks the frame; a frame gone takes its card with it (`closeCard` to the top frame).
   */
  checkCard: { input: z.strictObject({ nonce: cardNonceSchema }), output: ok },
  /**
   * From the top frame's frame relay, passing on a frame sentinel's signal (a subframe now holds links):
   * find the frames of the tab that hold a share link.
   */
  locateLinkFrames: { input: noInput, output: ok },
} as const;

/** Background → a content script (one frame of a tab). */
export const contentPushProtocol = {
  /**
   * To the top frame: draw the card of `nonce` at its anchor (replacing any it draws). Answered with
   * the top frame's verdict: whether the frames around a subframe's link show at the gesture's point
   * (not faded, hidden, covered or under the top layer); always true for the top frame's own links.
   * `frame`: the card is drawn in the card page loaded ahead (`warmCard`), which claims it with this
   * nonce of its own instead of the card's.
   */
  showCard: {
    input: cardAnchorSchema.extend({
      nonce: cardNonceSchema,
      /** Opened from the keyboard: focus moves into the card. */
      focus: z.boolean(),
    }),
    output: z.object({ ok: z.literal(true), seen: z.boolean(), frame: cardNonceSchema.optional() }),
  },
  /** To the top frame: load a card page ahead, hidden, unless one waits already (lib/content/top-frame/card-view.ts). */
  warmCard: { input: noInput, output: ok },
  /**
   * Load the card presenter into the asking frame (lib/content/card-presenter, a script of its own):
   * the annotator asks the first time a reader's pointer comes to one of its links. Answered once it ran.
   */
  loadCardPresenter: { input: noInput, output: ok },
  /**
   * To every frame whose badges show the link (they peeked it, `peekBadges`): it was fetched again,
   * from a card, the popup, the side panel or the watchlist; its badges show this now.
   */
  badgeChanged: { input: z.strictObject({ ...snapshotRequestSchema.shape, badge: badgeFaceSchema }), output: ok },
  ...cardMessages,
} as const;

export type ContentPushType = keyof typeof contentPushProtocol;
export type ContentProtocolMap = ProtocolMapOf<typeof contentProtocol & typeof contentPushProtocol>;
export type FrameRect = z.output<typeof frameRectSchema>;
export type CardAnchor = z.output<typeof cardAnchorSchema>;
export type ShowCard = z.output<typeof contentPushProtocol.showCard.input>;
export type CardEvent = z.output<typeof cardMessages.cardEvent.input>;
export type OpenCardAnswer = z.output<typeof contentProtocol.openCard.output>;
export type ContentSettings = Omit<z.output<typeof contentProtocol.getPageSettings.output>, 'text'>;
export type BadgeTextPayload = z.output<typeof badgeTextSchema>;
