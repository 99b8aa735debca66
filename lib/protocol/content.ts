import { z } from 'zod';
import { MAX_BADGE_STRING, MAX_PEEK_BATCH } from '../core/limits';
import { badgeSummarySchema, snapshotRequestSchema } from '../core/schemas/results';
import { serviceConfigSchema } from '../core/schemas/service';
import { hoverDelayMsSchema } from '../core/schemas/settings';
import { TOKEN_PATTERN } from '../core/token';
import type { ProtocolMapOf } from './define';
import { noInput, ok } from './schemas';

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
  /** "My tab's card now shows this link". */
  openCard: { input: snapshotRequestSchema.extend({ token: z.string().regex(TOKEN_PATTERN) }), output: ok },
  /** The card was closed: forget the binding. */
  closeCard: { input: noInput, output: ok },
} as const;

export type ContentProtocolMap = ProtocolMapOf<typeof contentProtocol>;
export type ContentSettings = z.output<typeof contentProtocol.getPageSettings.output>;
export type BadgeTextPayload = z.output<typeof contentProtocol.getBadgeText.output>;
