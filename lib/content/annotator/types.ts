import type { ActivationSource } from '../../protocol/guarded/card';
import type { Point } from '../shared/seen';
import type { Badge, BadgeCallbacks, DescribeBadge } from './badge';
import type { BadgeResult, BadgeText } from './badge-view';
import type { VisibilityWatcherFactory } from './visibility';

/**
 * What the content-script engine needs from its surroundings. Everything is injected so the engine
 * runs unchanged in happy-dom tests, the real content script and a popup-triggered "scan this page".
 */

/** The part of a recognised link the engine uses (lib/core/links `RecognizedLink` fits). */
export interface AnnotatableLink {
  readonly origin: string;
  readonly token: string;
  /** One key per (origin, token), whatever wrapper the link came in. */
  readonly canonicalKey: string;
  /** Which form the link came in (API URL or human share URL). */
  readonly kind: 'api' | 'share';
}

export interface AnchorRecognizer {
  /** `rawHref`: the anchor's `href` attribute, when the caller has just read it (read once per look). */
  recognizeAnchor(
    anchor: { getAttribute(name: string): string | null; readonly href?: unknown },
    rawHref?: string | null,
  ): AnnotatableLink | null;
  /**
   * Which anchors are worth a look on a page with this base URL, as a CSS selector (null: none).
   * Without it every `a[href]` is looked at. lib/core/links' recognizer provides it.
   */
  candidateSelector?(baseURI: string): string | null;
}

export interface SnapshotRequest {
  origin: string;
  token: string;
}

export interface BadgeSnapshotClient {
  /** Cache only: never a fetch, so never a view. One answer per request, null = nothing cached. */
  peekMany(requests: SnapshotRequest[]): Promise<(BadgeResult | null)[]>;
  /**
   * Calls `onChange` with a link's canonical key and what its badges show now, whenever the background
   * fetched it again (a card in another frame, the popup, the side panel, the watchlist), until `signal` aborts.
   */
  listenChanges(onChange: (key: string, badge: BadgeResult) => void, signal: AbortSignal): void;
}

export type { ActivationSource };

export type CardCloseReason = 'escape' | 'button' | 'pointer-left' | 'outside' | 'replaced' | 'navigation' | 'stopped';

/** Why the card itself asks to close: its own button or Escape, a press outside it, another frame's card. */
export type CardCloseRequest = Extract<CardCloseReason, 'escape' | 'button' | 'outside' | 'replaced'>;

export interface CardPresenter {
  /**
   * Shows the card for `request` next to `anchors` (the link and its badge: the card never covers
   * them); one card at a time. Answers, once
   * the background knows it, what the link's badge shows (null: nothing, neither fetched nor cached);
   * null at once when the card already shows this link (nothing is asked).
   */
  open(
    request: SnapshotRequest,
    anchors: readonly Element[],
    options: {
      focus: boolean;
      intent: ActivationSource;
      /** The gesture was on something a person could see in this document (lib/content/shared/seen.ts). */
      seen: boolean;
      /** Where: the pointer, or the badge's centre for a click or a key, in this document's viewport. */
      at: Point;
    },
  ): Promise<BadgeResult | null> | null;
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

export interface Scheduler {
  /**
   * Runs `callback` soon, as a task of its own in an idle period, never inside a frame: a slice of
   * DOM work then never shares a task with the page's own layout and paint. Returns a canceller.
   */
  batch(callback: () => void): () => void;
  /** Returns a canceller. */
  timeout(callback: () => void, ms: number): () => void;
  /** Monotonic milliseconds, for the per-slice work budget. */
  now(): number;
}

export interface AnnotatorOptions {
  document: Document;
  /** Aborted when the content script stops: observer, listeners, timers, badges and card go. */
  signal: AbortSignal;
  recognizer: AnchorRecognizer;
  client: BadgeSnapshotClient;
  createCard: (events: CardEvents) => CardPresenter;
  scheduler: Scheduler;
  /** How long the pointer must rest on a link or badge before it counts as intent. */
  hoverDelayMs: number;
  /** Work per batch before yielding, so no task grows long on huge pages. */
  sliceBudgetMs?: number;
  /** Wall clock for badge texts ("retry in 2 min"). */
  now?: () => number;
  /** Badge strings in the reader's language. */
  text: BadgeText;
  /** Injected by tests to reach into the closed shadow roots. */
  createBadge?: (doc: Document, callbacks: BadgeCallbacks, describe: DescribeBadge) => Badge;
  /**
   * Reports links coming near the viewport, so their badges are drawn then (see `Badge.draw`).
   * Default: an IntersectionObserver with half a viewport of margin; where there is none (tests),
   * every badge is drawn at once.
   */
  watchVisibility?: VisibilityWatcherFactory | null;
  /**
   * Whether a page event is a real user gesture. Default `event.isTrusted`: page scripts can dispatch
   * pointer and key events, and a forged hover must neither cost a view nor drain the request budget
   * (test/e2e/hostile.spec.ts). Unit tests in happy-dom, where every event is synthetic, pass `() => true`.
   */
  isUserEvent?: (event: Event) => boolean;
}

/** The options every unit of the engine reads, with their defaults filled in. */
export type EngineConfig = Required<Omit<AnnotatorOptions, 'text' | 'createBadge' | 'watchVisibility'>>;
