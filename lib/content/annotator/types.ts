import type { ActivationSource } from '../../protocol/guarded/card';
import type { CardCloseReason, CardCloseRequest, CardEvents, CardPresenter, SnapshotRequest } from '../shared/card-contract';
import type { Badge, BadgeCallbacks, DescribeBadge } from './badge';
import type { BadgeResult, BadgeText } from './badge-view';
import type { createBadgeFitter } from './badge-fit';
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

export type { CardCloseReason, CardCloseRequest, CardEvents, CardPresenter, SnapshotRequest };

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

export interface Scheduler {
  /**
   * Runs `callback` soon, as a task of its own in an idle period, never inside a frame: a slice of
   * DOM work then never shares a task with the page's own layout and paint. Returns a canceller.
   */
  batch(callback: () => void): () => void;
  /** Runs `callback` in the next animation frame, after the DOM work of this task and before the page is painted. Returns a canceller. */
  frame(callback: () => void): () => void;
  /** Returns a canceller. */
  timeout(callback: () => void, ms: number): () => void;
  /** Monotonic milliseconds on the clock of events' `timeStamp`: the per-slice work budget, and when a rest began. */
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
  /**
   * Whether the browser has rendered the document since the script started (a frame came before the
   * settings did), or before it (a frame the background injected it into once it held a share link):
   * links found then were painted without their badges, which must not move them now.
   * Default: never (tests).
   */
  rendered?: () => boolean;
  /** Wall clock for badge texts ("retry in 2 min"). */
  now?: () => number;
  /** Badge strings in the reader's language. */
  text: BadgeText;
  /** Injected by tests to reach into the closed shadow roots. */
  createBadge?: (doc: Document, callbacks: BadgeCallbacks, describe: DescribeBadge, stylesheet: () => string) => Badge;
  /**
   * Reports links coming near the viewport, so their badges are drawn then (see `Badge.draw`).
   * Default: an IntersectionObserver with half a viewport of margin; where there is none (tests),
   * every badge is drawn at once.
   */
  watchVisibility?: VisibilityWatcherFactory | null;
  /**
   * Fits each badge to the page as laid out (badge-fit.ts). Default: on; null where nothing is laid
   * out (unit tests in happy-dom): badges keep their full form.
   */
  fitBadges?: typeof createBadgeFitter | null;
  /**
   * Whether a page event is a real user gesture. Default `event.isTrusted`: page scripts can dispatch
   * pointer and key events, and a forged hover must neither cost a view nor drain the request budget
   * (test/e2e/hostile.spec.ts). Unit tests in happy-dom, where every event is synthetic, pass `() => true`.
   */
  isUserEvent?: (event: Event) => boolean;
}

/** The options every unit of the engine reads, with their defaults filled in. */
export type EngineConfig = Required<Omit<AnnotatorOptions, 'text' | 'createBadge' | 'watchVisibility' | 'fitBadges'>>;
