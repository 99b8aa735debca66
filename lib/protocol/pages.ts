import { defineExtensionMessaging } from '@webext-core/messaging';
import { z } from 'zod';
import { MAX_PEEK_BATCH, WATCHLIST_LIMITS } from '../core/limits';
import { cachedSummarySchema, peekResultSchema, snapshotRequestSchema, snapshotResultSchema } from '../core/schemas/results';
import { effectiveSettingsSchema } from '../core/schemas/settings';
import {
  watchChangeSchema,
  watchIdSchema,
  watchPointSchema,
  watchRecordSchema,
  watchSettingsSchema,
} from '../core/schemas/watchlist';
import { protocolClient } from './client';
import type { ProtocolMapOf } from './define';
import { noInput } from './schemas';

/**
 * The watchlist (lib/background/watchlist): every message names a watch by its id, except those
 * that start from a link. Watching fetches nothing (the snapshot shown is taken from the cache); the
 * refreshes are the user's own and each counts one view.
 */
const byId = z.strictObject({ id: watchIdSchema });
const watches = z.array(watchRecordSchema).max(WATCHLIST_LIMITS.maxWatches);
const points = z.array(watchPointSchema).max(WATCHLIST_LIMITS.maxPointsPerWatch);
const watchlistMessages = {
  /** Whether a link is watched (the watch toggle), with the settings its text states. */
  getWatch: {
    input: snapshotRequestSchema,
    output: z.object({ watch: watchRecordSchema.nullable(), settings: watchSettingsSchema }),
  },
  watchLink: { input: snapshotRequestSchema, output: watchRecordSchema },
  /** Stops watching and deletes the watch's history. */
  unwatchLink: { input: byId, output: z.object({ removed: z.boolean() }) },
  listWatches: {
    input: noInput,
    output: z.object({ watches, unreadable: z.int().nonnegative(), settings: watchSettingsSchema }),
  },
  getWatchHistory: { input: byId, output: z.object({ watch: watchRecordSchema, points }) },
  /** Every watch with its whole history (for export). */
  exportWatchlist: {
    input: noInput,
    output: z.object({ watches: z.array(z.object({ watch: watchRecordSchema, points })).max(WATCHLIST_LIMITS.maxWatches) }),
  },
  refreshWatch: { input: byId, output: z.object({ watch: watchRecordSchema, changes: z.array(watchChangeSchema) }) },
  refreshAllWatches: {
    input: noInput,
    output: z.object({ refreshed: z.int().nonnegative(), ended: z.int().nonnegative(), failed: z.int().nonnegative() }),
  },
  setWatchMuted: { input: z.strictObject({ id: watchIdSchema, muted: z.boolean() }), output: watchRecordSchema },
  /** Deletes every watch and all history. */
  clearWatchlist: { input: noInput, output: z.object({ removed: z.int().nonnegative() }) },
} as const;

/**
 * Extension pages (popup, side panel, options, the card) ↔ background. Only extension pages may
 * send these: they carry whole snapshots, which never enter a host page's renderer.
 */
export const pagesProtocol = {
  /** Cached while fresh, else one budgeted fetch (one view). */
  getSnapshot: { input: snapshotRequestSchema, output: snapshotResultSchema },
  /** An explicit user action: bypasses the cache (still budgeted and coalesced). */
  refreshSnapshot: { input: snapshotRequestSchema, output: snapshotResultSchema },
  /** Cache only, never a fetch, for many links at once: null = nothing fresh cached. */
  peekSnapshots: { input: z.array(snapshotRequestSchema).max(MAX_PEEK_BATCH), output: z.array(peekResultSchema) },
  /** Effective settings (user merged with the administrator policy, with locked flags). */
  getSettings: { input: noInput, output: effectiveSettingsSchema },
  /** Everything in the active cache. */
  listCached: { input: noInput, output: z.array(cachedSummarySchema) },
  /** The frames (besides the top one) of a tab that reported share links: the popup asks them too. */
  listLinkFrames: { input: z.strictObject({ tabId: z.int().nonnegative() }), output: z.array(z.int().positive()) },
  clearCache: {
    input: z.strictObject({ area: z.enum(['session', 'local', 'all']).optional() }).optional(),
    output: z.object({ cleared: z.int().nonnegative() }),
  },
  ...watchlistMessages,
} as const;

export type PagesProtocolMap = ProtocolMapOf<typeof pagesProtocol>;

export const pagesMessenger = defineExtensionMessaging<PagesProtocolMap>();

/** For extension pages: calls the background and parses every answer. */
export const backgroundClient = protocolClient(pagesMessenger, pagesProtocol);
