import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import type { FrameRect, HostedCardEvent, TopFrameCard } from '../../protocol/content';
import { newNonce, postCardAnchor } from '../shared/card-anchor';
import { createCardView, watchViewports, type CardView } from '../shared/card-view';
import { sameOriginChainOf, toAncestorViewport } from '../shared/frame-geometry';
import type { ActivationSource, CardEvents, CardPresenter, SnapshotRequest } from './types';

export { CARD_TAG } from '../shared/card-view';

export interface CardBindingClient {
  /**
   * Binds this tab's card to `request` for the card page that claims it with `nonce`; answers whether
   * to fetch, and whether the top frame draws the card (asked with `inTopFrame`).
   */
  open(
    binding: SnapshotRequest & { nonce: string; intent: ActivationSource; inTopFrame?: TopFrameCard },
  ): Promise<{ fetch: boolean; inTop: boolean }>;
  /** The badge of the card the top frame draws moved to `rect`. */
  move(nonce: string, rect: FrameRect): Promise<unknown>;
  close(nonce: string): Promise<unknown>;
  /** Calls `listener` when another frame of the tab opened its card. */
  onReplaced(listener: () => void): void;
  /** Calls `listener` with what happened to the card the top frame draws for this frame. */
  onHostedEvent(listener: (event: HostedCardEvent) => void): void;
}

export interface CardFrameDeps {
  ctx: ContentScriptContext;
  binding: CardBindingClient;
  /** `browser.runtime.getURL('')` origin: the only origin card messages may come from. */
  extensionOrigin: string;
  /** The window of the content script's own document. */
  window: Window;
}

/**
 * The annotator's hover card. The top frame draws it in its own document (card-view.ts). A subframe
 * has the top frame draw it (card-host.ts, told through the background), so that the card is not cut
 * off by a small frame, runs where a sandboxed frame would stop a card page, and goes away with a
 * frame that goes away; the frame sends it where its badge went and hears what the card did. Only if
 * the top frame cannot (nothing there answers) does a subframe draw the card in its own document.
 * The card page claims its link with a one-time nonce: a copy of card.html that a page frames itself
 * gets nothing.
 */
export function createCardFrame(deps: CardFrameDeps, events: CardEvents): CardPresenter {
  const { ctx, binding, window: win } = deps;
  const inSubframe = win !== win.top;
  let placement: { hops: number; frames: readonly HTMLElement[]; windows: readonly Window[] } | null = null;
  let view: CardView | null = null;
  let current: { request: SnapshotRequest; nonce: string; inTop: boolean } | null = null;
  let anchorElement: Element | null = null;
  let openSequence = 0;
  let listeners: AbortController | null = null;

  binding.onReplaced(() => {
    if (current) events.onCloseRequested('replaced');
  });
  binding.onHostedEvent(({ nonce, event }) => {
    if (current?.nonce !== nonce) return;
    if (event === 'outside') events.onCloseRequested(event);
    // Dismissed from inside: as Escape, focus goes back to the badge.
    else if (event === 'dismiss') events.onCloseRequested('escape');
    else events.onCardHover(event === 'enter');
  });

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

  function viewOf(): CardView {
    if (view) return view;
    const created = createCardView({ document: win.document, extensionOrigin: deps.extensionOrigin }, events);
    ctx.onInvalidated(() => created.remove());
    return (view = created);
  }

  const presenter: CardPresenter = {
    get isOpen() {
      return current !== null;
    },
    async open(request, anchor, options) {
      anchorElement = anchor;
      if (current && current.request.origin === request.origin && current.request.token === request.token) {
        // The same link again (a key after a hover, say): only the card the top frame draws must be asked anew for focus.
        if (!(current.inTop && options.focus)) {
          presenter.reposition();
          if (options.focus) view?.focus();
          return true;
        }
      }
      const nonce = newNonce();
      current = { request, nonce, inTop: false };
      const sequence = ++openSequence;
      let answer: { fetch: boolean; inTop: boolean };
      try {
        answer = await binding.open({ ...request, nonce, intent: options.intent, inTopFrame: inTopFrame(anchor) });
      } catch {
        if (sequence === openSequence) presenter.close('stopped');
        return false;
      }
      if (sequence !== openSequence || current?.nonce !== nonce || ctx.isInvalid) return answer.fetch;
      current.inTop = answer.inTop;
      listeners?.abort();
      listeners = new AbortController();
      // The windows whose scrolling moves the badge in the viewport the card is placed by.
      watchViewports(answer.inTop ? placementOf().windows : [win], () => presenter.reposition(), listeners.signal);
      if (answer.inTop) view?.remove();
      else viewOf().show(nonce, () => (anchorElement ?? anchor).getBoundingClientRect(), options.focus);
      return answer.fetch;
    },
    close() {
      if (!current) return;
      const { nonce } = current;
      current = null;
      anchorElement = null;
      openSequence += 1;
      listeners?.abort();
      listeners = null;
      view?.remove();
      void binding.close(nonce).catch(() => undefined);
    },
    contains: (node) => view?.contains(node) ?? false,
    hasFocus: () => view?.hasFocus() ?? false,
    reposition() {
      if (!current) return;
      if (!anchorElement?.isConnected) presenter.close('replaced');
      else if (current.inTop) void binding.move(current.nonce, rectOf(anchorElement)).catch(() => undefined);
      else view?.place();
    },
  };
  return presenter;
}
