import { defineExtensionMessaging, type ExtensionMessenger } from '@webext-core/messaging';
import { z } from 'zod';
import { isValidTokenShape } from '../core/token';

/**
 * Which share links a tab's content script found, for the popup and the side panel.
 *
 * - `listPageLinks`: an extension page asks one tab's top frame (`tabs.sendMessage`, frameId 0); the
 *   content script answers with the links it annotated, one per canonical key.
 * - `pageLinksChanged`: the content script announces (debounced) that its list changed; the sender's
 *   tab tells the listener which tab. It carries no data: listeners ask `listPageLinks` again.
 *
 * The content script's side stays zod-free (15 KB budget): it imports only `pageLinksMessenger` and
 * the types here; the schemas are built lazily, so bundlers drop zod from the content script. The
 * receivers (popup, side panel) parse every answer with zod.
 */

export interface PageLink {
  /** The configured service origin the link points to. */
  origin: string;
  token: string;
  kind: 'api' | 'share';
  /** One key per (origin, token), whatever form or wrapper the link came in. */
  canonicalKey: string;
}

export interface PageLinksProtocolMap {
  listPageLinks(): PageLink[];
  pageLinksChanged(): void;
}

/** Most links one answer may carry (a CRM list view can be long; more than this is not a list). */
export const MAX_PAGE_LINKS = 2000;

/** How long the content script waits for the page to settle before announcing a change. */
export const PAGE_LINKS_CHANGED_DEBOUNCE_MS = 500;

export const pageLinksMessenger: ExtensionMessenger<PageLinksProtocolMap> = defineExtensionMessaging<PageLinksProtocolMap>();

let schemas: { pageLinks: z.ZodType<PageLink[]>; sender: z.ZodType<{ tabId?: number | undefined }> } | null = null;

/** Built on first use, so a module that only imports the messenger never pulls zod in. */
function pageLinkSchemas() {
  schemas ??= {
    pageLinks: z
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
      }),
    sender: z
      .object({ tab: z.object({ id: z.int().optional().catch(undefined) }).optional().catch(undefined) })
      .transform((sender) => ({ tabId: sender.tab?.id }))
      .catch({ tabId: undefined }),
  };
  return schemas;
}

export function parsePageLinks(value: unknown): PageLink[] {
  return pageLinkSchemas().pageLinks.parse(value);
}

/** The tab a `pageLinksChanged` came from, or undefined (not from a content script in a tab). */
export function senderTabId(sender: unknown): number | undefined {
  return pageLinkSchemas().sender.parse(sender).tabId;
}

/** For extension pages: asks a tab's top frame, parses the answer. Rejects when no content script answers. */
export async function listPageLinks(
  tabId: number,
  messenger: ExtensionMessenger<PageLinksProtocolMap> = pageLinksMessenger,
): Promise<PageLink[]> {
  return parsePageLinks(await messenger.sendMessage('listPageLinks', undefined, { tabId, frameId: 0 }));
}

/** For extension pages: calls `onChange(tabId)` when a tab's content script reports new links. */
export function watchPageLinks(
  onChange: (tabId: number) => void,
  messenger: ExtensionMessenger<PageLinksProtocolMap> = pageLinksMessenger,
): () => void {
  return messenger.onMessage('pageLinksChanged', ({ sender }) => {
    const tabId = senderTabId(sender);
    if (tabId !== undefined) onChange(tabId);
  });
}

// ---- The content script's side (no zod here) ----

/** What the content-script engine exposes (lib/content `Annotator` fits). */
export interface PageLinksSource {
  links(): readonly { origin: string; token: string; canonicalKey: string; kind?: unknown }[];
  /** Work still queued; the list is complete once this is 0. */
  readonly pendingWork: number;
  /** Calls `listener` whenever the list may have changed. Returns an unsubscribe function. */
  watchLinks(listener: () => void): () => void;
}

export interface ServePageLinksOptions {
  /** The engine, once started (null: not started, so nothing found). */
  source: Promise<PageLinksSource | null>;
  messenger?: ExtensionMessenger<PageLinksProtocolMap>;
  debounceMs?: number;
  /** Longest an answer waits for queued DOM work (a huge page) before answering with what it has. */
  settleTimeoutMs?: number;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function toPageLinks(source: PageLinksSource): PageLink[] {
  return source
    .links()
    .slice(0, MAX_PAGE_LINKS)
    .map(({ origin, token, canonicalKey, kind }) => ({ origin, token, canonicalKey, kind: kind === 'api' ? 'api' : 'share' }));
}

/**
 * Answers `listPageLinks` from the engine and announces changes. A change the engine reports arms one
 * timer; when it fires, the list is compared with the last one announced, so a burst of changes costs
 * one comparison per `debounceMs`, and only a real change sends a message. (No DOM observer of its
 * own: the engine already watches the page, and a second observer made every page mutation cost twice.)
 * Returns a stop function.
 */
export function servePageLinks(options: ServePageLinksOptions): () => void {
  const messenger = options.messenger ?? pageLinksMessenger;
  const debounceMs = options.debounceMs ?? PAGE_LINKS_CHANGED_DEBOUNCE_MS;
  const settleTimeoutMs = options.settleTimeoutMs ?? 2000;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let announced = '';

  const removeHandler = messenger.onMessage('listPageLinks', async () => {
    const source = await options.source;
    if (!source) return [];
    for (let waited = 0; source.pendingWork > 0 && waited < settleTimeoutMs; waited += 50) await wait(50);
    return toPageLinks(source);
  });

  function check(source: PageLinksSource): void {
    timer = undefined;
    if (stopped) return;
    if (source.pendingWork > 0) return arm(source);
    const signature = source
      .links()
      .map((link) => link.canonicalKey)
      .join('\n');
    if (signature === announced) return;
    announced = signature;
    // Nobody may be listening (no side panel open): that is fine.
    messenger.sendMessage('pageLinksChanged').catch(() => undefined);
  }

  function arm(source: PageLinksSource): void {
    if (timer === undefined && !stopped) timer = setTimeout(() => check(source), debounceMs);
  }

  let unwatch: (() => void) | undefined;
  void options.source.then((source) => {
    if (!source || stopped) return;
    unwatch = source.watchLinks(() => arm(source));
    arm(source);
  });

  return () => {
    stopped = true;
    clearTimeout(timer);
    unwatch?.();
    removeHandler();
  };
}
