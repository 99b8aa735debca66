import { z } from 'zod';
import { CARD_ANCHOR_SOURCE } from './guarded/card-anchor';
import { CARD_MESSAGE_SOURCE } from './guarded/card-frame';
import { CARD_MAX_HEIGHT, CARD_MAX_WIDTH, CARD_NONCE_PATTERN } from './guarded/card';
import { FRAME_LINKS_SIGNAL } from './guarded/frame-signals';
import { MAX_REPORTED_HREF_LENGTH, MAX_REPORTED_HREFS } from './guarded/link-report';

/**
 * The zod forms of the wire formats in lib/protocol/guarded that never cross a zod-speaking message
 * boundary (they are posted between windows, or come back from the page world). The background parses
 * the page world's link report with its schema; property tests hold each hand-written guard to its
 * schema (test/lib/protocol/guarded/).
 */

const size = (max: number) => z.number().min(1).max(max);

/** What a card page posts to the document that frames it (lib/protocol/guarded/card-frame.ts). */
export const cardFrameMessageSchema = z.discriminatedUnion('kind', [
  z.object({
    source: z.literal(CARD_MESSAGE_SOURCE),
    kind: z.literal('size'),
    width: size(CARD_MAX_WIDTH),
    height: size(CARD_MAX_HEIGHT),
  }),
  z.object({ source: z.literal(CARD_MESSAGE_SOURCE), kind: z.literal('close'), reason: z.enum(['escape', 'button']) }),
  z.object({ source: z.literal(CARD_MESSAGE_SOURCE), kind: z.literal('hover'), inside: z.boolean() }),
]);

/** What a subframe posts to the top window before its card is drawn there (lib/protocol/guarded/card-anchor.ts). */
export const cardAnchorMessageSchema = z.object({
  source: z.literal(CARD_ANCHOR_SOURCE),
  key: z.string().regex(CARD_NONCE_PATTERN),
});

/** What a frame sentinel posts to the windows above it (lib/protocol/guarded/frame-signals.ts). */
export const frameLinksSignalSchema = z.literal(FRAME_LINKS_SIGNAL);

/** What `reportFrameLinks` gives back from one frame's page world (lib/protocol/guarded/link-report.ts). */
export const frameLinkReportSchema = z.object({
  hrefs: z.array(z.string().max(MAX_REPORTED_HREF_LENGTH)).max(MAX_REPORTED_HREFS),
  more: z.boolean(),
  shadowRoots: z.boolean(),
});
