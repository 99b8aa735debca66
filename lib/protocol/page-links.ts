import { defineExtensionMessaging, type ExtensionMessenger } from '@webext-core/messaging';
import { z } from 'zod';
import { MAX_PAGE_LINKS } from '../core/limits';
import { isValidTokenShape } from '../core/token';
import type { ProtocolMapOf } from './define';
import { noInput } from './schemas';

/**
 * Popup and side panel ↔ the content script of a tab: which share links the tab's page holds.
 *
 * - `listPageLinks`: an extension page asks one tab's top frame (`tabs.sendMessage`, frameId 0); the
 *   content script answers with the links it annotated, one per canonical key.
 * - `pageLinksChanged`: the content script announces (debounced) that its list changed; the sender's
 *   tab tells the listener which tab. It carries no data: listeners ask `listPageLinks` again.
 *
 * The content script imports this module for its types alone; the extension pages parse every
 * answer with the schemas here (the content script runs inside an untrusted page).
 */
export interface PageLink {
  /** The configured service origin the link points to. */
  origin: string;
  token: string;
  kind: 'api' | 'share';
  /** One key per (origin, token), whatever form or wrapper the link came in. */
  canonicalKey: string;
}

const pageLinksSchema = z
  .array(
    z.object({
      origin: z.string().min(1).max(2048),
      token: z.string().refine(isValidTokenShape, 'token of valid shape'),
      kind: z.enum(['api', 'share']),
      canonicalKey: z.string().min(1).max(4096),
    }),
  )
  .max(MAX_PAGE_LINKS)
  // Deduplicated again on this side: the content script runs inside an untrusted page.
  .transform((links) => {
    const seen = new Set<string>();
    return links.filter((link) => !seen.has(link.canonicalKey) && seen.add(link.canonicalKey));
  }) satisfies z.ZodType<PageLink[]>;

export const pageLinksProtocol = {
  listPageLinks: { input: noInput, output: pageLinksSchema },
  pageLinksChanged: { input: noInput, output: z.undefined() },
} as const;

export type PageLinksProtocolMap = ProtocolMapOf<typeof pageLinksProtocol>;

export const pageLinksMessenger: ExtensionMessenger<PageLinksProtocolMap> = defineExtensionMessaging<PageLinksProtocolMap>();

/** The tab a `pageLinksChanged` came from, or undefined (not from a content script in a tab). */
const senderSchema = z
  .object({
    tab: z
      .object({ id: z.int().optional().catch(undefined) })
      .optional()
      .catch(undefined),
  })
  .transform((sender) => sender.tab?.id)
  .catch(undefined);

export function senderTabId(sender: unknown): number | undefined {
  return senderSchema.parse(sender);
}

/** Asks a tab's top frame and parses the answer. Rejects when no content script answers. */
export async function listPageLinks(
  tabId: number,
  messenger: ExtensionMessenger<PageLinksProtocolMap> = pageLinksMessenger,
): Promise<PageLink[]> {
  return pageLinksProtocol.listPageLinks.output.parse(
    await messenger.sendMessage('listPageLinks', undefined, { tabId, frameId: 0 }),
  );
}

/** Calls `onChange(tabId)` when a tab's content script reports new links. */
export function watchPageLinks(
  onChange: (tabId: number) => void,
  messenger: ExtensionMessenger<PageLinksProtocolMap> = pageLinksMessenger,
): () => void {
  return messenger.onMessage('pageLinksChanged', ({ sender }) => {
    const tabId = senderTabId(sender);
    if (tabId !== undefined) onChange(tabId);
  });
}
