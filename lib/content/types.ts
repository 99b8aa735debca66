import type { ReadinessLabel, RiskBand } from '../core/labels';

/**
 * What the content-script engine needs from its surroundings. Everything is injected so the engine
 * runs unchanged in happy-dom tests, the real content script and a popup-triggered "scan this page".
 */

/** The part of a recognised link the engine uses (lib/links `RecognizedLink` fits). */
export interface AnnotatableLink {
  readonly origin: string;
  readonly token: string;
  /** One key per (origin, token), whatever wrapper the link came in. */
  readonly canonicalKey: string;
}

export interface AnchorRecognizer {
  /** `rawHref`: the anchor's `href` attribute, when the caller has just read it (read once per look). */
  recognizeAnchor(
    anchor: { getAttribute(name: string): string | null; readonly href?: unknown },
    rawHref?: string | null,
  ): AnnotatableLink | null;
  /**
   * Which anchors are worth a look on a page with this base URL, as a CSS selector (null: none).
   * Without it every `a[href]` is looked at. lib/links' recognizer provides it.
   */
  candidateSelector?(baseURI: string): string | null;
}

/**
 * The little the badge may show: score, label and band. The rest of a snapshot never reaches page
 * DOM (it lives in the card iframe).
 */
export type BadgeResult =
  | { status: 'ready'; score: number; label: ReadinessLabel; band: RiskBand }
  | { status: 'error'; code: string; retryAt?: number | undefined; expiredAt?: string | undefined };

export interface SnapshotRequest {
  origin: string;
  token: string;
}

export interface BadgeSnapshotClient {
  /** Cache only: never a fetch, so never a view. One answer per request, null = nothing cached. */
  peekMany(requests: SnapshotRequest[]): Promise<(BadgeResult | null)[]>;
  /** Cached while fresh, else one fetch (counts a view). Only on intent. */
  get(request: SnapshotRequest): Promise<BadgeResult>;
}

export type ActivationSource = 'hover' | 'keyboard' | 'click';

export type CardCloseReason = 'escape' | 'button' | 'pointer-left' | 'outside' | 'replaced' | 'navigation' | 'stopped';

export interface CardPresenter {
  /** Shows the card for `request` next to `anchor` (the badge host); one card at a time. */
  open(request: SnapshotRequest, anchor: Element, options: { focus: boolean }): void;
  close(reason: CardCloseReason): void;
  readonly isOpen: boolean;
  /** True for the card's own elements (so the pointer moving onto the card keeps it open). */
  contains(node: Node): boolean;
  /** Whether keyboard focus is inside the card. */
  hasFocus(): boolean;
  /** Re-positions after scrolling or resizing. */
  reposition(): void;
}

/** Callbacks a card implementation reports to the engine (requests from the card page). */
export interface CardEvents {
  onCloseRequested(reason: 'escape' | 'button'): void;
  /** The card page reports the pointer entering or leaving it. */
  onCardHover(inside: boolean): void;
}

export interface Scheduler {
  /** Runs `callback` at the next frame (or soon after, if frames are paused). Returns a canceller. */
  frame(callback: () => void): () => void;
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
