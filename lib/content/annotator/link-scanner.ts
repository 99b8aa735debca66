/*
 * Longer than 300 lines: the registry of annotations, the observers and the sliced queue share their
 * state (which anchor is annotated, which badge is ours), and each needs the others' view of it.
 */
import { BADGE_TAG, type Badge } from './badge';
import type { BadgeFitter } from './badge-fit';
import { ANCHOR_SELECTOR, anchorsDeep, forEachShadowRoot, isAnchor, isElement, isElementTarget } from '../../dom';
import type { Annotation, LinkStates } from './link-states';
import type { AnchorRecognizer, AnnotatableLink, EngineConfig } from './types';
import type { VisibilityWatcher } from './visibility';
import { watchUpgrades } from './upgrade-watch';

export interface ScannerHooks {
  /** Makes the badge of a new annotation. */
  newBadge: (doc: Document) => Badge;
  /** An annotation is gone (its link left the page or stopped being a share link). */
  onDropped: (annotation: Annotation) => void;
  /** The list of annotated links changed during the last slice (told once per slice). */
  onLinksChanged: () => void;
  /**
   * The document's address changed (a single-page app moved on): seen at the next DOM change, which
   * such a move always brings, so no timer or history hook watches for it.
   */
  onNavigated: () => void;
}

const OBSERVED = { childList: true, subtree: true, attributes: true, attributeFilter: ['href', 'data-saferedirecturl'] };
const MAX_REPAIRS = 5;
/** What can hide a link itself or change how it is laid out (its badge is fitted again). */
const LINK_STYLE = { attributeFilter: ['style', 'class', 'hidden'] }; // `attributes` follows from the filter
/**
 * Work done in the mutation callback itself, before the page is painted: a badge's room is taken in
 * the frame in which its link first appears. What a huge insertion leaves over goes on in idle slices.
 */
const IN_CALLBACK_BUDGET_MS = 40;
/** Badges must never be written into something the user is editing (they would be sent). */
const EDITABLE_SELECTOR = '[contenteditable]:not([contenteditable="false"])';

/** Finds the page's share links and keeps their badges in place as the page changes. */
export interface LinkScanner {
  /** Annotated links now (strong references, pruned when anchors leave the page). */
  readonly live: ReadonlySet<Annotation>;
  /** Anchors waiting to be looked at (0 once the DOM work is done). */
  readonly pendingWork: number;
  /** The live annotation an event target belongs to (the link, something inside it, or its badge host). */
  annotationAt: (target: EventTarget | null) => Annotation | null;
  /** Draws the badge of an annotated anchor (it came near the viewport or got focus), once its stylesheet is known. */
  drawBadgeOf: (anchor: Element) => void;
  /** Draws the badges asked for before the stylesheet came. */
  drawWaiting: () => void;
  /** Looks at every link again: new services, or a new base URL after navigation. */
  rescan: (recognizer?: AnchorRecognizer) => void;
}

/**
 * One mutation observer, work batched in idle periods and sliced by time, each anchor recognised
 * once per change of its `href`: work is proportional to what changed, never to the page. Open
 * shadow roots (nested too) are scanned and observed like the document: a subtree's hosts are
 * found when the subtree is, so a root filled later is seen (closed roots are out of reach).
 */
export function createLinkScanner(
  { document: doc, scheduler, sliceBudgetMs, recognizer: initialRecognizer, signal, rendered }: EngineConfig,
  states: LinkStates,
  /** Badges are drawn when their link comes near the viewport; null: drawn at once. */
  visibility: VisibilityWatcher | null,
  fitter: BadgeFitter,
  hooks: ScannerHooks,
): LinkScanner {
  let recognizer = initialRecognizer;
  /** What a new subtree is searched for: candidate anchors, and page clones of our badges. */
  let searchSelector = selectorFor(recognizer);
  const annotations = new WeakMap<Element, Annotation>();
  /** Our badge hosts (their mutations are not page changes), with the annotation each belongs to. */
  const badgeOwners = new WeakMap<Node, Annotation>();
  const live = new Set<Annotation>();
  /**
   * Every anchor looked at, with the `href` it had: each link is recognised once per change. A change
   * of `data-saferedirecturl` (the other attribute recognition reads) forgets the entry instead.
   */
  let seen = new WeakMap<Element, string | null>();
  /** Set while a slice changes the link list; listeners hear once per slice, not once per link. */
  let linksDirty = false;
  const pendingRoots = new Set<Node>();
  /** Nodes the page added since its last look (not painted yet), and the anchors found in them. */
  const addedNodes = new WeakSet<Node>();
  const addedAnchors = new WeakSet<Element>();

  const pendingRemoved: Node[] = [];
  let anchorQueue: Element[] = [];
  let anchorIndex = 0;
  let cancelFlush: (() => void) | null = null;
  /** Badges asked to be drawn before their stylesheet came. */
  const undrawn = new Set<Annotation>();
  /**
   * Open shadow roots found so far (each observed once), and as a list for a rescan: pruned of roots
   * whose host left the page then, and whenever it doubled (a page that keeps making components).
   */
  const roots = new WeakSet<ShadowRoot>();
  let rootList: ShadowRoot[] = [];
  let pruneAt = 64;
  const pruneRoots = () => {
    rootList = rootList.filter((shadow) => shadow.host.isConnected);
    pruneAt = Math.max(64, rootList.length * 2);
  };
  const refit = (target: EventTarget | null) => {
    const annotation = isElementTarget(target) ? annotations.get(target) : undefined;
    if (annotation && live.has(annotation)) fitter.fit(annotation);
  };
  // A link restyled (hidden, shown, made a block) has its badge fitted again before the next paint.
  const linkStyles = new MutationObserver((records) => records.forEach(({ target }) => refit(target)));
  // A link that a transition or animation moved: a chip out of the flow follows it to where it stopped.
  for (const type of ['transitionend', 'animationend'])
    doc.addEventListener(type, (event) => refit(event.target), { capture: true, signal });

  function selectorFor(current: AnchorRecognizer): string {
    const candidates = current.candidateSelector ? current.candidateSelector(doc.baseURI) : ANCHOR_SELECTOR;
    return candidates === null ? BADGE_TAG : `${candidates}, ${BADGE_TAG}`;
  }

  function scheduleFlush(): void {
    if (cancelFlush || signal.aborted) return;
    cancelFlush = scheduler.batch(flush);
  }

  function flush(budgetMs = sliceBudgetMs): void {
    cancelFlush?.();
    cancelFlush = null;
    if (signal.aborted) return;
    const deadline = scheduler.now() + budgetMs;
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
      // After this task's DOM work (the first look runs while the annotator is being made, before anyone listens).
      queueMicrotask(() => signal.aborted || hooks.onLinksChanged());
    }
  }

  function expandRoot(root: Node): void {
    if (!root.isConnected || badgeOwners.has(root)) return;
    const added = addedNodes.has(root);
    if (isAnchor(root)) {
      if (added) addedAnchors.add(root);
      anchorQueue.push(root);
      return;
    }
    if (!isElement(root) && root.nodeType !== 9 && root.nodeType !== 11) return;
    if (isElement(root) && root.localName === BADGE_TAG) {
      root.remove(); // a page's clone of one of our badges: empty and inert
      return;
    }
    forEachShadowRoot(root as ParentNode, addShadowRoot, upgrades.note);
    queueCandidates(root as ParentNode, added);
  }

  /** The candidate anchors under `root` (not in its shadow roots), queued; page clones of our badges removed. */
  function queueCandidates(root: ParentNode, added: boolean): void {
    const found = root.querySelectorAll(searchSelector);
    // Indexed, not for-of: no iterator objects (hundreds of candidates on a long page).
    for (let index = 0; index < found.length; index += 1) {
      const element = found[index];
      if (element === undefined) continue;
      if (element.localName === BADGE_TAG) {
        if (!badgeOwners.has(element)) element.remove();
      } else {
        if (added) addedAnchors.add(element);
        anchorQueue.push(element);
      }
    }
  }

  /** Observes and scans an open shadow root found in a new subtree (once). */
  function addShadowRoot(shadow: ShadowRoot): void {
    if (roots.has(shadow)) return;
    roots.add(shadow);
    if (rootList.push(shadow) >= pruneAt) pruneRoots();
    observer.observe(shadow, OBSERVED);
    expandRoot(shadow);
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
      if (existing) drop(existing);
      return;
    }
    if (existing) {
      if (existing.link.canonicalKey !== link.canonicalKey) {
        states.detach(existing);
        existing.link = link;
        states.attach(existing, states.of(link));
        linksDirty = true;
      }
      ensureBadgePlaced(existing);
      return;
    }
    annotate(anchor, link);
  }

  function annotate(anchor: HTMLAnchorElement, link: AnnotatableLink): void {
    const state = states.of(link);
    const badge = hooks.newBadge(doc);
    const annotation: Annotation = { anchor, link, state, repairs: 0, badge, late: rendered() && !addedAnchors.has(anchor) };
    annotations.set(anchor, annotation);
    badgeOwners.set(badge.host, annotation);
    live.add(annotation);
    linksDirty = true;
    states.attach(annotation, state);
    anchor.after(badge.host);
    fitter.fit(annotation);
    linkStyles.observe(anchor, LINK_STYLE);
    if (visibility) visibility.observe(anchor);
    else scanner.drawBadgeOf(anchor);
  }

  function ensureBadgePlaced(annotation: Annotation): void {
    if (annotation.anchor.nextSibling === annotation.badge.host || annotation.repairs >= MAX_REPAIRS) return;
    annotation.repairs += 1;
    annotation.anchor.after(annotation.badge.host);
  }

  function drop(annotation: Annotation): void {
    visibility?.unobserve(annotation.anchor);
    undrawn.delete(annotation);
    annotation.badge.remove();
    annotations.delete(annotation.anchor);
    live.delete(annotation);
    linksDirty = true;
    states.detach(annotation);
    hooks.onDropped(annotation);
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
        if (annotation) drop(annotation);
        continue;
      }
      for (const anchor of anchorsDeep(node)) {
        const annotation = annotations.get(anchor);
        if (annotation) drop(annotation);
      }
    }
  }

  const upgrades = watchUpgrades(doc, scheduler, signal, addShadowRoot, () => flush(IN_CALLBACK_BUDGET_MS));
  let address = doc.URL;
  const covered = (node: Node | null) => node !== null && pendingRoots.has(node) && !isAnchor(node);
  const observer = new MutationObserver((records) => {
    if (signal.aborted) return;
    if (doc.URL !== address) {
      address = doc.URL;
      hooks.onNavigated();
    }
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
      // Into a subtree added in this batch (or into its child): that subtree's search finds it. The
      // parser adds a row, its link and the link's words as a record each: reading each one's nodes
      // was half the callback. Not under an anchor: its look does not search inside it.
      const { target } = record;
      if (!covered(target) && !covered(target.parentNode)) {
        // Indexed: each of our badge insertions is a record too, and iterators would allocate.
        const added = record.addedNodes;
        for (let index = 0; index < added.length; index += 1) {
          const node = added[index];
          if (node !== undefined && node.nodeType === 1 && !badgeOwners.has(node)) {
            addedNodes.add(node);
            pendingRoots.add(node);
            changed = true;
          }
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
    if (changed) flush(IN_CALLBACK_BUDGET_MS);
  });
  observer.observe(doc, OBSERVED);

  signal.addEventListener(
    'abort',
    () => {
      observer.disconnect();
      linkStyles.disconnect();
      cancelFlush?.();
      for (const annotation of live) annotation.badge.remove();
      live.clear();
      pendingRoots.clear();
      pendingRemoved.length = 0;
      anchorQueue = [];
    },
    { once: true },
  );

  const scanner: LinkScanner = {
    live,
    get pendingWork() {
      return pendingRoots.size + pendingRemoved.length + (anchorQueue.length - anchorIndex);
    },
    annotationAt(target) {
      if (!(target instanceof Element)) return null;
      const owner = badgeOwners.get(target);
      if (owner) return live.has(owner) ? owner : null;
      const anchor = target.closest(ANCHOR_SELECTOR);
      return anchor ? (annotations.get(anchor) ?? null) : null;
    },
    drawBadgeOf(anchor) {
      visibility?.unobserve(anchor);
      const annotation = annotations.get(anchor);
      if (annotation && live.has(annotation)) {
        annotation.badge.draw();
        if (annotation.badge.drawn) fitter.fit(annotation, false);
        else undrawn.add(annotation);
      }
    },
    drawWaiting() {
      const waiting = [...undrawn];
      undrawn.clear();
      for (const { anchor } of waiting) scanner.drawBadgeOf(anchor);
    },
    rescan(next) {
      if (signal.aborted) return;
      if (next) {
        recognizer = next;
        seen = new WeakMap(); // every anchor gets a fresh look with the new services
      }
      searchSelector = selectorFor(recognizer);
      // The annotated links at once, as in a mutation callback (the new selector may no longer pick
      // them): the settings that replace the share-shaped guess may come before the first paint, and
      // a badge that goes should give its room back before the reader sees it.
      // Only those: anchors still queued from the page's parsing wait for their idle slice.
      const waiting = anchorQueue.slice(anchorIndex);
      anchorQueue = [...live].map((annotation) => annotation.anchor);
      anchorIndex = 0;
      flush(IN_CALLBACK_BUDGET_MS);
      for (const anchor of waiting) anchorQueue.push(anchor);
      // The whole page in idle slices: on a long page one look at every anchor is a long task. Its
      // candidates by the browser's selector engine, in the document and the shadow roots already
      // known (a walk of every element for roots was most of a 60 ms task on a 5,000-link page).
      pruneRoots();
      queueCandidates(doc, false);
      for (const shadow of rootList) queueCandidates(shadow, false);
      scheduleFlush();
    },
  };
  // The page as parsed so far, at once: each badge's room before the next paint.
  pendingRoots.add(doc);
  flush(IN_CALLBACK_BUDGET_MS);
  return scanner;
}
