import type { ExtensionMessenger } from '@webext-core/messaging';
import type { z } from 'zod';
import type { EffectiveSettings, PageSettings } from '../extension/settings';
import type { SnapshotService } from './snapshot-service/service';
import { toBadgeSummary, type SnapshotRequest, type SnapshotResult } from '../core/schemas/results';
import { describeIssues } from './snapshot-service/http';
import { isValidTokenShape } from '../core/token';
import { protocolSchemas, type BadgeTextPayload, type MessageType, type ProtocolMap } from '../protocol/pages';
import { senderContext, type SenderContext, type TabRequestLog } from './sender';

/** A payload that does not match the protocol (forged or from a stale build). */
export class InvalidMessageError extends Error {
  override name = 'InvalidMessageError';
}

/** A message only extension pages may send came from somewhere else (e.g. a content script). */
export class ForbiddenSenderError extends Error {
  override name = 'ForbiddenSenderError';
}

export interface MessageHandlerDeps {
  service: SnapshotService;
  getSettings(): Promise<EffectiveSettings>;
  getPageSettings(): Promise<PageSettings>;
  /** The badge strings of the reader's language (lib/i18n/badge.ts `badgeTextFor`). */
  getBadgeText(): Promise<BadgeTextPayload>;
  /** `browser.runtime.getURL('')` without the trailing slash. */
  extensionOrigin: string;
  /** Remembers which tab asked for which token (for the card iframe). */
  tabLog?: TabRequestLog;
}

type Handler<K extends MessageType> = (data: unknown, sender: unknown) => Promise<ReturnType<ProtocolMap[K]>>;
export type MessageHandlers = { [K in MessageType]: Handler<K> };

function parseInput<K extends MessageType>(type: K, data: unknown): z.output<(typeof protocolSchemas)[K]['input']> {
  const parsed = protocolSchemas[type].input.safeParse(data);
  if (!parsed.success) {
    throw new InvalidMessageError(`Malformed "${type}" message: ${describeIssues(parsed.error)}`);
  }
  // Checked by zod just above; TypeScript cannot narrow the schema union by K.
  return parsed.data as z.output<(typeof protocolSchemas)[K]['input']>;
}

function requireExtensionPage(type: MessageType, context: SenderContext): void {
  if (context.kind !== 'extension-page') {
    throw new ForbiddenSenderError(`"${type}" may only be sent from an extension page.`);
  }
}

/**
 * Handlers take the raw payload and sender (both untrusted) and never throw anything but the two
 * errors above. The service itself re-checks origin and token whatever the handler parsed.
 */
export function createMessageHandlers(deps: MessageHandlerDeps): MessageHandlers {
  async function remember(context: SenderContext, request: SnapshotRequest, result: SnapshotResult): Promise<void> {
    // Only content scripts speak for a tab; extension pages opened as tabs do not.
    if (!deps.tabLog || context.kind !== 'content-script' || context.tabId === undefined) return;
    if (result.status === 'error' && result.code === 'FORBIDDEN_ORIGIN') return;
    if (!isValidTokenShape(request.token)) return;
    try {
      await deps.tabLog.record(context.tabId, request, context.frameId);
    } catch {
      // Bookkeeping must not cost the caller its answer.
    }
  }

  function snapshotHandler(
    type: 'getSnapshot' | 'refreshSnapshot',
    call: (request: SnapshotRequest) => Promise<SnapshotResult>,
  ): Handler<typeof type> {
    return async (data, sender) => {
      const request = parseInput(type, data);
      // Full snapshots go to extension pages only; content scripts ask for badges (getBadge).
      requireExtensionPage(type, senderContext(sender, deps.extensionOrigin));
      return call(request);
    };
  }

  return {
    getSnapshot: snapshotHandler('getSnapshot', (request) => deps.service.getSnapshot(request)),
    async getBadge(data, sender) {
      const request = parseInput('getBadge', data);
      const context = senderContext(sender, deps.extensionOrigin);
      const result = await deps.service.getSnapshot(request);
      await remember(context, request, result);
      return toBadgeSummary(result);
    },
    refreshSnapshot: snapshotHandler('refreshSnapshot', (request) => deps.service.refresh(request)),
    async peekSnapshot(data, sender) {
      const request = parseInput('peekSnapshot', data);
      requireExtensionPage('peekSnapshot', senderContext(sender, deps.extensionOrigin));
      return deps.service.peek(request);
    },
    async getSettings(data) {
      parseInput('getSettings', data);
      return deps.getSettings();
    },
    async getPageSettings(data) {
      parseInput('getPageSettings', data);
      return deps.getPageSettings();
    },
    async getBadgeText(data) {
      parseInput('getBadgeText', data);
      return deps.getBadgeText();
    },
    async listCached(data, sender) {
      parseInput('listCached', data);
      requireExtensionPage('listCached', senderContext(sender, deps.extensionOrigin));
      return deps.service.listCached();
    },
    async clearCache(data, sender) {
      const request = parseInput('clearCache', data);
      requireExtensionPage('clearCache', senderContext(sender, deps.extensionOrigin));
      return { cleared: await deps.service.clearCache(request?.area) };
    },
  };
}

/** Wires the handlers to a messenger (the background calls this once). Returns an unregister function. */
export function registerMessageHandlers(
  deps: MessageHandlerDeps,
  messenger: ExtensionMessenger<ProtocolMap>,
): () => void {
  const handlers = createMessageHandlers(deps);
  const removers = [
    messenger.onMessage('getSnapshot', ({ data, sender }) => handlers.getSnapshot(data, sender)),
    messenger.onMessage('getBadge', ({ data, sender }) => handlers.getBadge(data, sender)),
    messenger.onMessage('refreshSnapshot', ({ data, sender }) => handlers.refreshSnapshot(data, sender)),
    messenger.onMessage('peekSnapshot', ({ data, sender }) => handlers.peekSnapshot(data, sender)),
    messenger.onMessage('getSettings', ({ data, sender }) => handlers.getSettings(data, sender)),
    messenger.onMessage('getPageSettings', ({ data, sender }) => handlers.getPageSettings(data, sender)),
    messenger.onMessage('getBadgeText', ({ data, sender }) => handlers.getBadgeText(data, sender)),
    messenger.onMessage('listCached', ({ data, sender }) => handlers.listCached(data, sender)),
    messenger.onMessage('clearCache', ({ data, sender }) => handlers.clearCache(data, sender)),
  ];
  return () => removers.forEach((remove) => remove());
}
