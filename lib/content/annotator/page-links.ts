import { MAX_PAGE_LINKS } from '../../core/limits';
import type { PageLink, PageLinksProtocolMap } from '../../protocol/page-links';
import { contentMessenger, type ContentMessenger } from '../shared/messaging';

/**
 * The content script's side of lib/protocol/page-links.ts: answers `listPageLinks` for the popup and
 * side panel, and announces changes. Types only from the protocol module: no zod in this bundle.
 */

const pageLinksMessenger = contentMessenger<PageLinksProtocolMap>();

/** How long the content script waits for the page to settle before announcing a change. */
export const PAGE_LINKS_CHANGED_DEBOUNCE_MS = 500;

/** What the content-script engine exposes (lib/content `Annotator` fits). */
export interface PageLinksSource {
  /** With `inPageOrder`, sorted as the page shows them (costs a sort: only for an answer). */
  links(inPageOrder?: boolean): readonly PageLink[];
  /** Work still queued; the list is complete once this is 0. */
  readonly pendingWork: number;
  /** Calls `listener` whenever the list may have changed. Returns an unsubscribe function. */
  watchLinks(listener: () => void): () => void;
}

export interface ServePageLinksOptions {
  /** The engine, once started (null: not started, so nothing found). */
  source: Promise<PageLinksSource | null>;
  messenger?: ContentMessenger<PageLinksProtocolMap>;
  debounceMs?: number;
  /** Longest an answer waits for queued DOM work (a huge page) before answering with what it has. */
  settleTimeoutMs?: number;
  /** Aborted when the content script stops: no more answers or announcements. */
  signal: AbortSignal;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function toPageLinks(source: PageLinksSource): PageLink[] {
  return (
    source
      .links(true)
      .slice(0, MAX_PAGE_LINKS)
      // Only what the protocol carries (a recognised link also holds its service and API URL).
      .map(({ origin, token, canonicalKey, kind, text }) => ({ origin, token, canonicalKey, kind, ...(text ? { text } : {}) }))
  );
}

/**
 * Answers `listPageLinks` from the engine and announces changes. A change the engine reports arms one
 * timer; when it fires, the list is compared with the last one announced, so a burst of changes costs
 * one comparison per `debounceMs`, and only a real change sends a message. (No DOM observer of its
 * own: the engine already watches the page, and a second observer made every page mutation cost twice.)
 * Serves until `signal` aborts.
 */
export function servePageLinks(options: ServePageLinksOptions): void {
  const messenger = options.messenger ?? pageLinksMessenger;
  const debounceMs = options.debounceMs ?? PAGE_LINKS_CHANGED_DEBOUNCE_MS;
  const settleTimeoutMs = options.settleTimeoutMs ?? 2000;
  const { signal } = options;
  if (signal.aborted) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let announced = '';

  const removeHandler = messenger.answer('listPageLinks', async () => {
    // An engine still starting (its settings not answered yet) answers with none instead of keeping the popup waiting.
    const source = await Promise.race([options.source, wait(settleTimeoutMs).then(() => null)]);
    if (!source) return [];
    for (let waited = 0; source.pendingWork > 0 && waited < settleTimeoutMs; waited += 50) await wait(50);
    return toPageLinks(source);
  });

  function check(source: PageLinksSource): void {
    timer = undefined;
    if (signal.aborted) return;
    if (source.pendingWork > 0) return arm(source);
    const signature = source
      .links()
      .map((link) => link.canonicalKey)
      .join('\n');
    if (signature === announced) return;
    announced = signature;
    // Nobody may be listening (no side panel open): that is fine.
    messenger.send('pageLinksChanged').catch(() => undefined);
  }

  function arm(source: PageLinksSource): void {
    if (timer === undefined && !signal.aborted) timer = setTimeout(() => check(source), debounceMs);
  }

  void options.source.then((source) => {
    if (!source || signal.aborted) return;
    const unwatch = source.watchLinks(() => arm(source));
    signal.addEventListener('abort', unwatch, { once: true });
    arm(source);
  });

  signal.addEventListener(
    'abort',
    () => {
      clearTimeout(timer);
      removeHandler();
    },
    { once: true },
  );
}
