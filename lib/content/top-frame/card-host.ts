import type { ContentProtocolMap, ShowCard } from '../../protocol/content';
import type { CardEventKind } from '../../protocol/guarded/card';
import { parseCardAnchor } from '../../protocol/guarded/card-anchor';
import { CARD_HOVER_REPEAT_MS } from '../../protocol/guarded/card-frame';
import { toCloseCard, toMoveCard, toShowCard } from '../../protocol/guarded/content-answers';
import { queryDeep } from '../../dom';
import { watchViewports } from '../shared/viewports';
import { createCardView, type CardView } from './card-view';
import { sameOriginChainOf, toAncestorViewport } from '../shared/frame-geometry';
import { newNonce } from '../shared/nonce';
import { seenThrough, shows } from '../shared/seen';
import type { ContentMessenger } from '../shared/messaging';
import type { Rect } from './placement';

/** Anchor keys remembered at once: any window may post some, and a card is asked for right after its own. */
const MAX_ANCHORS = 16;
/** Keys remembered per window: a frame that floods keys (an ad) evicts only its own (issue #26 item 5). */
const MAX_ANCHORS_PER_WINDOW = 2;

/**
 * How often an open card checks that its frame is still there: nothing tells a document that a frame
 * below it went away (removed, or a parent of it removed), and the frame's own scripts go with it.
 */
const FRAME_CHECK_MS = 400;

export interface FrameCardHostDeps {
  /** The top window. */
  window: Window;
  /** `browser.runtime.getURL('')` origin: the only origin card messages may come from (asked at the first card). */
  extensionOrigin(): string;
  messenger: ContentMessenger<ContentProtocolMap>;
  /** Aborted when the relay stops: the card and every listener go. */
  signal: AbortSignal;
}

/** How long the host waits for a subframe's anchor message before it judges the frame not seen. */
const ANCHOR_WAIT_MS = 300;

/** A window (of any origin: these two are readable across origins), not a message port or a worker. */
const isWindow = (source: MessageEventSource | null): source is Window =>
  source !== null && 'parent' in source && 'closed' in source;

/** Where a frame's card goes: its frame element, whose box the card sits by (`exact`: at the badge's box inside it). */
interface Located {
  element: HTMLElement;
  /** The frame elements from the element's document up to the top document, innermost first. */
  above: readonly HTMLElement[];
  /** The windows from the element's up to the top one (their scrolling moves the card). */
  windows: readonly Window[];
  exact: boolean;
}

/** An `iframe` or `frame` element (by name: the page's elements may come from another realm). */
const isFrameElement = (element: Element): element is HTMLIFrameElement | HTMLFrameElement =>
  element.localName === 'iframe' || element.localName === 'frame';

/** The frame element in `doc` (or its open shadow roots) whose window is `win`; with `viewport`, those of its size are tried first. */
function frameElementIn(doc: Document, win: Window, viewport?: ShowCard['viewport']): HTMLElement | null {
  const frames = queryDeep(doc, 'iframe,frame').filter(isFrameElement);
  // Reading a frame's window from this world builds this world in it (for a sandboxed frame, in
  // Chromium): the frames that look like the one asked about are tried first, and usually only they.
  const looksLike = (frame: HTMLElement) =>
    viewport !== undefined && frame.clientWidth === viewport.width && frame.clientHeight === viewport.height;
  return (
    frames.find((frame) => looksLike(frame) && frame.contentWindow === win) ??
    frames.find((frame) => frame.contentWindow === win) ??
    null
  );
}

/**
 * The frame element of the window `hops` parents above `source`, in a document whose frames up to the
 * top are all same-origin (so the card can be placed at the badge's box inside it). A frame below
 * another origin's frame cannot be found that way: the card then sits by the outermost frame around
 * it that can.
 */
function locate(top: Window, source: Window, card: ShowCard): Located | null {
  let win = source;
  for (let hop = 0; hop < card.hops && win.parent !== win; hop += 1) win = win.parent;
  let exact = true;
  while (win !== top && win.parent !== win) {
    const parent = win.parent;
    let doc: Document | null = null;
    try {
      doc = parent.document; // throws when the parent is on another origin than the top
    } catch {
      doc = null;
    }
    const chain = doc && sameOriginChainOf(parent);
    if (doc && chain?.document === top.document) {
      const element = frameElementIn(doc, win, exact ? card.viewport : undefined);
      return element && { element, above: chain.frames, windows: chain.windows, exact };
    }
    win = parent;
    exact = false;
  }
  return null;
}

/**
 * Whether a subframe's link is seen through the frames around it, as the top frame can judge them:
 * each frame element from the one it found up to the top shows at the gesture's point (not faded,
 * hidden, covered or under the top layer; lib/content/shared/seen.ts). A frame below another origin's
 * frame is judged at the middle of the outermost frame the top can see.
 */
function frameChainSeen(card: ShowCard, { element, above, exact }: Located): boolean {
  if (exact) return seenThrough(card.at, [element, ...above]) !== null;
  const box = element.getBoundingClientRect();
  const view = element.ownerDocument.defaultView;
  const x = (Math.max(box.left, 0) + Math.min(box.right, view?.innerWidth ?? 0)) / 2;
  const y = (Math.max(box.top, 0) + Math.min(box.bottom, view?.innerHeight ?? 0)) / 2;
  return shows(element, { x, y }) && seenThrough({ x, y }, above) !== null;
}

/**
 * The top frame's host for the cards of the tab: the only place a card is drawn
 * (lib/content/annotator/card.ts says why). The background passes on a frame's `openCard` as
 * `showCard`. The top frame's own links give their box in this viewport; a subframe's anchor message
 * (lib/protocol/guarded/card-anchor.ts) names its window, whose frame element the card is placed by.
 * What the card does (the pointer entering or leaving it, a dismissal, a press elsewhere) goes back
 * to the frame through the background, and the frame decides when the card closes; the host closes
 * it itself on a dismissal, a press elsewhere, or when the frame goes. One card at a time, until
 * `signal` aborts.
 */
export function hostFrameCards(deps: FrameCardHostDeps): void {
  const { window: top, messenger, signal } = deps;
  const anchors = new Map<string, Window>();
  let card: ShowCard | null = null;
  let located: Located | null = null;
  /** The window of the subframe whose card this is, once its anchor message named it. */
  let frameWindow: Window | null = null;
  /** Called once the card's frame is located (a verdict waits for it). */
  let onLocated: (() => void) | null = null;
  let listeners: AbortController | null = null;
  /** Whether the pointer is on the card, and when the frame was last told so. */
  let pointerInside = false;
  let enterToldAt = 0;
  const hover = (inside: boolean) => {
    const now = performance.now();
    if (inside) {
      // Told again now and then while it stays: the pointer may have gone into the frame and come
      // back, which this document cannot see (the frame then waits to close the card).
      if (pointerInside && now - enterToldAt < 2 * CARD_HOVER_REPEAT_MS) return;
      enterToldAt = now;
    } else if (!pointerInside) return;
    pointerInside = inside;
    report(inside ? 'enter' : 'leave');
  };

  function report(event: CardEventKind): void {
    if (!card) return;
    // The extension went away (updated, disabled): nothing will close this card but itself.
    void messenger.send('cardEvent', { nonce: card.nonce, event }).catch(() => end());
  }

  /** Made at the first card: a page where no frame asks for one pays nothing for it. */
  let view: CardView | null = null;
  const viewOf = (): CardView =>
    (view ??= createCardView(
      { document: top.document, extensionOrigin: deps.extensionOrigin() },
      {
        onCardHover: hover,
        onCloseRequested() {
          // Focus goes into a subframe first, whose badge then takes it back (a frame cannot take it from the top's card).
          if (view?.hasFocus()) located?.element.focus();
          report('dismiss');
          end();
        },
      },
    ));

  /**
   * The frame does not see this document: a real press in it outside the card closes the card, and
   * the pointer moving in it outside the card has left the card. (`pointermove`, not `pointerover`:
   * coming out of a frame, Chromium sends this document no `pointerover`.)
   */
  function watchTopDocument(signal: AbortSignal): void {
    const outside = (event: Event) => event.isTrusted && event.target !== view?.element;
    const options = { capture: true, passive: true, signal };
    top.document.addEventListener(
      'pointerdown',
      (event) => {
        if (!outside(event)) return;
        report('outside');
        end();
      },
      options,
    );
    top.document.addEventListener('pointermove', (event) => outside(event) && hover(false), options);
  }

  /** The badge's box in the top viewport; until a subframe's frame is found (or if it cannot be), the top right corner. */
  function anchorRect(): Rect {
    if (card && card.key === undefined) return card.rect;
    if (!card || !located?.element.isConnected) {
      const right = top.document.documentElement.clientWidth || top.innerWidth;
      return { left: right, top: 0, right, bottom: 0 };
    }
    const { element, above, exact } = located;
    return exact
      ? toAncestorViewport(card.rect, [element, ...above])
      : toAncestorViewport(element.getBoundingClientRect(), above);
  }

  /**
   * From the moment a subframe's card shows: is its frame still there? Its window, once its anchor
   * message named it; and every few checks the background asks the frame itself (a page can keep the
   * anchor message from this document, issue #26 item 6).
   */
  function watchFrame(nonce: string, signal: AbortSignal): void {
    let checks = 0;
    const timer = setInterval(() => {
      if (frameWindow?.closed) {
        // The frame is gone, and its scripts with it: the background forgets the card when the frame cannot be told.
        report('outside');
        end();
      } else if (++checks % 3 === 0) void messenger.send('checkCard', { nonce }).catch(() => end());
    }, FRAME_CHECK_MS);
    signal.addEventListener('abort', () => clearInterval(timer));
  }

  /** Finds where the card goes once both the card and its anchor message are here, and watches what moves it. */
  function settle(): void {
    const source = card?.key !== undefined && !located ? anchors.get(card.key) : undefined;
    if (!card || !source || !listeners) return;
    const { signal } = listeners;
    frameWindow = source;
    located = locate(top, source, card);
    if (located) watchViewports(located.windows, () => view?.place(), signal);
    view?.place();
    onLocated?.();
  }

  function end(): void {
    card = null;
    located = null;
    frameWindow = null;
    pointerInside = false;
    listeners?.abort();
    listeners = null;
    view?.remove();
  }

  const onMessage = (event: MessageEvent) => {
    // The key first: reading `event.source` of another frame's message builds this world in that frame.
    const key = event.isTrusted ? parseCardAnchor(event.data) : null;
    // The first to post a key names its window: a page that sees the message and posts it again
    // (from this window, which never asks, or from a frame of its own) comes second.
    if (!key || anchors.has(key)) return;
    const source = event.source;
    if (!isWindow(source) || source === top) return;
    const own = [...anchors].filter(([, from]) => from === source);
    for (const [old] of own.slice(0, own.length + 1 - MAX_ANCHORS_PER_WINDOW)) anchors.delete(old);
    anchors.set(key, source);
    for (const old of anchors.keys()) if (anchors.size > MAX_ANCHORS) anchors.delete(old);
    settle();
  };
  top.addEventListener('message', onMessage, { signal });

  const stopAnswering = [
    messenger.answer('showCard', async (data) => {
      const next = toShowCard(data);
      if (!next) throw new Error('showCard: malformed');
      end();
      card = next;
      listeners = new AbortController();
      watchTopDocument(listeners.signal);
      if (next.key !== undefined) watchFrame(next.nonce, listeners.signal);
      const frame = viewOf().show(next.nonce, anchorRect, next.focus);
      settle();
      // The verdict on a subframe's frames needs its frame element: the anchor message may come second.
      if (next.key !== undefined && !located) {
        await new Promise<void>((resolve) => {
          onLocated = resolve;
          setTimeout(resolve, ANCHOR_WAIT_MS);
        });
        onLocated = null;
      }
      // The top frame's own links were judged where they are, in this document.
      const seen = card === next && (next.key === undefined || (located !== null && frameChainSeen(next, located)));
      return frame === undefined ? { ok: true, seen } : { ok: true, seen, frame };
    }),
    messenger.answer('warmCard', () => {
      viewOf().warm(newNonce());
      return { ok: true };
    }),
    messenger.answer('moveCard', (data) => {
      const move = toMoveCard(data);
      if (card && move?.nonce === card.nonce) {
        card.rect = move.rect;
        view?.place();
      }
      return { ok: true };
    }),
    messenger.answer('closeCard', (data) => {
      if (card && toCloseCard(data) === card.nonce) end();
      return { ok: true };
    }),
  ];

  signal.addEventListener(
    'abort',
    () => {
      for (const stop of stopAnswering) stop();
      end();
      view?.dispose();
    },
    { once: true },
  );
}
