import { MAX_PEEK_BATCH } from '../core/limits';
import { createBadge, BADGE_TAG, type Badge, type BadgeCallbacks } from './badge';
import { describeBadge, IDLE_VIEW, viewFromResult, type BadgeText, type BadgeView } from './badge-view';
import type {
  ActivationSource,
  AnchorRecognizer,
  AnnotatableLink,
  BadgeSnapshotClient,
  CardEvents,
  CardPresenter,
  Scheduler,
  SnapshotRequest,
} from './types';

/**
 * The content-script engine (DESIGN decisions 1 and 4): finds share links, draws one badge after
 * each, turns hover intent / Enter / click into a fetch and a card. Framework-free; every dependency
 * is injected. Detecting a link never fetches: it only peeks at the background's cache.
 */

export interface AnnotatorOptions {
  document: Document;
  recognizer: AnchorRecognizer;
  client: BadgeSnapshotClient;
  createCard(events: CardEvents): CardPresenter;
  scheduler: Scheduler;
  /** How long the pointer must rest on a link or badge before it counts as intent. */
  hoverDelayMs: number;
  /** WCAG 1.4.13: leaving link, badge and card for this long closes a hover-opened card. */
  closeDelayMs?: number;
  /** Work per batch before yielding, so no task grows long on huge pages. */
  sliceBudgetMs?: number;
  /** Concurrent cache-peek messages, and links per message (each message costs main-thread time). */
  peekConcurrency?: number;
  peekBatchSize?: number;
  /** Wall clock for badge texts ("retry in 2 min"). */
  now?: () => number;
  /** Badge strings in the reader's language. */
  text: BadgeText;
  /** Injected by tests to reach into the closed shadow roots. */
  createBadge?: typeof createBadge;
  /**
   * Reports links coming near the viewport, so their badges are drawn then (see `Badge.draw`).
   * Default: an IntersectionObserver with half a viewport of margin; where there is none (tests),
   * every badge is drawn at once.
   */
  watchVisibility?: VisibilityWatcherFactory | null;
  /**
   * Whether a page event is a real user gesture. Default `event.isTrusted`: page scripts can dispatch
   * pointer and key events, and a forged hover must neither cost a view nor drain the request budget
   * (test/e2e/hostile.spec.ts). Unit tests in happy-dom, where every event is synthetic, pass `() => true`.
   */
  isUserEvent?: (event: Event) => boolean;
}

export interface VisibilityWatcher {
  observe(element: Element): void;
  unobserve(element: Element): void;
  disconnect(): void;
}

export type VisibilityWatcherFactory = (onVisible: (element: Element) => void) => VisibilityWatcher;

/** Near the viewport: within half a viewport above or below it. */
function intersectionWatcher(doc: Document): VisibilityWatcherFactory | null {
  const Observer = doc.defaultView?.IntersectionObserver;
  if (!Observer) return null;
  return (onVisible) => {
    const observer = new Observer(
      (entries) => {
        for (const entry of entries) if (entry.isIntersecting) onVisible(entry.target);
      },
      { rootMargin: '50% 0px' },
    );
    return observer;
  };
}

export interface Annotator {
  /** Re-reads every link on the page, e.g. after SPA navigation or when the services changed. */
  rescan(changes?: { recognizer?: AnchorRecognizer; hoverDelayMs?: number }): void;
  /** The reader's language changed: every badge is worded again (no link is looked at again). */
  setText(text: BadgeText): void;
  /** Removes everything: observer, listeners, timers, badges, card. Idempotent. */
  stop(): void;
  /** Anchors waiting to be looked at (0 once the DOM work is done). */
  readonly pendingWork: number;
  /** The share links annotated now, one per canonical key, in the order they were found. */
  links(): AnnotatableLink[];
  /** Calls `listener` (synchronously, keep it cheap) whenever `links()` may have changed. */
  watchLinks(listener: () => void): () => void;
}

interface KeyState {
  readonly request: SnapshotRequest;
  view: BadgeView;
  /**
   * Usually one: an array is a fraction of a Set's size, and hundreds of keys are made per page. The
   * first annotation replaces the empty array (`push` onto an empty one reserves room for 17).
   */
  annotations: Annotation[];
  fetching: boolean;
  cancelRetryTimer: (() => void) | null;
}

interface Annotation {
  readonly anchor: HTMLAnchorElement;
  readonly badge: Badge;
  link: AnnotatableLink;
  key: KeyState;
  /** Times we put the badge back after the page moved or removed it (bounded: no tug of war). */
  repairs: number;
}

const ANCHOR_SELECTOR = 'a[href]';
const WATCHED_ATTRIBUTES = ['href', 'data-saferedirecturl'];
const MAX_REPAIRS = 5;
/** Badges must never be written into something the user is editing (they would be sent). */
const EDITABLE_SELECTOR = '[contenteditable]:not([contenteditable="false"])';

function isAnchor(node: Node): node is HTMLAnchorElement {
  return node.nodeType === 1 && (node as Element).localName === 'a';
}

function removeFrom<T>(list: T[], item: T): void {
  const index = list.indexOf(item);
  if (index !== -1) list.splice(index, 1);
}

function isElement(node: Node): node is Element {
  return node.nodeType === 1;
}

export function createAnnotator(options: AnnotatorOptions): Annotator {
  const doc = options.document;
  const { scheduler, client } = options;
  const closeDelayMs = options.closeDelayMs ?? 300;
  const sliceBudgetMs = options.sliceBudgetMs ?? 8;
  const peekConcurrency = options.peekConcurrency ?? 2;
  const peekBatchSize = options.peekBatchSize ?? MAX_PEEK_BATCH;
  const now = options.now ?? (() => Date.now());
  const makeBadge = options.createBadge ?? createBadge;
  const isUserEvent = options.isUserEvent ?? ((event: Event) => event.isTrusted);
  let recognizer = options.recognizer;
  let text = options.text;
  const describe = (view: BadgeView, at: number) => describeBadge(view, at, text);
  let hoverDelayMs = options.hoverDelayMs;
  /** What a new subtree is searched for: candidate anchors, and page clones of our badges. */
  let searchSelector = searchSelectorFor(recognizer);
  let stopped = false;

  const annotations = new WeakMap<Element, Annotation>();
  /** Our badge hosts (their mutations are not page changes), with the annotation each belongs to. */
  const badgeOwners = new WeakMap<Node, Annotation>();
  /** Strong references, for teardown; pruned when anchors leave the page. */
  const live = new Set<Annotation>();
  /**
   * Every anchor looked at, with the `href` it had: each link is recognised once per change. A change
   * of `data-saferedirecturl` (the other attribute recognition reads) forgets the entry instead.
   */
  let seen = new WeakMap<Element, string | null>();
  const keys = new Map<string, KeyState>();
  const linkListeners = new Set<() => void>();
  /** Set while a slice changes the link list; listeners hear once per slice, not once per link. */
  let linksDirty = false;
  /** Badges are drawn when their link comes near the viewport; null: drawn at once. */
  const visibility =
    (options.watchVisibility === undefined ? intersectionWatcher(doc) : options.watchVisibility)?.((anchor) =>
      drawBadgeOf(anchor),
    ) ?? null;

  function drawBadgeOf(anchor: Element): void {
    visibility?.unobserve(anchor);
    const annotation = annotations.get(anchor);
    if (annotation && live.has(annotation)) annotation.badge.draw();
  }

  // ---- DOM work queue: batched in idle periods, sliced by time ----
  const pendingRoots = new Set<Node>();
  const pendingRemoved: Node[] = [];
  let anchorQueue: Element[] = [];
  let anchorIndex = 0;
  let cancelFlush: (() => void) | null = null;

  function scheduleFlush(): void {
    if (cancelFlush || stopped) return;
    cancelFlush = scheduler.batch(flush);
  }

  function flush(): void {
    cancelFlush = null;
    if (stopped) return;
    const deadline = scheduler.now() + sliceBudgetMs;
    if (pendingRemoved.length > 0) handleRemoved(pendingRemoved.splice(0));
    if (pendingRoots.size > 0) {
      const roots = [...pendingRoots];
      pendingRoots.clear();
      for (const root of roots) expandRoot(root);
    }
    while (anchorIndex < anchorQueue.length) {
      const anchor = anchorQueue[anchorIndex++];
      if (anchor && isAnchor(anchor)) processAnchor(anchor);
      // Checking the clock every 32 anchors keeps its cost out of the hot loop.
      if ((anchorIndex & 31) === 0 && scheduler.now() > deadline) break;
    }
    if (anchorIndex >= anchorQueue.length) {
      anchorQueue = [];
      anchorIndex = 0;
    } else {
      scheduleFlush();
    }
    if (linksDirty) {
      linksDirty = false;
      for (const listener of linkListeners) listener();
    }
  }

  function expandRoot(root: Node): void {
    if (!root.isConnected || badgeOwners.has(root)) return;
    if (isAnchor(root)) {
      anchorQueue.push(root);
      return;
    }
    if (!isElement(root) && root.nodeType !== 9 && root.nodeType !== 11) return;
    if (isElement(root) && root.localName === BADGE_TAG) {
      root.remove(); // a page's clone of one of our badges: empty and inert
      return;
    }
    const found = (root as ParentNode).querySelectorAll(searchSelector);
    // Indexed, not for-of: no iterator objects (hundreds of candidates on a long page).
    for (let index = 0; index < found.length; index += 1) {
      const element = found[index];
      if (element === undefined) continue;
      if (element.localName === BADGE_TAG) {
        if (!badgeOwners.has(element)) element.remove();
      } else {
        anchorQueue.push(element);
      }
    }
  }

  function searchSelectorFor(current: AnchorRecognizer): string {
    const candidates = current.candidateSelector ? current.candidateSelector(doc.baseURI) : ANCHOR_SELECTOR;
    return candidates === null ? BADGE_TAG : `${candidates}, ${BADGE_TAG}`;
  }

  function processAnchor(anchor: HTMLAnchorElement): void {
    if (!anchor.isConnected) return;
    const existing = annotations.get(anchor);
    const href = anchor.getAttribute('href');
    if (seen.get(anchor) === href) {
      if (existing) ensureBadgePlaced(existing);
      return;
    }
    seen.set(anchor, href);
    let link = recognizer.recognizeAnchor(anchor, href);
    if (link && anchor.closest(EDITABLE_SELECTOR)) link = null;
    if (!link) {
      if (existing) dropAnnotation(existing);
      return;
    }
    if (existing) {
      if (existing.link.canonicalKey !== link.canonicalKey) {
        removeFrom(existing.key.annotations, existing);
        existing.link = link;
        existing.key = keyStateFor(link);
        addAnnotation(existing.key, existing);
        existing.badge.render(existing.key.view, now());
        linksDirty = true;
      }
      ensureBadgePlaced(existing);
      return;
    }
    annotate(anchor, link);
  }

  /** One callbacks object for every badge: the badge says which one it is. */
  const badgeCallbacks: BadgeCallbacks = {
    onActivate(badge, source) {
      const annotation = badgeOwners.get(badge.host);
      if (annotation) activate(annotation, source);
    },
    onEscape(badge) {
      if (card?.isOpen) closeCard('escape');
      badge.focus();
    },
  };

  function annotate(anchor: HTMLAnchorElement, link: AnnotatableLink): void {
    const key = keyStateFor(link);
    const annotation: Annotation = { anchor, link, key, repairs: 0, badge: makeBadge(doc, badgeCallbacks, describe) };
    annotations.set(anchor, annotation);
    badgeOwners.set(annotation.badge.host, annotation);
    live.add(annotation);
    linksDirty = true;
    addAnnotation(key, annotation);
    annotation.badge.render(key.view, now());
    anchor.after(annotation.badge.host);
    if (visibility) visibility.observe(anchor);
    else annotation.badge.draw();
  }

  function ensureBadgePlaced(annotation: Annotation): void {
    if (annotation.anchor.nextSibling === annotation.badge.host) return;
    if (annotation.repairs >= MAX_REPAIRS) return;
    annotation.repairs += 1;
    annotation.anchor.after(annotation.badge.host);
  }

  function dropAnnotation(annotation: Annotation): void {
    visibility?.unobserve(annotation.anchor);
    annotation.badge.remove();
    annotations.delete(annotation.anchor);
    live.delete(annotation);
    linksDirty = true;
    removeFrom(annotation.key.annotations, annotation);
    if (hovered === annotation) cancelIntent();
    if (cardFor === annotation) closeCard('replaced');
  }

  function handleRemoved(nodes: Node[]): void {
    if (live.size === 0) return;
    for (const node of nodes) {
      if (node.isConnected || !isElement(node)) continue; // moved, not removed: the added pass sees it
      const owner = badgeOwners.get(node);
      if (owner) {
        // The page removed our badge but kept the link: put it back (a bounded number of times).
        if (owner.anchor.isConnected && live.has(owner)) ensureBadgePlaced(owner);
        continue;
      }
      if (isAnchor(node)) {
        const annotation = annotations.get(node);
        if (annotation) dropAnnotation(annotation);
        continue;
      }
      for (const anchor of node.querySelectorAll(ANCHOR_SELECTOR)) {
        const annotation = annotations.get(anchor);
        if (annotation) dropAnnotation(annotation);
      }
    }
  }

  const observer = new MutationObserver((records) => {
    if (stopped) return;
    let changed = false;
    for (const record of records) {
      if (record.type === 'attributes') {
        if (isAnchor(record.target)) {
          if (record.attributeName !== 'href') seen.delete(record.target);
          pendingRoots.add(record.target);
          changed = true;
        }
        continue;
      }
      // Indexed loops: each of our badge insertions is a record too, and iterators would allocate.
      const added = record.addedNodes;
      for (let index = 0; index < added.length; index += 1) {
        const node = added[index];
        if (node !== undefined && node.nodeType === 1 && !badgeOwners.has(node)) {
          pendingRoots.add(node);
          changed = true;
        }
      }
      if (live.size > 0) {
        const removed = record.removedNodes;
        for (let index = 0; index < removed.length; index += 1) {
          const node = removed[index];
          if (node !== undefined && node.nodeType === 1) {
            pendingRemoved.push(node);
            changed = true;
          }
        }
      }
    }
    if (changed) scheduleFlush();
  });

  // ---- Snapshot state per (origin, token), shared by every badge of that link ----
  const peekQueue: KeyState[] = [];
  let peeksInFlight = 0;

  function addAnnotation(state: KeyState, annotation: Annotation): void {
    if (state.annotations.length === 0) state.annotations = [annotation];
    else state.annotations.push(annotation);
  }

  function keyStateFor(link: AnnotatableLink): KeyState {
    let state = keys.get(link.canonicalKey);
    if (!state) {
      state = {
        request: { origin: link.origin, token: link.token },
        view: IDLE_VIEW,
        annotations: [],
        fetching: false,
        cancelRetryTimer: null,
      };
      keys.set(link.canonicalKey, state);
      peekQueue.push(state);
      pumpPeeks();
    }
    return state;
  }

  let peekScheduled = false;
  /** Peeks go out after the current slice of DOM work, batched. */
  function pumpPeeks(): void {
    if (peekScheduled) return;
    peekScheduled = true;
    queueMicrotask(() => {
      peekScheduled = false;
      sendPeeks();
    });
  }

  function sendPeeks(): void {
    while (!stopped && peeksInFlight < peekConcurrency && peekQueue.length > 0) {
      const batch = peekQueue.splice(0, peekBatchSize).filter((state) => state.view.state === 'idle');
      if (batch.length === 0) continue;
      peeksInFlight += 1;
      client
        .peekMany(batch.map((state) => state.request))
        .then((results) => {
          batch.forEach((state, index) => {
            const result = results[index];
            if (result && !stopped && state.view.state === 'idle') setView(state, viewFromResult(result));
          });
        })
        .catch(() => {
          // A failed peek just leaves the badges idle: hovering still works.
        })
        .finally(() => {
          peeksInFlight -= 1;
          sendPeeks();
        });
    }
  }

  function setView(state: KeyState, view: BadgeView): void {
    state.view = view;
    state.cancelRetryTimer?.();
    state.cancelRetryTimer = null;
    const at = now();
    for (const annotation of state.annotations) annotation.badge.render(view, at);
    if (view.state === 'error' && view.code === 'RATE_LIMITED' && view.retryAt !== undefined && view.retryAt > at) {
      // Once the pause is over, the badge invites a new try instead of showing a stale countdown.
      state.cancelRetryTimer = scheduler.timeout(() => {
        state.cancelRetryTimer = null;
        if (state.view === view) setView(state, IDLE_VIEW);
      }, view.retryAt - at);
    }
  }

  // ---- Intent: hover, Enter/Space, click ----
  let hovered: Annotation | null = null;
  let cancelIntentTimer: (() => void) | null = null;
  let cancelCloseTimer: (() => void) | null = null;
  let cardFor: Annotation | null = null;
  /** Opened by keyboard or click: stays until dismissed, not closed by pointer movement. */
  let cardSticky = false;
  let card: CardPresenter | null = null;
  /** The pointer is on the link or badge whose card is open (tracked from page pointer events). */
  let pointerOnCardOwner = false;

  function getCard(): CardPresenter {
    card ??= options.createCard({
      onCloseRequested(reason) {
        const owner = cardFor;
        const hadFocus = card?.hasFocus() ?? false;
        closeCard(reason);
        if (owner && (hadFocus || reason === 'escape') && live.has(owner)) owner.badge.focus();
      },
      onCardHover(inside) {
        if (inside) {
          cancelIntent();
          cancelClose();
        } else if (!pointerOnCardOwner) {
          // Messages are asynchronous: if the pointer already reached the link or badge, stay open.
          pointerLeftEverything();
        }
      },
    });
    return card;
  }

  function activate(annotation: Annotation, source: ActivationSource): void {
    if (stopped || !live.has(annotation)) return;
    cancelIntent();
    cancelClose();
    const state = annotation.key;
    annotation.badge.draw(); // the card is placed at the badge
    cardFor = annotation;
    cardSticky = source !== 'hover';
    getCard().open(state.request, annotation.badge.host, { focus: source === 'keyboard' });
    if (state.fetching) return;
    state.fetching = true;
    if (state.view.state !== 'ready') setView(state, { state: 'loading' });
    void client
      .get(state.request)
      .then(
        (result) => viewFromResult(result),
        (): BadgeView => ({ state: 'error', code: 'NETWORK' }),
      )
      .then((view) => {
        state.fetching = false;
        if (!stopped) setView(state, view);
      });
  }

  function closeCard(reason: Parameters<CardPresenter['close']>[0]): void {
    cancelClose();
    cardFor = null;
    cardSticky = false;
    if (card?.isOpen) card.close(reason);
  }

  function cancelIntent(): void {
    cancelIntentTimer?.();
    cancelIntentTimer = null;
    hovered = null;
  }

  function cancelClose(): void {
    cancelCloseTimer?.();
    cancelCloseTimer = null;
  }

  function annotationAt(target: EventTarget | null): Annotation | null {
    if (!(target instanceof Element)) return null;
    const owner = badgeOwners.get(target);
    if (owner) return live.has(owner) ? owner : null;
    const anchor = target.closest(ANCHOR_SELECTOR);
    return anchor ? (annotations.get(anchor) ?? null) : null;
  }

  function pointerLeftEverything(): void {
    cancelIntent();
    if (card?.isOpen && !cardSticky && !cancelCloseTimer) {
      cancelCloseTimer = scheduler.timeout(() => {
        cancelCloseTimer = null;
        closeCard('pointer-left');
      }, closeDelayMs);
    }
  }

  function onPointerOver(event: Event): void {
    const annotation = annotationAt(event.target);
    pointerOnCardOwner = annotation !== null && annotation === cardFor;
    if (annotation) {
      if (annotation === cardFor) {
        cancelClose();
        cancelIntent();
        return; // its card is already showing
      }
      if (hovered === annotation) return;
      cancelIntent();
      hovered = annotation;
      cancelIntentTimer = scheduler.timeout(() => {
        cancelIntentTimer = null;
        activate(annotation, 'hover');
      }, hoverDelayMs);
      return;
    }
    if (card?.isOpen && event.target instanceof Node && card.contains(event.target)) {
      cancelIntent();
      cancelClose();
      return;
    }
    pointerLeftEverything();
  }

  function onPointerOut(event: PointerEvent): void {
    // Leaving the window or entering a frame: nothing in this document is hovered any more.
    if (event.relatedTarget === null) {
      pointerOnCardOwner = false;
      pointerLeftEverything();
    }
  }

  function onPointerDown(event: Event): void {
    if (!card?.isOpen || !cardFor) return;
    const target = event.target;
    if (target instanceof Node && card.contains(target)) return;
    if (annotationAt(target) === cardFor) return;
    closeCard('outside');
  }

  /** Keyboard focus on a link draws its badge, so that the badge is the next tab stop. */
  function onFocusIn(event: Event): void {
    const target = event.target;
    if (target instanceof Element && isAnchor(target)) drawBadgeOf(target);
  }

  function onKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Escape' && card?.isOpen) closeCard('escape');
  }

  let cancelReposition: (() => void) | null = null;
  function onViewportChange(): void {
    if (!card?.isOpen || cancelReposition) return;
    cancelReposition = scheduler.frame(() => {
      cancelReposition = null;
      card?.reposition();
    });
  }

  // ---- Start ----
  const listeners = new AbortController();
  const capture = { capture: true, passive: true, signal: listeners.signal };
  const fromUser =
    <E extends Event>(handler: (event: E) => void) =>
    (event: E) => {
      if (isUserEvent(event)) handler(event);
    };
  doc.addEventListener('pointerover', fromUser(onPointerOver), capture);
  doc.addEventListener('pointerout', fromUser(onPointerOut), capture);
  doc.addEventListener('pointerdown', fromUser(onPointerDown), capture);
  doc.addEventListener('keydown', fromUser(onKeyDown), { capture: true, signal: listeners.signal });
  doc.addEventListener('focusin', fromUser(onFocusIn), capture);
  doc.defaultView?.addEventListener('scroll', onViewportChange, capture);
  doc.defaultView?.addEventListener('resize', onViewportChange, capture);

  observer.observe(doc, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: WATCHED_ATTRIBUTES,
  });
  pendingRoots.add(doc);
  scheduleFlush();

  return {
    get pendingWork() {
      return pendingRoots.size + pendingRemoved.length + (anchorQueue.length - anchorIndex);
    },
    watchLinks(listener) {
      linkListeners.add(listener);
      return () => linkListeners.delete(listener);
    },
    links() {
      const found = new Map<string, AnnotatableLink>();
      for (const { link } of live) if (!found.has(link.canonicalKey)) found.set(link.canonicalKey, link);
      return [...found.values()];
    },
    setText(next) {
      text = next;
      for (const annotation of live) annotation.badge.repaint();
    },
    rescan(changes = {}) {
      if (stopped) return;
      if (changes.hoverDelayMs !== undefined) hoverDelayMs = changes.hoverDelayMs;
      if (changes.recognizer) {
        recognizer = changes.recognizer;
        seen = new WeakMap(); // every anchor gets a fresh look with the new services
      }
      searchSelector = searchSelectorFor(recognizer); // new services, or a new base URL after navigation
      cancelIntent();
      closeCard('navigation');
      // Annotated links first: the new selector may no longer pick them, and they must be let go.
      for (const annotation of live) anchorQueue.push(annotation.anchor);
      pendingRoots.add(doc);
      scheduleFlush();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      observer.disconnect();
      visibility?.disconnect();
      listeners.abort();
      cancelFlush?.();
      cancelReposition?.();
      cancelIntent();
      closeCard('stopped');
      for (const state of keys.values()) state.cancelRetryTimer?.();
      for (const annotation of live) annotation.badge.remove();
      live.clear();
      keys.clear();
      pendingRoots.clear();
      pendingRemoved.length = 0;
      anchorQueue = [];
      peekQueue.length = 0;
    },
  };
}
