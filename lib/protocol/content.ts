import { z } from 'zod';
import { ACTIVATION_SOURCES, CARD_NONCE_PATTERN, MAX_BADGE_STRING, MAX_PEEK_BATCH } from '../core/limits';
import { badgeSummarySchema, snapshotRequestSchema } from '../core/schemas/results';
import { serviceConfigSchema } from '../core/schemas/service';
import { hoverDelayMsSchema } from '../core/schemas/settings';
import { TOKEN_PATTERN } from '../core/token';
import type { ProtocolMapOf } from './define';
import { noInput, ok } from './schemas';

const cardNonceSchema = z.string().regex(CARD_NONCE_PATTERN);

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
   * tab's allowance shows the card from the cache only (security finding 6).
   */
  openCard: {
    input: snapshotRequestSchema.extend({
      token: z.string().regex(TOKEN_PATTERN),
      nonce: cardNonceSchema,
      intent: z.enum(ACTIVATION_SOURCES),
    }),
    output: z.object({ fetch: z.boolean() }),
  },
  /** The card of `nonce` was closed: forget its binding. */
  closeCard: { input: z.strictObject({ nonce: cardNonceSchema }), output: ok },
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
} as const;

export type ContentProtocolMap = ProtocolMapOf<typeof contentProtocol & typeof contentPushProtocol>;
export type ContentSettings = z.output<typeof contentProtocol.getPageSettings.output>;
export type BadgeTextPayload = z.output<typeof contentProtocol.getBadgeText.output>;
