import { defineExtensionMessaging } from '@webext-core/messaging';
import { z } from 'zod';
import { MAX_PEEK_BATCH } from '../core/limits';
import { cachedSummarySchema, peekResultSchema, snapshotRequestSchema, snapshotResultSchema } from '../core/schemas/results';
import { effectiveSettingsSchema } from '../core/schemas/settings';
import { protocolClient } from './client';
import type { ProtocolMapOf } from './define';
import { noInput } from './schemas';

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
} as const;

export type PagesProtocolMap = ProtocolMapOf<typeof pagesProtocol>;

export const pagesMessenger = defineExtensionMessaging<PagesProtocolMap>();

/** For extension pages: calls the background and parses every answer. */
export const backgroundClient = protocolClient(pagesMessenger, pagesProtocol);
