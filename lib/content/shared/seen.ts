import { queryDeep } from '../../dom';
import { toAncestorViewport, type FrameLike } from './frame-geometry';

/** A point in a viewport, in CSS pixels. */
export interface Point {
  x: number;
  y: number;
}

/** Least opacity, its ancestors' included, at which an element counts as seen. */
const MIN_OPACITY = 0.5;

/** An element, of this realm or another (a parent frame's nodes are another realm's). */
const isElement = (value: unknown): value is Element =>
  typeof value === 'object' && value !== null && Reflect.get(value, 'nodeType') === 1;

/** The host of the shadow root `node` is in, or null in a document. */
function hostOf(node: Element): Element | null {
  const root: Node = node.getRootNode();
  return 'host' in root && isElement(root.host) ? root.host : null;
}

/** A document or a shadow root (another realm's too): what hit tests. */
const hitTestable = (root: Node): root is Node & DocumentOrShadowRoot => 'elementFromPoint' in root;

/** The element's parent, crossing out of a shadow root to its host. */
const parentOf = (node: Element): Element | null => node.parentElement ?? hostOf(node);

/** Whether `inner` is `outer` or inside it, shadow roots included. */
function within(inner: Element, outer: Element): boolean {
  for (let node: Element | null = inner; node; node = parentOf(node)) if (node === outer) return true;
  return false;
}

/**
 * Whether the top layer may hide `element`: an open popover, a modal dialog or a fullscreen element it
 * is not in. That layer is above everything, may let the pointer through (`pointer-events: none`),
 * which no hit test sees, and may paint anywhere (a popover's `::backdrop` covers the viewport): so any
 * of it outside the element is doubt.
 */
function underTopLayer(element: Element): boolean {
  try {
    return queryDeep(element.ownerDocument, ':modal,:fullscreen,:popover-open').some((top) => !within(element, top));
  } catch {
    return false; // a browser without these selectors has no such top layer either
  }
}

/** Hidden (`visibility`), or fainter than half opacity with its ancestors (shadow hosts included). */
export function faded(element: Element): boolean {
  const view = element.ownerDocument.defaultView;
  if (!view || view.getComputedStyle(element).visibility !== 'visible') return true;
  let opacity = 1;
  for (let node: Element | null = element; node; node = parentOf(node)) opacity *= Number(view.getComputedStyle(node).opacity);
  return !(opacity >= MIN_OPACITY);
}

/**
 * Whether a person can see `element` at `at` (its document's viewport): in the viewport, not hidden,
 * at least half opaque with its ancestors (shadow hosts included), the topmost element there in its
 * document and in each shadow root on the way, and not under the top layer. A cover that lets the
 * pointer through (`pointer-events: none`) is not seen by the hit test: the browser's own check
 * (`browserSees`) catches it where there is one.
 */
export function shows(element: Element, { x, y }: Point): boolean {
  const view = element.ownerDocument.defaultView;
  if (!view || !(x >= 0 && y >= 0 && x < view.innerWidth && y < view.innerHeight) || faded(element)) return false;
  for (let node: Element | null = element; node;) {
    const root = node.getRootNode();
    const hit = hitTestable(root) ? root.elementFromPoint(x, y) : null;
    if (!isElement(hit) || !within(hit, node)) return false;
    node = hostOf(node);
  }
  return !underTopLayer(element);
}

/** A point of a frame's viewport in its parent's viewport. */
const throughFrame = ({ x, y }: Point, frame: FrameLike): Point => {
  const { left, top } = toAncestorViewport({ left: x, top: y, right: x, bottom: y }, [frame]);
  return { x: left, y: top };
};

/**
 * Whether each frame element on the way up shows at the point (`at`, in the innermost frame's
 * viewport), each in its own document: a link is seen only through a visible, uncovered frame chain.
 * Answers the point in the outermost document's viewport, or null when a frame does not show.
 */
export function seenThrough(at: Point, frames: readonly (FrameLike & Element)[]): Point | null {
  let point = at;
  for (const frame of frames) {
    point = throughFrame(point, frame);
    if (!shows(frame, point)) return null;
  }
  return point;
}

/** How long the browser's own check may take (it answers within a frame or two). */
const BROWSER_CHECK_MS = 500;
const TRACK_VISIBILITY: IntersectionObserverInit & { trackVisibility: boolean; delay: number } = {
  threshold: 0,
  trackVisibility: true,
  delay: 100,
};

/**
 * The browser's own verdict where it has one (IntersectionObserver v2 in Chromium: nothing painted
 * over the element, no opacity below 1, no unusual transform or filter, in its frame and in every
 * frame around it). True where the browser has no such check; false when it does not answer in time.
 */
export function browserSees(element: Element): Promise<boolean> {
  const view = element.ownerDocument.defaultView;
  if (!view || typeof view.IntersectionObserverEntry !== 'function' || !('isVisible' in view.IntersectionObserverEntry.prototype))
    return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (seen: boolean) => {
      observer.disconnect();
      resolve(seen);
    };
    const observer = new view.IntersectionObserver((entries) => {
      const entry = entries.at(-1);
      done(entry !== undefined && 'isVisible' in entry && entry.isVisible === true);
    }, TRACK_VISIBILITY);
    observer.observe(element);
    setTimeout(() => done(false), BROWSER_CHECK_MS);
  });
}
