import { faded, type Point } from '../shared/seen';
import type { Annotation } from './link-states';
import type { LinkScanner } from './link-scanner';
import type { LinkStates } from './link-states';
import type { ActivationSource, CardCloseReason, CardPresenter, EngineConfig } from './types';

/** WCAG 1.4.13: leaving link, badge and card for this long closes a hover-opened card. */
const CARD_CLOSE_DELAY_MS = 300;

/**
 * Resting the pointer counts at all only on something that may be a link a person sees (security
 * finding 6): not hidden, not faded below half opacity (its ancestors' opacity included), not a "link"
 * whose box (a line of it, for a link that wraps) covers a quarter of the window, or 200 × 200 px in a
 * small frame. A page cannot turn pointer moves over an invisible full-page link into cards. Run once
 * per rest; `activate` then judges what is seen, for every kind of gesture.
 */
function canRestOn(target: Element): boolean {
  if (faded(target)) return false;
  // This script's own window: the pointer rests in its document.
  const largest = Math.max((innerWidth * innerHeight) / 4, 40_000);
  for (const box of target.getClientRects()) if (box.width * box.height > largest) return false;
  return true;
}

/**
 * A rest counts only once the pointer itself moved onto a link or its badge: content moved under a
 * still pointer (a transition, an animation, a scroll, an insertion) brings pointer events too, with
 * the pointer where it was. Compared in screen coordinates, which a frame moving under the pointer
 * does not change; the first move a document sees has no place to compare with, so its own movement
 * (`movementX`/`Y`, which the browser counts from the pointer's last place) decides.
 */
function pointerTracker(): (event: PointerEvent) => boolean {
  let x = NaN;
  let y = NaN;
  return (event) => {
    const moved = Number.isNaN(x) ? event.movementX !== 0 || event.movementY !== 0 : x !== event.screenX || y !== event.screenY;
    x = event.screenX;
    y = event.screenY;
    return moved;
  };
}

/** Where an event really happened: inside an open shadow root, not at its host, where the document sees it. */
const targetOf = (event: Event): EventTarget | null => event.composedPath()[0] ?? event.target;

/** The user's gestures, and the one card of the page. */
export interface Interaction {
  /**
   * The user asked for `annotation`'s snapshot: by hover intent on `target` (the link or badge) at
   * `at`, or by a key or a click on its badge.
   */
  activate: (annotation: Annotation, source: ActivationSource, target?: Element, at?: Point) => Promise<void>;
  /** The annotation is gone from the page: no intent or card is left pointing at it. */
  forget: (annotation: Annotation) => void;
  /** Cancels pending intent and closes the card (Escape, navigation, new settings). */
  reset: (reason: CardCloseReason, hoverDelayMs?: number) => void;
}

/**
 * Turns the user's gestures into intent (pointer resting on a link or badge, Enter or Space, a
 * click) and keeps the one card of the page open for the right link: opened on intent, closed when
 * the pointer leaves link, badge and card (unless opened by keyboard or click), on Escape, on a
 * pointer-down elsewhere. Only trusted events count: a page can dispatch any event it likes.
 */
export function createInteraction(config: EngineConfig, scanner: LinkScanner, states: LinkStates): Interaction {
  const { document: doc, scheduler, isUserEvent } = config;
  const { annotationAt, drawBadgeOf } = scanner;
  const isLive = (annotation: Annotation) => scanner.live.has(annotation);
  let hoverDelayMs = config.hoverDelayMs;
  let hovered: Annotation | null = null;
  /** Whether the pointer rests on the badge of `hovered` (else on its link): moving between them starts a new rest. */
  let hoveredBadge = false;
  /** A link or badge the pointer is over, not yet counted: its rest starts when the pointer moves on it. */
  let arrived: { annotation: Annotation; onBadge: boolean } | null = null;
  const movedPointer = pointerTracker();
  let cancelIntentTimer: (() => void) | null = null;
  let cancelCloseTimer: (() => void) | null = null;
  let cardFor: Annotation | null = null;
  /** Opened by keyboard or click: stays until dismissed, not closed by pointer movement. */
  let cardSticky = false;
  let card: CardPresenter | null = null;
  /** The pointer is on the link or badge whose card is open (tracked from page pointer events). */
  let pointerOnCardOwner = false;
  const onCard = (target: EventTarget | null) => card?.isOpen === true && target instanceof Node && card.contains(target);

  function getCard(): CardPresenter {
    card ??= config.createCard({
      onCloseRequested(reason) {
        const owner = cardFor;
        const hadFocus = card?.hasFocus() ?? false;
        closeCard(reason);
        if (owner && (hadFocus || reason === 'escape') && isLive(owner)) owner.badge.focus();
      },
      onCardHover(inside) {
        if (inside) {
          // Not on the link any more: a frame is not always told when the pointer leaves it for the card.
          pointerOnCardOwner = false;
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

  async function activate(annotation: Annotation, source: ActivationSource, target?: Element, at?: Point): Promise<void> {
    if (!isLive(annotation)) return;
    cancelIntent();
    cancelClose();
    const { badge, anchor } = annotation;
    const drawnBefore = badge.drawn;
    badge.draw(); // the card is placed by the link and its badge
    const on = target ?? badge.host;
    const box = on.getBoundingClientRect();
    const point = at ?? { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
    cardFor = annotation;
    cardSticky = source !== 'hover';
    // The presenter judges whether the gesture was seen (its script is loaded only for cards); not
    // seen, the card opens with Load and nothing is fetched.
    const result = getCard().open(annotation.state.request, [anchor, badge.host], {
      focus: source === 'keyboard',
      intent: source,
      gesture: { link: anchor, badge: badge.host, on, at: point, drawnBefore },
    });
    if (result) states.expect(annotation.state, result);
  }

  function closeCard(reason: CardCloseReason): void {
    cancelClose();
    cardFor = null;
    cardSticky = false;
    if (card?.isOpen) card.close(reason);
  }

  function cancelIntent(): void {
    cancelIntentTimer?.();
    cancelIntentTimer = null;
    hovered = null;
    arrived = null;
  }

  function cancelClose(): void {
    cancelCloseTimer?.();
    cancelCloseTimer = null;
  }

  function pointerLeftEverything(): void {
    cancelIntent();
    if (card?.isOpen && !cardSticky && !cancelCloseTimer) {
      cancelCloseTimer = scheduler.timeout(() => {
        cancelCloseTimer = null;
        closeCard('pointer-left');
      }, CARD_CLOSE_DELAY_MS);
    }
  }

  function onPointerOver(event: PointerEvent): void {
    const target = targetOf(event);
    const annotation = annotationAt(target);
    pointerOnCardOwner = annotation !== null && annotation === cardFor;
    if (annotation) {
      if (annotation === cardFor) {
        cancelClose();
        cancelIntent();
        return; // its card is already showing
      }
      // From the link to its badge (or back) is a new rest: a large link the rest rule refuses may lead to its badge.
      const onBadge = target === annotation.badge.host;
      if (hovered === annotation && hoveredBadge === onBadge) return;
      cancelIntent();
      arrived = { annotation, onBadge };
      return;
    }
    if (onCard(target)) {
      cancelIntent();
      cancelClose();
      return;
    }
    pointerLeftEverything();
  }

  /** The pointer moved: a link or badge it arrived on starts its rest, if the pointer itself moved there. */
  function onPointerMove(event: PointerEvent): void {
    const moved = movedPointer(event);
    const target = targetOf(event);
    // Coming out of the card's frame, Chromium sends this document no pointerover: a move off every
    // link, badge and the card has left them (the card page's "left" message may never come).
    if (card?.isOpen && !cardSticky && !cancelCloseTimer && !onCard(target) && annotationAt(target) === null) {
      pointerOnCardOwner = false;
      pointerLeftEverything();
    }
    if (!arrived || !moved) return;
    const { annotation, onBadge } = arrived;
    if (annotationAt(target) !== annotation || (target === annotation.badge.host) !== onBadge) return;
    arrived = null;
    hovered = annotation;
    hoveredBadge = onBadge;
    const at = { x: event.clientX, y: event.clientY };
    getCard().warm();
    // The rest began when the pointer moved, not when this handler ran: a browser hands pointer moves
    // over with the next frame, up to 16 ms later. (A rest already over gives a negative delay: at once.)
    cancelIntentTimer = scheduler.timeout(
      () => {
        cancelIntentTimer = null;
        if (target instanceof Element && canRestOn(target)) void activate(annotation, 'hover', target, at);
      },
      Math.min(hoverDelayMs, hoverDelayMs + event.timeStamp - scheduler.now()),
    );
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
    const target = targetOf(event);
    if (target instanceof Node && card.contains(target)) return;
    if (annotationAt(target) === cardFor) return;
    closeCard('outside');
  }

  function onFocusIn(event: Event): void {
    const target = targetOf(event);
    if (target instanceof Element && target.localName === 'a') drawBadgeOf(target);
    else if (target && annotationAt(target)?.badge.host === target) getCard().warm();
  }

  function onKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Escape' && card?.isOpen) closeCard('escape');
  }

  const { signal } = config;
  const capture = { capture: true, passive: true, signal };
  const fromUser =
    <E extends Event>(handler: (event: E) => void) =>
    (event: E) => {
      if (isUserEvent(event)) handler(event);
    };
  doc.addEventListener('pointerover', fromUser(onPointerOver), capture);
  doc.addEventListener('pointermove', fromUser(onPointerMove), capture);
  doc.addEventListener('pointerout', fromUser(onPointerOut), capture);
  doc.addEventListener('pointerdown', fromUser(onPointerDown), capture);
  doc.addEventListener('keydown', fromUser(onKeyDown), { capture: true, signal });
  doc.addEventListener('focusin', fromUser(onFocusIn), capture);

  signal.addEventListener('abort', () => reset('stopped'), { once: true });

  function reset(reason: CardCloseReason, nextHoverDelayMs?: number): void {
    if (nextHoverDelayMs !== undefined) hoverDelayMs = nextHoverDelayMs;
    cancelIntent();
    closeCard(reason);
  }

  return {
    activate,
    forget(annotation) {
      if (hovered === annotation) cancelIntent();
      if (cardFor === annotation) closeCard('replaced');
    },
    reset,
  };
}
