import type { CardAnchor, FrameRect } from '../../protocol/content';
import { CARD_TAG } from '../../protocol/guarded/card';
import { postCardAnchor } from '../shared/card-anchor';
import { watchViewports } from '../shared/viewports';
import { sameOriginChainOf, toAncestorViewport } from '../shared/frame-geometry';
import { gestureSeen, seenThrough, type Gesture, type Point } from '../shared/seen';
import { newNonce } from '../shared/nonce';
import type { CardEvents, CardPresenter, SnapshotRequest } from '../shared/card-contract';
import type { CardClient } from './client';

export interface CardDeps {
  client: CardClient;
  /** The window of the content script's own document. */
  window: Window;
  /** Aborted when the content script stops: the card and its listeners go. */
  signal: AbortSignal;
  /** Whether a gesture was seen in this document (default: `gestureSeen`; tests that cannot lay out pass their own). */
  judge?: (gesture: Gesture) => Promise<boolean>;
}

/** A card page loaded ahead waits in the top frame until a card takes it: asking again sooner is a wasted message. */
const WARM_EVERY_MS = 5000;

const isCardElement = (node: Node) => node.nodeType === 1 && (node as Element).localName === CARD_TAG;

/**
 * The annotator's side of its hover card, loaded into a frame the first time it is needed (the
 * annotator's lazy card, lib/content/annotator/card.ts). The top frame's card host (lib/content/top-frame) draws the
 * card of every frame of the tab, told through the background: so a card is not cut off by a small
 * frame, runs where a sandboxed frame would stop a card page, and goes away with a frame that goes
 * away. This side says where the badge is and where it moves, and hears what the card did. The card
 * page claims its link with a one-time nonce: a copy of card.html that a page frames itself gets nothing.
 */
export function createCard({ client, window: win, signal, judge = gestureSeen }: CardDeps, events: CardEvents): CardPresenter {
  const inSubframe = win !== win.top;
  let placement: { hops: number; frames: readonly HTMLElement[]; windows: readonly Window[] } | null = null;
  let current: { request: SnapshotRequest; nonce: string } | null = null;
  let anchorElements: readonly Element[] = [];
  let viewports: AbortController | null = null;
  let warmedAt = -WARM_EVERY_MS;

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
   * Where the host places the card: by the window `hops` same-origin parents up, the highest below
   * the top that this frame reaches (frame-geometry.ts), whose frame element the host finds (for the
   * top frame itself: its own viewport). The badge's box is measured through the frames on the way,
   * and the windows on the way scroll it.
   */
  function placementOf(): NonNullable<typeof placement> {
    if (placement) return placement;
    const { frames, windows } = sameOriginChainOf(win);
    // Up to the top itself, the last frame element is one the host finds: the box is measured up to the window inside it.
    const hops = windows.at(-1) === win.top ? Math.max(frames.length - 1, 0) : frames.length;
    return (placement = { hops, frames: frames.slice(0, hops), windows: windows.slice(0, hops + 1) });
  }

  /** The box around the link and its badge (what the card must not cover), in that window's viewport. */
  const rectOf = (anchors: readonly Element[]): FrameRect => {
    const boxes = anchors.map((anchor) => anchor.getBoundingClientRect()).filter((box) => box.width > 0 || box.height > 0);
    const union = boxes.reduce(
      (around, box) => ({
        left: Math.min(around.left, box.left),
        top: Math.min(around.top, box.top),
        right: Math.max(around.right, box.right),
        bottom: Math.max(around.bottom, box.bottom),
      }),
      boxes[0] ?? { left: 0, top: 0, right: 0, bottom: 0 },
    );
    return toAncestorViewport(union, placementOf().frames);
  };

  function anchorOf(anchors: readonly Element[], at: Point): CardAnchor {
    const { windows, hops } = placementOf();
    const target = windows[hops] ?? win;
    return {
      ...(inSubframe ? { key: postCardAnchor(win) } : {}),
      hops,
      rect: rectOf(anchors),
      viewport: { width: target.innerWidth, height: target.innerHeight },
      at,
    };
  }

  const presenter: CardPresenter = {
    get isOpen() {
      return current !== null;
    },
    open(request, anchors, options) {
      anchorElements = anchors;
      // The same link again (a click after a hover, say): only a key asks anew, for focus.
      if (current && current.request.origin === request.origin && current.request.token === request.token && !options.focus) {
        presenter.reposition();
        return null;
      }
      const nonce = newNonce();
      const opened = (current = { request, nonce });
      warmedAt = -WARM_EVERY_MS; // this card takes the page loaded ahead: the next rest asks for another
      viewports?.abort();
      viewports = new AbortController();
      watchViewports(placementOf().windows, () => presenter.reposition(), viewports.signal);
      const { gesture } = options;
      return judge(gesture).then((seen) => {
        if (current !== opened) return; // another card or a close came first
        // Seen only through the frames on the way up that this frame reaches (the point carried through
        // them); the top frame judges the rest. Not seen, the point no longer matters.
        const at = seen ? seenThrough(gesture.at, placementOf().frames) : null;
        return client
          .open({ ...request, nonce, intent: options.intent, seen: at !== null, anchor: anchorOf(anchors, at ?? gesture.at) })
          .then(
            ({ shown }) => {
              // Nothing in the top frame draws cards (an orphaned page after an update): no card, the badge still shows.
              if (!shown && current === opened) events.onCloseRequested('replaced');
            },
            () => {
              if (current === opened) events.onCloseRequested('replaced');
            },
          );
      });
    },
    warm() {
      const now = performance.now();
      if (now - warmedAt < WARM_EVERY_MS) return;
      warmedAt = now;
      void client.warm().catch(() => undefined);
    },
    close() {
      if (!current) return;
      const { nonce } = current;
      current = null;
      anchorElements = [];
      viewports?.abort();
      viewports = null;
      void client.close(nonce).catch(() => undefined);
    },
    // The card is drawn in the top document: only there can the pointer or focus be on it.
    contains: (node) => !inSubframe && isCardElement(node),
    hasFocus: () => !inSubframe && win.document.activeElement !== null && isCardElement(win.document.activeElement),
    reposition() {
      if (!current) return;
      if (!anchorElements.every((anchor) => anchor.isConnected)) events.onCloseRequested('replaced');
      else void client.move(current.nonce, rectOf(anchorElements)).catch(() => undefined);
    },
  };
  return presenter;
}
