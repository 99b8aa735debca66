import { vi } from 'vitest';
import { badgeFace } from '@/lib/core/badge-face';
import type { BadgeSummary } from '@/lib/core/schemas/results';
import { createBadge, type Badge } from '@/lib/content/annotator/badge';
import { createAnnotator, type Annotator, type AnnotatorOptions } from '@/lib/content/annotator/annotator';
import type { BadgeResult } from '@/lib/content/annotator/badge-view';
import type { CardEvents, CardPresenter, Scheduler, SnapshotRequest } from '@/lib/content/annotator/types';
import { createLinkRecognizer } from '@/lib/core/links';
import type { ServiceConfig } from '@/lib/core/services';
import { fixtureToken } from '@/test/fixtures/snapshot';
import { EN_TEXT } from './badge-text';
import { canonicalKeyOf } from '@/lib/core/links/templates';

export const SERVICE: ServiceConfig = {
  id: 'test',
  name: 'Test service',
  origin: 'https://comply.example',
  apiPathTemplate: '/api/v1/compliance-status/{token}',
  sharePathTemplates: ['/share/{token}'],
};

let pointerX = 0;
/**
 * The pointer moves onto `target`: `pointerover`, then a `pointermove` whose screen coordinates
 * changed (a rest counts only once the pointer itself moved onto a link or its badge), stamped
 * `timeStamp` when given (the time the browser saw the move, before it handed it to the page).
 */
export function pointTo(target: Element, relatedTarget: Element | null = null, timeStamp?: number): void {
  target.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, composed: true, relatedTarget }));
  pointerX += 3;
  const move = new PointerEvent('pointermove', { bubbles: true, composed: true, screenX: pointerX, screenY: 40, movementX: 3 });
  if (timeStamp !== undefined) Object.defineProperty(move, 'timeStamp', { value: timeStamp });
  target.dispatchEvent(move);
}

export const shareUrl = (index: number) => `${SERVICE.origin}/share/${fixtureToken(index)}`;
export const apiUrl = (index: number) => `${SERVICE.origin}/api/v1/compliance-status/${fixtureToken(index)}`;

/** The background's face for a summary, worded in English (what `peekBadges` and `openCard` answer). */
export const face = (summary: BadgeSummary): BadgeResult => badgeFace(summary, EN_TEXT);

export const READY: BadgeResult = face({ state: 'ready', score: 76, label: 'Good Standing', band: 'medium' });

/** Frames run only when the test says so; timeouts use (fakeable) global timers. */
export class ManualScheduler implements Scheduler {
  private frames: (() => void)[] = [];
  framesRequested = 0;
  clock = 0;

  frame(callback: () => void): () => void {
    this.framesRequested += 1;
    this.frames.push(callback);
    return () => {
      this.frames = this.frames.filter((candidate) => candidate !== callback);
    };
  }

  /** Batches of DOM work run with the frames, when the test says so. */
  batch(callback: () => void): () => void {
    return this.frame(callback);
  }

  timeout(callback: () => void, ms: number): () => void {
    const id = setTimeout(callback, ms);
    return () => clearTimeout(id);
  }

  now(): number {
    return this.clock;
  }

  get pendingFrames(): number {
    return this.frames.length;
  }

  /** Runs the frames queued so far (not the ones they queue). */
  runFrame(): void {
    const frames = this.frames;
    this.frames = [];
    for (const frame of frames) frame();
  }

  /** Runs frames until none is left. */
  runAllFrames(limit = 1000): number {
    let runs = 0;
    while (this.frames.length > 0 && runs < limit) {
      this.runFrame();
      runs += 1;
    }
    return runs;
  }
}

export class FakeCard implements CardPresenter {
  isOpen = false;
  opened: { request: SnapshotRequest; anchors: readonly Element[]; focus: boolean; intent: string }[] = [];
  closed: string[] = [];
  /** How often a card page was asked to load ahead (the pointer rested, a badge took focus). */
  warmed = 0;
  readonly element: HTMLElement;
  focused = false;

  constructor(
    readonly events: CardEvents,
    doc: Document,
    /** The background's `openCard` (it fetches the link if it may): what the badge then shows. */
    private readonly openCard: (request: SnapshotRequest) => Promise<BadgeResult | null>,
    /** The background's `badgeChanged` to this frame, which comes before `openCard`'s answer. */
    private readonly badgeChanged: (key: string, badge: BadgeResult) => void,
  ) {
    this.element = doc.createElement('div');
    this.element.id = 'fake-card';
  }

  open(request: SnapshotRequest, anchors: readonly Element[], options: { focus: boolean; intent: string }): Promise<void> {
    this.isOpen = true;
    this.focused = options.focus;
    this.opened.push({ request, anchors, focus: options.focus, intent: options.intent });
    if (!this.element.isConnected) this.element.ownerDocument.body.append(this.element);
    return this.openCard(request).then((badge) => {
      if (badge) this.badgeChanged(canonicalKeyOf(request.origin, request.token), badge);
    });
  }

  warm(): void {
    this.warmed++;
  }

  close(reason: string): void {
    this.isOpen = false;
    this.focused = false;
    this.closed.push(reason);
    this.element.remove();
  }

  contains(node: Node): boolean {
    return this.element.contains(node);
  }

  hasFocus(): boolean {
    return this.focused;
  }

  reposition(): void {}
}

export interface Harness {
  annotator: Annotator;
  scheduler: ManualScheduler;
  recognize: ReturnType<typeof vi.fn>;
  /** Per-link cache answers (the harness batches them like the real client). */
  peek: ReturnType<typeof vi.fn<(request: SnapshotRequest) => Promise<BadgeResult | null>>>;
  peekMany: ReturnType<typeof vi.fn<(requests: SnapshotRequest[]) => Promise<(BadgeResult | null)[]>>>;
  /** The background's `openCard`, asked when a card opens for a link (it fetches the link if it may): what the badge then shows (told as `badgeChanged` before the answer). */
  openCard: ReturnType<typeof vi.fn<(request: SnapshotRequest) => Promise<BadgeResult | null>>>;
  /** The background's `badgeChanged`: the link with this canonical key was fetched again elsewhere. */
  badgeChanged(key: string, badge: BadgeResult): void;
  /** Stops the annotator (its signal aborts). */
  stop(): void;
  card(): FakeCard;
  /** The badge object behind a host element (its shadow root is closed). */
  badgeOf(host: Element): Badge;
  /** Lets mutation-observer callbacks and promise chains run. */
  settle(): Promise<void>;
}

export function startHarness(overrides: Partial<AnnotatorOptions> = {}): Harness {
  const recognizer = createLinkRecognizer([SERVICE]);
  const recognize = vi.fn((anchor: HTMLAnchorElement, rawHref?: string | null) => recognizer.recognizeAnchor(anchor, rawHref));
  const peek = vi.fn(async (_request: SnapshotRequest): Promise<BadgeResult | null> => null);
  const peekMany = vi.fn((requests: SnapshotRequest[]) => Promise.all(requests.map((request) => peek(request))));
  const openCard = vi.fn(async (_request: SnapshotRequest): Promise<BadgeResult | null> => READY);
  const lifetime = new AbortController();
  const scheduler = new ManualScheduler();
  let fakeCard: FakeCard | null = null;
  const created = new Map<Element, Badge>();
  let onBadgeChange: (key: string, badge: BadgeResult) => void = () => undefined;
  const annotator = createAnnotator({
    document,
    recognizer: { recognizeAnchor: recognize, candidateSelector: (baseURI: string) => recognizer.candidateSelector(baseURI) },
    signal: lifetime.signal,
    client: {
      peekMany,
      listenChanges(onChange, signal) {
        onBadgeChange = (key, badge) => !signal.aborted && onChange(key, badge);
      },
    },
    createCard: (events) => (fakeCard = new FakeCard(events, document, openCard, (key, badge) => onBadgeChange(key, badge))),
    scheduler,
    hoverDelayMs: 400,
    sliceBudgetMs: 1_000_000,
    now: () => Date.parse('2026-11-22T08:00:00.000Z'),
    text: EN_TEXT,
    // happy-dom events are all synthetic (isTrusted false); the real content script keeps the default.
    isUserEvent: () => true,
    // Badges drawn at once, unless a test brings its own watcher (drawing.test.ts).
    watchVisibility: null,
    // Nothing is laid out in happy-dom: badge-fit.test.ts gives the fitter boxes of its own.
    fitBadges: null,
    createBadge: (...args) => {
      const badge = createBadge(...args);
      created.set(badge.host, badge);
      return badge;
    },
    ...overrides,
  });
  return {
    annotator,
    scheduler,
    recognize,
    peek,
    peekMany,
    openCard,
    badgeChanged: (key, badge) => onBadgeChange(key, badge),
    stop: () => lifetime.abort(),
    badgeOf(host) {
      const badge = created.get(host);
      if (!badge) throw new Error('not one of our badges');
      return badge;
    },
    card() {
      if (!fakeCard) throw new Error('no card created yet');
      return fakeCard;
    },
    async settle() {
      for (let i = 0; i < 5; i += 1) await Promise.resolve();
      await new Promise<void>((resolve) => queueMicrotask(resolve));
    },
  };
}

export function badges(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('compliance-lens-badge')];
}

export function link(href: string, text = 'snapshot'): HTMLAnchorElement {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.textContent = text;
  return anchor;
}
