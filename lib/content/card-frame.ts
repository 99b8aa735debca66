import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { browser } from 'wxt/browser';
import { CARD_MAX_WIDTH } from '../core/limits';
import { parseCardFrameMessage } from '../protocol/card-frame';
import { cardHostOf, toAncestorViewport, type CardHost } from './frame-geometry';
import { placeCard } from './position';
import type { ActivationSource, CardCloseReason, CardEvents, CardPresenter, SnapshotRequest } from './types';

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

export interface CardBindingClient {
  /** Binds this tab's card to `request` for the card page that claims it with `nonce`; answers whether to fetch. */
  open(binding: SnapshotRequest & { nonce: string; intent: ActivationSource }): Promise<boolean>;
  close(nonce: string): Promise<unknown>;
  /** Calls `listener` when another frame of the tab opened its card. */
  onReplaced(listener: () => void): void;
}

export interface CardFrameDeps {
  ctx: ContentScriptContext;
  binding: CardBindingClient;
  /** `browser.runtime.getURL('')` origin: the only origin card messages may come from. */
  extensionOrigin: string;
  /** The window of the content script's own document. */
  window: Window;
}

/** 128 random bits as hex: `crypto.randomUUID` needs a secure context, and plain http pages are not. */
function newNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The hover card: the extension page `card.html` in an iframe, inside a **closed** shadow root (the
 * page can neither restyle it nor read the frame's URL or name), fixed next to its badge, in the
 * topmost same-origin document (frame-geometry.ts). The frame's name is a one-time nonce the card page
 * claims its link with: a copy of card.html that a page frames itself gets nothing. Closed = removed.
 */
export function createCardFrame(deps: CardFrameDeps, events: CardEvents): CardPresenter {
  const { ctx } = deps;
  /** The card's elements in the host document, made at the first open. */
  let built: { host: CardHost; element: HTMLElement; wrapper: HTMLElement } | null = null;
  let iframe: HTMLIFrameElement | null = null;
  let current: { request: SnapshotRequest; nonce: string } | null = null;
  let anchorElement: Element | null = null;
  let size = { width: CARD_MAX_WIDTH, height: 200 };
  let openSequence = 0;
  let cancelReveal: (() => void) | null = null;
  let focusOnReveal = false;
  let listeners: AbortController | null = null;

  deps.binding.onReplaced(() => {
    if (current) events.onCloseRequested('replaced');
  });

  function build(): NonNullable<typeof built> {
    if (built) return built;
    const host = cardHostOf(deps.window);
    const doc = host.document;
    const element = doc.createElement(CARD_TAG);
    const style = doc.createElement('style');
    style.textContent = CARD_CSS;
    const wrapper = doc.createElement('div');
    wrapper.className = 'frame';
    element.attachShadow({ mode: 'closed' }).append(style, wrapper);
    ctx.onInvalidated(() => element.remove());
    return (built = { host, element, wrapper });
  }

  function position(): void {
    if (!anchorElement?.isConnected || !built || !iframe) return;
    const { host, wrapper } = built;
    const hostWindow = host.document.defaultView;
    const rect = toAncestorViewport(anchorElement.getBoundingClientRect(), host.frames);
    const placement = placeCard(rect, size, {
      width: host.document.documentElement.clientWidth || (hostWindow?.innerWidth ?? 0),
      height: hostWindow?.innerHeight ?? 0,
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
    iframe?.classList.remove('pending');
    if (focusOnReveal) {
      focusOnReveal = false;
      iframe?.focus();
    }
  }

  /** While open: the card's messages, and scrolling or resizing of any window between link and card. */
  function listen({ host, element }: NonNullable<typeof built>): void {
    listeners?.abort();
    listeners = new AbortController();
    const { signal } = listeners;
    const hostWindow = host.document.defaultView;
    hostWindow?.addEventListener(
      'message',
      (event: MessageEvent) => {
        // A page can dispatch a MessageEvent naming any source and origin itself: only browser-delivered ones count.
        if (!current || !event.isTrusted || event.source !== iframe?.contentWindow || event.origin !== deps.extensionOrigin)
          return;
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
      },
      { signal },
    );
    let frame = 0;
    const onViewportChange = () => {
      if (frame === 0) frame = requestAnimationFrame(() => ((frame = 0), presenter.reposition()));
    };
    for (const win of host.windows) {
      win.addEventListener('scroll', onViewportChange, { capture: true, passive: true, signal });
      win.addEventListener('resize', onViewportChange, { passive: true, signal });
    }
    // A card in an ancestor's document: a real press there, outside the card, is a press outside it.
    if (host.document !== deps.window.document) {
      host.document.addEventListener(
        'pointerdown',
        (event) => {
          if (event.isTrusted && event.target !== element) events.onCloseRequested('outside');
        },
        { capture: true, passive: true, signal },
      );
    }
  }

  const presenter: CardPresenter = {
    get isOpen() {
      return current !== null;
    },
    async open(request, anchor, options) {
      anchorElement = anchor;
      if (options.focus) focusOnReveal = true;
      if (current && current.request.origin === request.origin && current.request.token === request.token) {
        position();
        if (options.focus && built?.element.isConnected && iframe && !iframe.classList.contains('pending')) reveal();
        return true;
      }
      const nonce = newNonce();
      current = { request, nonce };
      const sequence = ++openSequence;
      let fetch: boolean;
      try {
        fetch = await deps.binding.open({ ...request, nonce, intent: options.intent });
      } catch {
        if (sequence === openSequence) presenter.close('stopped');
        return false;
      }
      if (sequence !== openSequence || current?.nonce !== nonce || ctx.isInvalid) return fetch;
      const { host, element, wrapper } = build();
      if (!element.isConnected) host.document.documentElement.append(element);
      // A new frame for each link: its name is this card's nonce, and a fresh frame loads the card page.
      iframe?.remove();
      iframe = host.document.createElement('iframe');
      iframe.name = nonce;
      iframe.title = 'Compliance snapshot';
      iframe.className = 'pending';
      iframe.src = browser.runtime.getURL('/card.html');
      wrapper.append(iframe);
      listen(build());
      // A card page that never reports its size still shows, at the default size.
      const timer = ctx.setTimeout(reveal, 1500);
      cancelReveal = () => clearTimeout(timer);
      position();
      return fetch;
    },
    close(_reason: CardCloseReason) {
      if (!current) return;
      const { nonce } = current;
      current = null;
      anchorElement = null;
      focusOnReveal = false;
      openSequence += 1;
      cancelReveal?.();
      cancelReveal = null;
      listeners?.abort();
      listeners = null;
      iframe?.remove();
      iframe = null;
      built?.element.remove();
      void deps.binding.close(nonce).catch(() => undefined);
    },
    contains(node) {
      return built !== null && built.element.contains(node);
    },
    hasFocus() {
      return built !== null && built.element.ownerDocument.activeElement === built.element;
    },
    reposition() {
      if (current && anchorElement && !anchorElement.isConnected) presenter.close('replaced');
      else position();
    },
  };
  return presenter;
}
