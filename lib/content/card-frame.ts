import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { browser } from 'wxt/browser';
import { CARD_MAX_WIDTH } from '../core/limits';
import { parseCardFrameMessage } from '../protocol/card-frame';
import { placeCard } from './position';
import type { CardCloseReason, CardEvents, CardPresenter, SnapshotRequest } from './types';

export const CARD_TAG = 'compliance-lens-card';

// `!important` on the host: page styles cannot move or hide it. Position is set on the inner wrapper,
// which page CSS cannot reach (inline styles on the host would lose to `all: initial !important`).
const CARD_CSS = `
:host{all:initial!important;position:fixed!important;top:0!important;left:0!important;width:0!important;height:0!important;
overflow:visible!important;z-index:2147483647!important;display:block!important}
.frame{position:fixed;top:0;left:0}
iframe{display:block;border:0;border-radius:12px;width:${CARD_MAX_WIDTH}px;height:200px;background:transparent;
box-shadow:0 10px 30px rgba(15,23,42,.22),0 2px 6px rgba(15,23,42,.12);color-scheme:normal}
iframe.pending{visibility:hidden}`;

export interface CardFrameDeps {
  ctx: ContentScriptContext;
  /** Tells the background which link this tab's card shows (the card page reads it from there). */
  binding: { open(request: SnapshotRequest): Promise<unknown>; close(): Promise<unknown> };
  /** `browser.runtime.getURL('')` origin: the only origin card messages may come from. */
  extensionOrigin: string;
}

/**
 * The hover card: the extension page `card.html` in an iframe (as WXT's `createIframeUi` makes one), inside a
 * shadow root so page CSS cannot restyle it, fixed next to its badge. Closed = removed from the DOM.
 */
export function createCardFrame(deps: CardFrameDeps, events: CardEvents): CardPresenter {
  const { ctx } = deps;
  const host = document.createElement(CARD_TAG);
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = CARD_CSS;
  shadow.append(style);

  // What WXT's createIframeUi does for us, in a few lines: its shared mounting code (auto-mount with
  // element watching) measured ~1.9 KB gzip of the 15 KB content-script budget (docs/design-changes.md).
  const wrapper = document.createElement('div');
  wrapper.className = 'frame';
  const iframe = document.createElement('iframe');
  iframe.src = browser.runtime.getURL('/card.html');
  iframe.title = 'Compliance snapshot';
  wrapper.append(iframe);
  const ui = {
    mount: () => shadow.append(wrapper),
    remove: () => wrapper.remove(),
  };
  ctx.onInvalidated(ui.remove);

  let current: SnapshotRequest | null = null;
  let anchorElement: Element | null = null;
  let size = { width: CARD_MAX_WIDTH, height: 200 };
  let openSequence = 0;
  let cancelReveal: (() => void) | null = null;
  let focusOnReveal = false;

  function position(): void {
    if (!anchorElement?.isConnected) return;
    const rect = anchorElement.getBoundingClientRect();
    const placement = placeCard(rect, size, {
      width: document.documentElement.clientWidth || window.innerWidth,
      height: window.innerHeight,
    });
    wrapper.style.left = `${placement.left}px`;
    wrapper.style.top = `${placement.top}px`;
    iframe.style.width = `${size.width}px`;
    iframe.style.height = `${placement.height}px`;
  }

  /** Shows the iframe once sized; a hidden iframe cannot take focus, so keyboard focus moves now. */
  function reveal(): void {
    cancelReveal?.();
    cancelReveal = null;
    iframe.classList.remove('pending');
    if (focusOnReveal) {
      focusOnReveal = false;
      iframe.focus();
    }
  }

  ctx.addEventListener(window, 'message', (event: MessageEvent) => {
    // A page can dispatch a MessageEvent naming any source and origin itself: only browser-delivered ones count.
    if (!current || !event.isTrusted || event.source !== iframe.contentWindow || event.origin !== deps.extensionOrigin) return;
    const message = parseCardFrameMessage(event.data);
    if (!message) return;
    if (message.kind === 'size') {
      size = { width: Math.ceil(message.width), height: Math.ceil(message.height) };
      position();
      reveal();
    } else if (message.kind === 'hover') {
      events.onCardHover(message.inside);
    } else {
      events.onCloseRequested(message.reason);
    }
  });

  const presenter: CardPresenter = {
    get isOpen() {
      return current !== null;
    },
    open(request, anchor, options) {
      anchorElement = anchor;
      if (options.focus) focusOnReveal = true;
      if (current && current.origin === request.origin && current.token === request.token) {
        position();
        if (options.focus && host.isConnected && !iframe.classList.contains('pending')) reveal();
        return;
      }
      current = request;
      const sequence = ++openSequence;
      void deps.binding.open(request).then(
        () => {
          if (sequence !== openSequence || current !== request || ctx.isInvalid) return;
          if (!host.isConnected) document.documentElement.append(host);
          iframe.classList.add('pending');
          // A card page that never reports its size still shows, at the default size.
          const timer = ctx.setTimeout(reveal, 1500);
          cancelReveal = () => clearTimeout(timer);
          ui.remove(); // re-inserting the iframe reloads it, so the page asks for the new binding
          ui.mount();
          position();
        },
        () => {
          if (sequence === openSequence) presenter.close('stopped');
        },
      );
    },
    close(_reason: CardCloseReason) {
      if (!current) return;
      current = null;
      anchorElement = null;
      focusOnReveal = false;
      openSequence += 1;
      cancelReveal?.();
      cancelReveal = null;
      ui.remove();
      host.remove();
      void deps.binding.close().catch(() => undefined);
    },
    contains(node) {
      return node === host || host.contains(node);
    },
    hasFocus() {
      return document.activeElement === host;
    },
    reposition() {
      if (current && anchorElement && !anchorElement.isConnected) presenter.close('replaced');
      else position();
    },
  };
  return presenter;
}
