import { z } from 'zod';
import type { StorageAreaAdapter } from './snapshot-service/storage-area';

/**
 * Who sent a message, parsed from `runtime.MessageSender`. Content scripts carry `sender.tab` and the
 * page's URL; extension pages (popup, options, side panel, the card iframe) carry an extension URL.
 */
const senderSchema = z
  .object({
    id: z.string().optional().catch(undefined),
    url: z.string().optional().catch(undefined),
    frameId: z.int().optional().catch(undefined),
    tab: z.object({ id: z.int().optional().catch(undefined) }).optional().catch(undefined),
  })
  .catch({});

export type SenderKind = 'extension-page' | 'content-script' | 'unknown';

export interface SenderContext {
  kind: SenderKind;
  /** Set for messages from a tab (content scripts, and extension pages framed in a tab). */
  tabId?: number;
  frameId?: number;
}

/** `extensionOrigin` is `browser.runtime.getURL('')` without the trailing slash. */
export function senderContext(sender: unknown, extensionOrigin: string): SenderContext {
  const parsed = senderSchema.parse(sender ?? {});
  const fromExtensionPage =
    parsed.url !== undefined && (parsed.url === extensionOrigin || parsed.url.startsWith(`${extensionOrigin}/`));
  const kind: SenderKind = fromExtensionPage ? 'extension-page' : parsed.tab ? 'content-script' : 'unknown';
  return {
    kind,
    ...(parsed.tab?.id !== undefined ? { tabId: parsed.tab.id } : {}),
    ...(parsed.frameId !== undefined ? { frameId: parsed.frameId } : {}),
  };
}

const TAB_LOG_PREFIX = 'tabRequests:';
const MAX_PER_TAB = 50;
const tabLogSchema = z
  .array(z.object({ origin: z.string(), token: z.string(), frameId: z.int().optional(), at: z.number() }))
  .catch([]);
export type TabRequest = z.infer<typeof tabLogSchema>[number];

/**
 * Which (origin, token) pairs each tab's content script asked for, in storage.session. The hover card
 * (an extension page) will get its token from here, bound to the tab that asked, instead of trusting
 * a URL a page could forge.
 */
export class TabRequestLog {
  constructor(
    private readonly area: StorageAreaAdapter,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async record(tabId: number, request: { origin: string; token: string }, frameId?: number): Promise<void> {
    const key = TAB_LOG_PREFIX + tabId;
    const current = tabLogSchema.parse((await this.area.get([key]))[key] ?? []);
    const next = current.filter((entry) => entry.origin !== request.origin || entry.token !== request.token);
    next.push({ origin: request.origin, token: request.token, at: this.now(), ...(frameId !== undefined ? { frameId } : {}) });
    await this.area.set({ [key]: next.slice(-MAX_PER_TAB) });
  }

  async recent(tabId: number): Promise<TabRequest[]> {
    const key = TAB_LOG_PREFIX + tabId;
    return tabLogSchema.parse((await this.area.get([key]))[key] ?? []);
  }

  async forgetTab(tabId: number): Promise<void> {
    await this.area.remove([TAB_LOG_PREFIX + tabId]);
  }
}
