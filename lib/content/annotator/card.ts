import type { FrameRect, TopFrameCard } from '../../protocol/content';
import { postCardAnchor } from '../shared/card-anchor';
import { createCardView, watchViewports, type CardView } from '../shared/card-view';
import { sameOriginChainOf, toAncestorViewport } from '../shared/frame-geometry';
import { newNonce } from '../shared/nonce';
import type { CardClient } from './client';
import type { CardEvents, CardPresenter, SnapshotRequest } from './types';

export interface CardDeps {
  client: CardClient;
  /** `browser.runtime.getURL('')` origin: the only origin card messages may come from. */
  extensionOrigin: string;
  /** The window of the content script's own document. */
  window: Window;
  /** Aborted when the content script stops: the card and its listeners go. */
  signal: AbortSignal;
}

/**
 * The annotator's hover card. The top frame draws it in its own document (card-view.ts). A subframe
 * has the top frame draw it (lib/content/top-frame/card-host.ts, told through the background), so that
 * the card is not cut off by a small frame, runs where a sandboxed frame would stop a card page, and
 * goes away with a frame that goes away; the frame sends it where its badge went and hears what the
 * card did. Only if the top frame cannot (nothing there answers) does a subframe draw the card in its
 * own document. The card page claims its link with a one-time nonce: a copy of card.html that a page
 * frames itself gets nothing.
 */
export function createCard(deps: CardDeps, events: CardEvents): CardPresenter {
  const { client, window: win, signal } = deps;
  const inSubframe = win !== win.top;
  let placement: { hops: number; frames: readonly HTMLElement[]; windows: readonly Window[] } | null = null;
  let view: CardView | null = null;
  let current: { request: SnapshotRequest; nonce: string; inTop: boolean } | null = null;
  let anchorElement: Element | null = null;
  let viewports: AbortController | null = null;

  client.listen(
    {
      onClose(nonce) {
        if (current?.nonce === nonce) events.onCloseRequested('replaced');
      },
      onEvent(nonce, event) {
        if (current?.nonce !== nonce) return;
        if (event === 'outside') events.onCloseRequested(event);
        // Dismissed from inside: as Escape, focus goes back to the badge.
        else if (event === 'dismiss') events.onCloseRequested('escape');
        else events.onCardHover(event === 'enter');
      },
    },
    signal,
  );
  signal.addEventListener('abort', () => presenter.close('stopped'), { once: true });

  /**
   * Where the top frame places the card: by the window `hops` same-origin parents up, the highest
   * below the top that this frame reaches (frame-geometry.ts), whose frame element the top frame
   * finds. The badge's box is measured through the frames on the way, and the windows on the way
   * scroll it.
   */
  function placementOf(): NonNullable<typeof placement> {
    if (placement) return placement;
    const { frames, windows } = sameOriginChainOf(win);
    const hops = windows.at(-1) === win.top ? frames.length - 1 : frames.length;
    return (placement = { hops, frames: frames.slice(0, hops), windows: windows.slice(0, hops + 1) });
  }

  /** The badge's box in that window's viewport. */
  const rectOf = (anchor: Element): FrameRect => toAncestorViewport(anchor.getBoundingClientRect(), placementOf().frames);

  function inTopFrame(anchor: Element): TopFrameCard | undefined {
    if (!inSubframe) return undefined;
    const { windows, hops } = placementOf();
    const target = windows[hops] ?? win;
    return {
      key: postCardAnchor(win),
      hops,
      rect: rectOf(anchor),
      viewport: { width: target.innerWidth, height: target.innerHeight },
    };
  }

  /** Draws the card in this document, next to its badge, and follows this window's scrolling. */
  function showHere(nonce: string, anchor: Element, focus: boolean): void {
    view ??= createCardView({ document: win.document, extensionOrigin: deps.extensionOrigin }, events);
    view.show(nonce, () => (anchorElement ?? anchor).getBoundingClientRect(), focus);
    follow([win]);
  }

  /** Places the card again while any of `windows` (those that scroll its badge) scrolls or resizes. */
  function follow(windows: readonly Window[]): void {
    viewports?.abort();
    viewports = new AbortController();
    watchViewports(windows, () => presenter.reposition(), viewports.signal);
  }

  const presenter: CardPresenter = {
    get isOpen() {
      return current !== null;
    },
    open(request, anchor, options) {
      anchorElement = anchor;
      if (current && current.request.origin === request.origin && current.request.token === request.token) {
        // The same link again (a key after a hover, say): only the card the top frame draws must be asked anew for focus.
        if (!(current.inTop && options.focus)) {
          presenter.reposition();
          if (options.focus) view?.focus();
          return null;
        }
      }
      const nonce = newNonce();
      const opened = (current = { request, nonce, inTop: inSubframe });
      // The top frame's own card starts loading its page now, beside the background's answer.
      if (!inSubframe) showHere(nonce, anchor, options.focus);
      else view?.remove();
      return client.open({ ...request, nonce, intent: options.intent, inTopFrame: inTopFrame(anchor) }).then(
        ({ inTop, badge }) => {
          if (current !== opened || signal.aborted) return badge;
          if (inSubframe) {
            opened.inTop = inTop;
            if (inTop) follow(placementOf().windows);
            else showHere(nonce, anchor, options.focus);
          }
          return badge;
        },
        () => {
          if (current === opened) presenter.close('stopped');
          return null;
        },
      );
    },
    close() {
      if (!current) return;
      const { nonce } = current;
      current = null;
      anchorElement = null;
      viewports?.abort();
      viewports = null;
      view?.remove();
      void client.close(nonce).catch(() => undefined);
    },
    contains: (node) => view?.contains(node) ?? false,
    hasFocus: () => view?.hasFocus() ?? false,
    reposition() {
      if (!current) return;
      if (!anchorElement?.isConnected) presenter.close('replaced');
      else if (current.inTop) void client.move(current.nonce, rectOf(anchorElement)).catch(() => undefined);
      else view?.place();
    },
  };
  return presenter;
}
