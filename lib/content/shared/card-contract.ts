import type { ActivationSource } from '../../protocol/guarded/card';
import type { Gesture } from './seen';

/**
 * What the annotator and its card presenter (lib/content/card-presenter, a script of its own that the
 * background loads into a frame the first time a reader's pointer comes to a link there) say to each
 * other: the presenter registers its factory on the content scripts' own world (never the page's)
 * under CARD_PRESENTER_KEY, and the annotator creates its card with it.
 */

/** `Symbol.for(CARD_PRESENTER_KEY)` on the isolated world's `globalThis`: the presenter's factory. */
export const CARD_PRESENTER_KEY = 'compliance-lens:card-presenter';

export interface SnapshotRequest {
  origin: string;
  token: string;
}

export type CardCloseReason = 'escape' | 'button' | 'pointer-left' | 'outside' | 'replaced' | 'navigation' | 'stopped';

/** Why the card itself asks to close: its own button or Escape, a press outside it, another frame's card. */
export type CardCloseRequest = Extract<CardCloseReason, 'escape' | 'button' | 'outside' | 'replaced'>;

export interface CardPresenter {
  /**
   * Shows the card for `request` next to `anchors` (the link and its badge: the card never covers
   * them); one card at a time. Settles once the background has fetched what it may (the badge heard
   * what it shows before, as `badgeChanged`); null at once when the card already shows this link
   * (nothing is asked).
   */
  open(
    request: SnapshotRequest,
    anchors: readonly Element[],
    options: {
      focus: boolean;
      intent: ActivationSource;
      /** What the gesture was on: the presenter judges whether it was seen (lib/content/shared/seen.ts). */
      gesture: Gesture;
    },
  ): Promise<void> | null;
  close(reason: CardCloseReason): void;
  /** A card may be asked for soon (the pointer rests, a badge has focus): the top frame loads a card page ahead. */
  warm(): void;
  readonly isOpen: boolean;
  /** True for the card's own elements (so the pointer moving onto the card keeps it open). */
  contains(node: Node): boolean;
  /** Whether keyboard focus is inside the card. */
  hasFocus(): boolean;
  /** Re-positions (after scrolling or resizing, which the presenter watches itself). */
  reposition(): void;
}

/** Callbacks a card implementation reports to the engine (requests from the card page). */
export interface CardEvents {
  onCloseRequested(reason: CardCloseRequest): void;
  /** The card page reports the pointer entering or leaving it. */
  onCardHover(inside: boolean): void;
}

/** The presenter's factory, as it registers itself: the annotator's window and lifetime, and its events. */
export type CreateCardPresenter = (deps: { window: Window; signal: AbortSignal }, events: CardEvents) => CardPresenter;
