import { defineExtensionMessaging, type ExtensionMessenger } from '@webext-core/messaging';
import { z } from 'zod';
import { MAX_PAGE_LINK_TEXT, MAX_PAGE_LINKS } from '../core/limits';
import { isValidTokenShape } from '../core/token';
import type { ProtocolMapOf } from './define';
import { noInput } from './schemas';

/**
 * Popup and side panel ↔ the content script of a tab: which share links the tab's page holds.
 *
 * - `listPageLinks`: an extension page asks a tab's frames (`tabs.sendMessage` with a frameId: the top
 *   frame, and the frames the background saw report links); each content script answers with the
 *   links it annotated, one per canonical key; the lists are merged without duplicates.
 * - `pageLinksChanged`: a content script announces (debounced) that its list changed; the sender's
 *   tab and frame tell the listener where. It carries no data: listeners ask `listPageLinks` again.
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
  /** The link's own words on the page (whitespace collapsed; absent for a link without text). */
  text?: string;
}

const pageLinksSchema = z
  .array(
    z.object({
      origin: z.string().min(1).max(2048),
      token: z.string().refine(isValidTokenShape, 'token of valid shape'),
      kind: z.enum(['api', 'share']),
      canonicalKey: z.string().min(1).max(4096),
      text: z.string().min(1).max(MAX_PAGE_LINK_TEXT).optional(),
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

/** The tab and frame a `pageLinksChanged` came from, or undefined (not from a content script in a tab). */
const senderSchema = z
  .object({ tab: z.object({ id: z.int() }), frameId: z.int().nonnegative().catch(0) })
  .transform((sender) => ({ tabId: sender.tab.id, frameId: sender.frameId }))
  .optional()
  .catch(undefined);

export function senderFrame(sender: unknown): { tabId: number; frameId: number } | undefined {
  return senderSchema.parse(sender);
}

/**
 * Asks the tab's top frame and `frameIds` (frames that reported links), parses each answer and merges
 * them, one link per canonical key. Rejects when the top frame has no content script; a frame that no
 * longer answers (it navigated, or went away) is passed over.
 */
export async function listPageLinks(
  tabId: number,
  frameIds: readonly number[] = [],
  messenger: ExtensionMessenger<PageLinksProtocolMap> = pageLinksMessenger,
): Promise<PageLink[]> {
  const ask = async (frameId: number) =>
    pageLinksProtocol.listPageLinks.output.parse(await messenger.sendMessage('listPageLinks', undefined, { tabId, frameId }));
  const [top, ...frames] = await Promise.allSettled([0, ...frameIds.filter((frameId) => frameId !== 0)].map(ask));
  if (top?.status === 'rejected') throw top.reason instanceof Error ? top.reason : new Error('no content script in the tab');
  const lists = [top, ...frames].flatMap((answer) => (answer?.status === 'fulfilled' ? [answer.value] : []));
  const seen = new Set<string>();
  return lists
    .flat()
    .filter((link) => !seen.has(link.canonicalKey) && seen.add(link.canonicalKey))
    .slice(0, MAX_PAGE_LINKS);
}

/** Calls `onChange(tabId, frameId)` when a content script (in any frame) reports new links. */
export function watchPageLinks(
  onChange: (tabId: number, frameId: number) => void,
  messenger: ExtensionMessenger<PageLinksProtocolMap> = pageLinksMessenger,
): () => void {
  return messenger.onMessage('pageLinksChanged', ({ sender }) => {
    const from = senderFrame(sender);
    if (from) onChange(from.tabId, from.frameId);
  });
}
