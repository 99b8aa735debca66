import { defineExtensionMessaging } from '@webext-core/messaging';
import { z } from 'zod';
import { MAX_BADGE_STRING } from '../core/limits';
import { effectiveSettingsSchema, pageSettingsSchema, type EffectiveSettings, type PageSettings } from '../extension/settings';
import {
  badgeSummarySchema,
  cachedSummarySchema,
  peekResultSchema,
  snapshotRequestSchema,
  snapshotResultSchema,
  type BadgeSummary,
  type CachedSummary,
  type PeekResult,
  type SnapshotRequest,
  type SnapshotResult,
} from '../core/schemas/results';

/**
 * The one protocol between extension contexts and the background worker. Every payload is parsed
 * with the schemas below on the receiving side: handlers parse inputs (content scripts run inside
 * untrusted pages), callers parse outputs (`backgroundClient`).
 *
 * A malformed payload makes the handler throw `InvalidMessageError`; `sendMessage` then rejects with
 * an Error whose `name` is `InvalidMessageError`.
 */

export const clearCacheRequestSchema = z
  .object({ area: z.enum(['session', 'local', 'all']).optional() })
  .optional();
export type ClearCacheRequest = z.infer<typeof clearCacheRequestSchema>;

export const clearCacheResultSchema = z.object({ cleared: z.int().nonnegative() });
export type ClearCacheResult = z.infer<typeof clearCacheResultSchema>;

export const noInputSchema = z.undefined().or(z.null()).transform(() => undefined);

/** Badge strings of the reader's language, for the content script (which bundles no catalog). */
export const badgeTextSchema = z.object({
  locale: z.string().min(2).max(35),
  strings: z.record(z.string().max(100), z.string().max(MAX_BADGE_STRING)),
});
export type BadgeTextPayload = z.infer<typeof badgeTextSchema>;

export interface ProtocolMap {
  /** Cached while fresh, else one budgeted fetch. Extension pages only (popup, side panel, card). */
  getSnapshot(request: SnapshotRequest): SnapshotResult;
  /** The same, reduced to what a badge shows. The content script's only way to load a snapshot. */
  getBadge(request: SnapshotRequest): BadgeSummary;
  /** An explicit user action: bypasses the cache (still budgeted and coalesced). */
  refreshSnapshot(request: SnapshotRequest): SnapshotResult;
  /** Cache only, never a fetch: badges of links already seen. null = nothing fresh cached. */
  peekSnapshot(request: SnapshotRequest): PeekResult;
  /** Effective settings (user merged with managed policy, with locked flags). */
  getSettings(): EffectiveSettings;
  /**
   * The same for a content script, answered at once even while the browser's first read of the
   * administrator policy is pending (then `settled: false`; ask `getSettings` for the settled ones).
   */
  getPageSettings(): PageSettings;
  /** The badge strings and locale of the language the reader chose. */
  getBadgeText(): BadgeTextPayload;
  /** Extension pages only: everything in the active cache. */
  listCached(): CachedSummary[];
  /** Extension pages only. */
  clearCache(request?: ClearCacheRequest): ClearCacheResult;
}

export const protocolSchemas = {
  getSnapshot: { input: snapshotRequestSchema, output: snapshotResultSchema },
  getBadge: { input: snapshotRequestSchema, output: badgeSummarySchema },
  refreshSnapshot: { input: snapshotRequestSchema, output: snapshotResultSchema },
  peekSnapshot: { input: snapshotRequestSchema, output: peekResultSchema },
  getSettings: { input: noInputSchema, output: effectiveSettingsSchema },
  getPageSettings: { input: noInputSchema, output: pageSettingsSchema },
  getBadgeText: { input: noInputSchema, output: badgeTextSchema },
  listCached: { input: noInputSchema, output: z.array(cachedSummarySchema) },
  clearCache: { input: clearCacheRequestSchema, output: clearCacheResultSchema },
} satisfies Record<keyof ProtocolMap, { input: z.ZodType; output: z.ZodType }>;

export type MessageType = keyof ProtocolMap;

export const messenger = defineExtensionMessaging<ProtocolMap>();
export const { sendMessage, onMessage } = messenger;

/** Calls the background and parses what comes back, so a caller never trusts an unchecked shape. */
export const backgroundClient = {
  getSnapshot: async (request: SnapshotRequest) =>
    snapshotResultSchema.parse(await sendMessage('getSnapshot', request)),
  refreshSnapshot: async (request: SnapshotRequest) =>
    snapshotResultSchema.parse(await sendMessage('refreshSnapshot', request)),
  peekSnapshot: async (request: SnapshotRequest) => peekResultSchema.parse(await sendMessage('peekSnapshot', request)),
  getSettings: async () => effectiveSettingsSchema.parse(await sendMessage('getSettings')),
  listCached: async () => z.array(cachedSummarySchema).parse(await sendMessage('listCached')),
  clearCache: async (request?: ClearCacheRequest) =>
    clearCacheResultSchema.parse(await sendMessage('clearCache', request)),
};
