import { z } from 'zod';
import type { SnapshotRequest } from '../core/schemas/results';
import type { StorageAreaAdapter } from './snapshot-service/storage-area';

const CARD_KEY_PREFIX = 'cardForTab:';
const bindingSchema = z.object({ origin: z.string(), token: z.string(), at: z.number() });

export interface CardBindingDeps {
  /** storage.session: bindings survive a service-worker restart, not a browser restart. */
  area: StorageAreaAdapter;
  /** Bindings older than this are ignored (a card left open for hours re-asks the page). */
  maxAgeMs?: number;
  now?: () => number;
}

export interface CardBindings {
  /** The content script of `tabId` opened its card for `request`. */
  open(tabId: number, request: SnapshotRequest): Promise<void>;
  close(tabId: number): Promise<void>;
  /** The link the card page framed in `tabId` shows; null when none (or too old). */
  forTab(tabId: number): Promise<SnapshotRequest | null>;
}

/** Which link each tab's hover card shows, kept by the background (the card page never trusts its URL). */
export function createCardBindings(deps: CardBindingDeps): CardBindings {
  const now = deps.now ?? (() => Date.now());
  const maxAgeMs = deps.maxAgeMs ?? 12 * 3600_000;
  return {
    async open(tabId, request) {
      await deps.area.set({ [CARD_KEY_PREFIX + tabId]: { origin: request.origin, token: request.token, at: now() } });
    },
    async close(tabId) {
      await deps.area.remove([CARD_KEY_PREFIX + tabId]);
    },
    async forTab(tabId) {
      const key = CARD_KEY_PREFIX + tabId;
      const binding = bindingSchema.safeParse((await deps.area.get([key]))[key]);
      if (!binding.success || now() - binding.data.at > maxAgeMs) return null;
      return { origin: binding.data.origin, token: binding.data.token };
    },
  };
}
