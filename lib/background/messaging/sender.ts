import { z } from 'zod';

/**
 * Who sent a message, parsed from `runtime.MessageSender`. Content scripts carry `sender.tab` and the
 * page's URL; extension pages (popup, options, side panel, the card iframe) carry an extension URL.
 */
const senderSchema = z
  .object({
    url: z.string().optional().catch(undefined),
    frameId: z.int().optional().catch(undefined),
    documentId: z.string().max(200).optional().catch(undefined),
    tab: z
      .object({ id: z.int().optional().catch(undefined) })
      .optional()
      .catch(undefined),
  })
  .catch({});

export type SenderKind = 'extension-page' | 'content-script' | 'unknown';

export interface SenderContext {
  kind: SenderKind;
  /** Set for messages from a tab (content scripts, and extension pages framed in a tab). */
  tabId?: number;
  frameId?: number;
  /** The sending document (Chrome; Firefox has none): outlives nothing, unlike a frame id. */
  documentId?: string;
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
    ...(parsed.documentId !== undefined ? { documentId: parsed.documentId } : {}),
  };
}
