import { defineExtensionMessaging, type ExtensionMessenger } from '@webext-core/messaging';
import { z } from 'zod';
import {
  badgeSummarySchema,
  peekResultSchema,
  snapshotRequestSchema,
  toBadgeSummary,
  type BadgeSummary,
  type PeekResult,
  type SnapshotRequest,
} from '../core/schemas/results';
import type { StorageAreaAdapter } from '../background/snapshot-service/storage-area';
import { isValidTokenShape } from '../core/token';
import { ForbiddenSenderError, InvalidMessageError } from '../background/messages';
import { noInputSchema } from './pages';
import { senderContext } from '../background/sender';
import { MAX_PEEK_BATCH } from '../core/limits';

/**
 * The hover card's binding to a tab (DESIGN decision 4). The card is a web-accessible page, so any
 * site could frame it with a forged query string: it therefore never reads its token from its URL.
 * The content script tells the background which link it opened the card for (`openCard`); the card
 * page asks `getCardForTab` and gets the link bound to its own tab, as the browser reports the sender.
 */
export interface CardProtocolMap {
  /**
   * Extension pages (popup, side panel): cache-only look-ups for many links at once (never a fetch).
   * One message per batch of links instead of one per link.
   */
  peekSnapshots(requests: SnapshotRequest[]): PeekResult[];
  /** Content scripts: the same, reduced to what a badge shows (null = nothing cached). */
  peekBadges(requests: SnapshotRequest[]): (BadgeSummary | null)[];
  /** Content scripts only: "my tab's card now shows this link". */
  openCard(request: SnapshotRequest): { ok: true };
  /** Content scripts only: the card was closed; forget the binding. */
  closeCard(): { ok: true };
  /** Extension pages framed in a tab (the card): which link to show. null = none. */
  getCardForTab(): SnapshotRequest | null;
}

export const cardProtocolSchemas = {
  peekSnapshots: { input: z.array(snapshotRequestSchema).max(MAX_PEEK_BATCH), output: z.array(peekResultSchema) },
  peekBadges: { input: z.array(snapshotRequestSchema).max(MAX_PEEK_BATCH), output: z.array(badgeSummarySchema.nullable()) },
  openCard: { input: snapshotRequestSchema, output: z.object({ ok: z.literal(true) }) },
  closeCard: { input: noInputSchema, output: z.object({ ok: z.literal(true) }) },
  getCardForTab: { input: noInputSchema, output: snapshotRequestSchema.nullable() },
} satisfies Record<keyof CardProtocolMap, { input: z.ZodType; output: z.ZodType }>;

export const cardMessenger = defineExtensionMessaging<CardProtocolMap>();

/** For the card page: parses what the background answers. */
export const cardClient = {
  getCardForTab: async () => cardProtocolSchemas.getCardForTab.output.parse(await cardMessenger.sendMessage('getCardForTab')),
};

const CARD_KEY_PREFIX = 'cardForTab:';
const bindingSchema = z.object({ origin: z.string(), token: z.string(), at: z.number() });

export interface CardHandlerDeps {
  /** storage.session: bindings survive a service-worker restart, not a browser restart. */
  area: StorageAreaAdapter;
  /** `browser.runtime.getURL('')` without the trailing slash. */
  extensionOrigin: string;
  /** The snapshot service's cache-only look-up (`service.peek`). */
  peek(request: SnapshotRequest): Promise<PeekResult>;
  /** Bindings older than this are ignored (a card left open for hours re-asks the page). */
  maxAgeMs?: number;
  now?: () => number;
}

type CardHandlers = {
  [K in keyof CardProtocolMap]: (data: unknown, sender: unknown) => Promise<ReturnType<CardProtocolMap[K]>>;
};

function parse<T>(schema: z.ZodType<T>, type: string, data: unknown): T {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new InvalidMessageError(`Malformed "${type}" message.`);
  return parsed.data;
}

export function createCardHandlers(deps: CardHandlerDeps): CardHandlers {
  const now = deps.now ?? (() => Date.now());
  const maxAgeMs = deps.maxAgeMs ?? 12 * 3600_000;

  function tabOf(type: string, sender: unknown, kind: 'content-script' | 'extension-page'): number {
    const context = senderContext(sender, deps.extensionOrigin);
    if (context.kind !== kind || context.tabId === undefined) {
      throw new ForbiddenSenderError(`"${type}" may only be sent from a ${kind} in a tab.`);
    }
    return context.tabId;
  }

  // The service re-checks each origin and token; a bad entry answers null, not the whole batch.
  const peekAll = (requests: SnapshotRequest[]) =>
    Promise.all(requests.map((request) => deps.peek(request).catch((): PeekResult => null)));

  return {
    async peekSnapshots(data, sender) {
      const requests = parse(cardProtocolSchemas.peekSnapshots.input, 'peekSnapshots', data);
      if (senderContext(sender, deps.extensionOrigin).kind !== 'extension-page') {
        throw new ForbiddenSenderError('"peekSnapshots" may only be sent from an extension page.');
      }
      return peekAll(requests);
    },
    async peekBadges(data) {
      const requests = parse(cardProtocolSchemas.peekBadges.input, 'peekBadges', data);
      return (await peekAll(requests)).map((result) => (result === null ? null : toBadgeSummary(result)));
    },
    async openCard(data, sender) {
      const request = parse(cardProtocolSchemas.openCard.input, 'openCard', data);
      if (!isValidTokenShape(request.token)) throw new InvalidMessageError('Malformed "openCard" message (token).');
      const tabId = tabOf('openCard', sender, 'content-script');
      await deps.area.set({ [CARD_KEY_PREFIX + tabId]: { ...request, at: now() } });
      return { ok: true };
    },
    async closeCard(data, sender) {
      parse(cardProtocolSchemas.closeCard.input, 'closeCard', data);
      const tabId = tabOf('closeCard', sender, 'content-script');
      await deps.area.remove([CARD_KEY_PREFIX + tabId]);
      return { ok: true };
    },
    async getCardForTab(data, sender) {
      parse(cardProtocolSchemas.getCardForTab.input, 'getCardForTab', data);
      const tabId = tabOf('getCardForTab', sender, 'extension-page');
      const key = CARD_KEY_PREFIX + tabId;
      const binding = bindingSchema.safeParse((await deps.area.get([key]))[key]);
      if (!binding.success || now() - binding.data.at > maxAgeMs) return null;
      return { origin: binding.data.origin, token: binding.data.token };
    },
  };
}

/**
 * Registers the card handlers on their own messenger (the background calls this once). Returns a
 * function that unregisters them and forgets a closed tab's binding on `forgetTab`.
 */
export function registerCardHandlers(
  deps: CardHandlerDeps,
  messenger: ExtensionMessenger<CardProtocolMap> = cardMessenger,
): { unregister(): void; forgetTab(tabId: number): Promise<void> } {
  const handlers = createCardHandlers(deps);
  const removers = [
    messenger.onMessage('peekSnapshots', ({ data, sender }) => handlers.peekSnapshots(data, sender)),
    messenger.onMessage('peekBadges', ({ data, sender }) => handlers.peekBadges(data, sender)),
    messenger.onMessage('openCard', ({ data, sender }) => handlers.openCard(data, sender)),
    messenger.onMessage('closeCard', ({ data, sender }) => handlers.closeCard(data, sender)),
    messenger.onMessage('getCardForTab', ({ data, sender }) => handlers.getCardForTab(data, sender)),
  ];
  return {
    unregister: () => removers.forEach((remove) => remove()),
    forgetTab: (tabId) => deps.area.remove([CARD_KEY_PREFIX + tabId]),
  };
}
