import { browser } from 'wxt/browser';
import { CARD_AHEAD_HASH, CARD_AHEAD_KEPT_MS, CARD_MAX_WIDTH, CARD_TAG } from '../../protocol/guarded/card';
import { parseCardFrameMessage } from '../../protocol/guarded/card-frame';
import { placeCard, type Rect } from './placement';

// `!important` on the host: page styles cannot move or hide it. Only a shown card takes the pointer
// (a hit test at the link must not find the card's empty wrapper, or a page loaded ahead). Position is set on the inner wrapper,
// which page CSS cannot reach (inline styles on the host would lose to `all: initial !important`).
const CARD_CSS = `
:host{all:initial!important;position:fixed!important;top:0!important;left:0!important;width:0!important;height:0!important;
overflow:visible!important;z-index:2147483647!important;display:block!important}
.frame{position:fixed;top:0;left:0;pointer-events:none}
iframe{pointer-events:auto;display:block;border:0;border-radius:12px;width:${CARD_MAX_WIDTH}px;height:200px;background:transparent;
box-shadow:0 10px 30px rgba(15,23,42,.22),0 2px 6px rgba(15,23,42,.12);color-scheme:normal}
iframe.pending{opacity:0;pointer-events:none}
iframe.ahead{position:absolute;width:1px;height:1px;visibility:hidden}`;

/** A card page that never reports its size still shows after this long, at the default size. */
const REVEAL_AFTER_MS = 1500;

export interface CardViewDeps {
  /** The document the card is drawn in. */
  document: Document;
  /** `browser.runtime.getURL('')` origin: the only origin card messages may come from. */
  extensionOrigin: string;
}

export interface CardViewEvents {
  onCloseRequested(reason: 'escape' | 'button'): void;
  /**
   * The card page says the pointer entered or left it (the document sees no events inside the
   * iframe; and a card page is not always told when the pointer leaves its frame).
   */
  onCardHover(inside: boolean): void;
}

export interface CardView {
  /**
   * Shows the card for `nonce`, placed next to the box `anchor` gives in the document's viewport:
   * in the card page loaded ahead if one waits (answers its nonce, which it claims the card with),
   * else in a fresh one named `nonce` (answers undefined). Hidden until the page reports its size;
   * with `focus`, keyboard focus moves into it then.
   */
  show(nonce: string, anchor: () => Rect, focus: boolean): string | undefined;
  /**
   * Loads a card page ahead, hidden, named `nonce` (unless one waits already), so the next card shows
   * without waiting for its script; dropped when unused for `CARD_AHEAD_KEPT_MS`.
   */
  warm(nonce: string): void;
  /** Places the card again, at its anchor's box now. */
  place(): void;
  /** Moves keyboard focus into the card (once it shows). */
  focus(): void;
  /** Removes the card (a page loaded ahead stays). */
  remove(): void;
  /** Removes the card and any page loaded ahead. */
  dispose(): void;
  /** The card's element in the document (events elsewhere in the document have other targets). */
  readonly element: HTMLElement;
  /** True for the card's own element (the pointer on the card keeps it open). */
  contains(node: Node): boolean;
  /** Whether keyboard focus is in the card. */
  hasFocus(): boolean;
}

/**
 * The hover card as drawn in a document: the extension page `card.html` in an iframe, inside a
 * **closed** shadow root (the page can neither restyle it nor read the frame's URL or name), fixed
 * next to its anchor. Used only in the top frame, by its card host (card-host.ts), which draws the
 * card of every frame of the tab, the top frame's own links included. Removed when closed.
 */
export function createCardView(deps: CardViewDeps, events: CardViewEvents): CardView {
  const doc = deps.document;
  const element = doc.createElement(CARD_TAG);
  const style = doc.createElement('style');
  style.textContent = CARD_CSS;
  const wrapper = doc.createElement('div');
  wrapper.className = 'frame';
  element.attachShadow({ mode: 'closed' }).append(style, wrapper);
  let iframe: HTMLIFrameElement | null = null;
  let anchor: () => Rect;
  let size = { height: 200 };
  let focusOnReveal = false;
  let listeners: AbortController | null = null;
  /** The card page loaded ahead: its frame, the nonce it waits with, how often it loaded. */
  let ahead: { frame: HTMLIFrameElement; nonce: string; loads: number } | null = null;

  const isPending = () => iframe?.classList.contains('pending') ?? true;

  function place(): void {
    if (!iframe) return;
    // The viewport less its scrollbars (issue #33 item 9): the root's client box in standards mode,
    // the body's in quirks mode (CSSOM View); the window's size only where neither has one.
    const root = doc.compatMode === 'BackCompat' ? doc.body : doc.documentElement;
    const viewport = {
      width: root?.clientWidth || (doc.defaultView?.innerWidth ?? 0),
      height: root?.clientHeight || (doc.defaultView?.innerHeight ?? 0),
    };
    // The card is as wide as its frame, which is at most the viewport's width less the margins.
    const placement = placeCard(anchor(), { width: CARD_MAX_WIDTH, height: size.height }, viewport);
    wrapper.style.left = `${placement.left}px`;
    wrapper.style.top = `${placement.top}px`;
    iframe.style.width = `${placement.width}px`;
    iframe.style.height = `${placement.height}px`;
  }

  /** Shows the iframe once sized; a hidden iframe cannot take focus, so keyboard focus moves now. */
  function reveal(): void {
    iframe?.classList.remove('pending');
    if (focusOnReveal) {
      focusOnReveal = false;
      iframe?.focus();
    }
  }

  function remove(): void {
    listeners?.abort();
    listeners = null;
    focusOnReveal = false;
    iframe?.remove();
    iframe = null;
    if (!ahead) element.remove();
  }

  /** A hidden card page named `nonce`, in the card's element. */
  function newFrame(nonce: string, hash = ''): HTMLIFrameElement {
    if (!element.isConnected) doc.documentElement.append(element);
    const frame = doc.createElement('iframe');
    frame.name = nonce;
    frame.title = 'Compliance snapshot';
    frame.className = 'pending';
    frame.src = browser.runtime.getURL('/card.html') + hash;
    wrapper.append(frame);
    return frame;
  }

  function dropAhead(): void {
    ahead?.frame.remove();
    ahead = null;
    if (!iframe) element.remove();
  }

  return {
    show(nonce, anchorOf, focus) {
      remove();
      anchor = anchorOf;
      focusOnReveal = focus;
      listeners = new AbortController();
      const { signal } = listeners;
      // The page loaded ahead, if it loaded only our card page (a page that navigated it loaded twice);
      // else a new frame for this card, named with its nonce.
      const used = ahead && ahead.loads < 2 ? ahead : null;
      if (!used) dropAhead();
      ahead = null;
      const frame = (iframe = used?.frame ?? newFrame(nonce));
      frame.classList.remove('ahead');
      doc.defaultView?.addEventListener(
        'message',
        (event: MessageEvent) => {
          // A page can dispatch a MessageEvent naming any source and origin itself: only browser-delivered ones count.
          if (!event.isTrusted || event.source !== frame.contentWindow || event.origin !== deps.extensionOrigin) return;
          const message = parseCardFrameMessage(event.data);
          if (!message) return;
          if (message.kind === 'size') {
            size = { height: Math.ceil(message.height) };
            place();
            reveal();
          } else if (message.kind === 'hover') {
            events.onCardHover(message.inside);
          } else {
            events.onCloseRequested(message.reason);
          }
        },
        { signal },
      );
      // The page learns the card's window from its messages and can load its own page into the frame
      // (a look-alike card): a second load is not our card page, and the card goes (issue #26 item 4).
      let loads = used?.loads ?? 0;
      frame.addEventListener('load', () => ++loads > 1 && events.onCloseRequested('button'), { signal });
      // A plain timer: after the card is removed (or the script stopped, which removes it) it does nothing.
      setTimeout(() => {
        if (iframe === frame) reveal();
      }, REVEAL_AFTER_MS);
      place();
      return used?.nonce;
    },
    warm(nonce) {
      if (ahead) return;
      const frame = newFrame(nonce, CARD_AHEAD_HASH);
      frame.classList.add('ahead');
      const loaded = (ahead = { frame, nonce, loads: 0 });
      frame.addEventListener('load', () => loaded.loads++);
      setTimeout(() => ahead === loaded && dropAhead(), CARD_AHEAD_KEPT_MS);
    },
    dispose() {
      remove();
      dropAhead();
    },
    place,
    focus() {
      if (!iframe) return;
      if (isPending()) focusOnReveal = true;
      else iframe.focus();
    },
    remove,
    element,
    contains: (node) => element.contains(node),
    hasFocus: () => doc.activeElement === element,
  };
}
