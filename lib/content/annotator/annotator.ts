import { MAX_PAGE_LINK_TEXT } from '../../core/limits';
import { createBadge, type BadgeCallbacks } from './badge';
import { createBadgeFitter } from './badge-fit';
import { describeBadge, type BadgeText } from './badge-view';
import { createInteraction, type Interaction } from './interaction';
import { createLinkScanner, type LinkScanner } from './link-scanner';
import { createLinkStates, type LinkState, type LinkStates } from './link-states';
import { createPeekQueue } from './peek-queue';
import type { AnchorRecognizer, AnnotatableLink, AnnotatorOptions, EngineConfig } from './types';
import { intersectionWatcher } from './visibility';

export type { AnnotatorOptions };

/**
 * The content-script engine (DESIGN decisions 1 and 4): finds share links, draws one badge after
 * each, turns hover intent / Enter / click into a fetch and a card. Detecting a link never fetches:
 * it only peeks at the background's cache. This function only wires the units, each with one job:
 * scanning and the link registry (link-scanner), link states and loading (link-states), cache
 * peeks (peek-queue), gestures and the card (interaction), badges (badge) and viewport watching.
 */
export interface Annotator {
  /** Re-reads every link on the page, e.g. after SPA navigation or when the services changed. */
  rescan(changes?: { recognizer?: AnchorRecognizer; hoverDelayMs?: number }): void;
  /** The reader's language changed: every badge is worded again (no link is looked at again). */
  setText(text: BadgeText): void;
  /** Anchors waiting to be looked at (0 once the DOM work is done). */
  readonly pendingWork: number;
  /**
   * The share links annotated now, one per canonical key, with the first one's words: in the order
   * they were found, or with `inPageOrder` in the page's (a shadow root's links where its host is,
   * nested roots too).
   */
  links(inPageOrder?: boolean): (AnnotatableLink & { text: string })[];
  /** Calls `listener` (synchronously, keep it cheap) whenever `links()` may have changed. */
  watchLinks(listener: () => void): () => void;
}

/** The node, then the hosts of the shadow roots it is in, innermost first. */
function hostChain(node: Node): Node[] {
  const chain = [node];
  for (let root = node.getRootNode(); 'host' in root && root.host instanceof Node; root = root.host.getRootNode())
    chain.push(root.host);
  return chain;
}

/**
 * Page order (issue #33 item 12): two nodes compared in the innermost tree that holds both, a shadow
 * root's nodes where its host is. In `compareDocumentPosition`, 2 is PRECEDING and 4 FOLLOWING.
 */
function comparePageOrder(a: Node, b: Node): number {
  const chainB = hostChain(b);
  for (const x of hostChain(a)) {
    const y = chainB.find((node) => node.getRootNode() === x.getRootNode());
    if (y) {
      const position = x.compareDocumentPosition(y);
      return (position & 2) - (position & 4);
    }
  }
  return 0;
}

/** A link's own words, as a list names it: whitespace collapsed, cut to what a page-links answer carries. */
const wordsOf = (anchor: Element) => (anchor.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_PAGE_LINK_TEXT);

export function createAnnotator(options: AnnotatorOptions): Annotator {
  const config: EngineConfig = {
    ...options,
    sliceBudgetMs: options.sliceBudgetMs ?? 8,
    now: options.now ?? (() => Date.now()),
    isUserEvent: options.isUserEvent ?? ((event) => event.isTrusted),
    rendered: options.rendered ?? (() => false),
  };
  const makeBadge = options.createBadge ?? createBadge;
  let text = options.text;
  const { signal } = options;
  const isStopped = () => signal.aborted;
  const linkListeners = new Set<() => void>();

  const states: LinkStates = createLinkStates(config, (state) => peek(state), isStopped);
  const peek = createPeekQueue(config, states, isStopped);
  /** One callbacks object for every badge: the badge says which one it is. */
  const badgeCallbacks: BadgeCallbacks = {
    onActivate(badge, source) {
      const annotation = scanner.annotationAt(badge.host);
      if (annotation) void interaction.activate(annotation, source);
    },
    onEscape(badge) {
      interaction.reset('escape');
      badge.focus();
    },
  };
  const watchVisibility = options.watchVisibility === undefined ? intersectionWatcher(options.document) : options.watchVisibility;
  const visibility = watchVisibility?.((anchor) => scanner.drawBadgeOf(anchor)) ?? null;
  const fitter = (options.fitBadges === undefined ? createBadgeFitter : options.fitBadges)?.(
    options.document,
    config.scheduler,
    signal,
  ) ?? {
    fit: () => undefined,
  };
  const scanner: LinkScanner = createLinkScanner(config, states, visibility, fitter, {
    newBadge: (doc) =>
      makeBadge(
        doc,
        badgeCallbacks,
        (view) => describeBadge(view, text),
        () => text.style,
      ),
    onDropped: (annotation) => interaction.forget(annotation),
    onLinksChanged: () => linkListeners.forEach((listener) => listener()),
    onNavigated: () => rescan(),
  });
  const interaction: Interaction = createInteraction(config, scanner, states);
  // A link fetched (by its card here, or elsewhere): its badges follow.
  config.client.listenChanges((key, view) => {
    const state = states.find(key);
    if (state) states.show(state, view);
  }, signal);

  function rescan(changes: { recognizer?: AnchorRecognizer; hoverDelayMs?: number } = {}): void {
    if (signal.aborted) return;
    interaction.reset('navigation', changes.hoverDelayMs);
    scanner.rescan(changes.recognizer);
  }
  // The scanner and the interaction stop themselves on the same signal.
  signal.addEventListener(
    'abort',
    () => {
      visibility?.disconnect();
      states.clear();
    },
    { once: true },
  );

  return {
    get pendingWork() {
      return scanner.pendingWork;
    },
    watchLinks(listener) {
      linkListeners.add(listener);
      return () => linkListeners.delete(listener);
    },
    links(inPageOrder) {
      const found = new Map<string, AnnotatableLink & { text: string }>();
      // In page order only when asked (a list for the popup and side panel, not on every change): a sort costs.
      const order = [...scanner.live];
      if (inPageOrder) order.sort((a, b) => comparePageOrder(a.anchor, b.anchor));
      for (const { link, anchor } of order) {
        if (!found.has(link.canonicalKey)) found.set(link.canonicalKey, { ...link, text: wordsOf(anchor) });
      }
      return [...found.values()];
    },
    setText(next) {
      const styled = text.style !== '';
      text = next;
      // The stylesheet came: the badges asked for meanwhile are drawn now.
      if (!styled) scanner.drawWaiting();
      // The badges' own words at once; what the background worded (loaded links) asked for again.
      const worded = new Set<LinkState>();
      for (const annotation of scanner.live) {
        annotation.badge.repaint();
        if (annotation.state.view.state === 'ready' || annotation.state.view.state === 'error') worded.add(annotation.state);
      }
      worded.forEach(peek);
    },
    rescan,
  };
}
