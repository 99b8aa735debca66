import { BADGE_COMPACT_WIDTH, BADGE_HEIGHT } from '../../core/badge-look';
import { queryDeep } from '../../dom';
import { toAncestorViewport, type FrameLike } from './frame-geometry';

/** A point in a viewport, in CSS pixels. */
export interface Point {
  x: number;
  y: number;
}

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

/**
 * Whether the top layer may hide `element`: an open popover, a modal dialog or a fullscreen element it
 * is not in. That layer is above everything, may let the pointer through (`pointer-events: none`),
 * which no hit test sees, and may paint anywhere (a popover's `::backdrop` covers the viewport): so any
 * of it outside the element is doubt.
 */
function underTopLayer(element: Element): boolean {
  try {
    // Not looked for across shadow roots: a link in a component inside a dialog is doubt too.
    return queryDeep(element.ownerDocument, ':modal,:fullscreen,:popover-open').some((top) => !top.contains(element));
  } catch {
    return false; // a browser without these selectors has no such top layer either
  }
}

/** Hidden (`visibility`), or fainter than half opacity with its ancestors (shadow hosts included). */
export function faded(element: Element): boolean {
  const view = element.ownerDocument.defaultView;
  // `collapse` is not hit either: `shows` refuses it.
  if (!view || view.getComputedStyle(element).visibility === 'hidden') return true;
  let opacity = 1;
  for (let node: Element | null = element; node; node = parentOf(node))
    opacity *= Number(view.getComputedStyle(node).opacity || 1);
  return !(opacity >= 0.5); // at least half opaque
}

/** Whether `element` is the topmost element at the point in its document and in each shadow root on the way. */
function topmostAt(element: Element, { x, y }: Point): boolean {
  // Off the viewport nothing is hit (elementFromPoint answers null).
  for (let node: Element | null = element; node;) {
    const root = node.getRootNode();
    const hit = hitTestable(root) ? root.elementFromPoint(x, y) : null;
    // The hit is in the same tree as `node` (a shadow root answers with its own nodes, or hosts).
    if (!hit || !node.contains(hit)) return false;
    node = hostOf(node);
  }
  return true;
}

/**
 * Whether a person can see `element` at `at` (its document's viewport): in the viewport, not hidden,
 * at least half opaque with its ancestors (shadow hosts included), the topmost element there in its
 * document and in each shadow root on the way, and not under the top layer. A cover that lets the
 * pointer through (`pointer-events: none`) is not seen by the hit test: the browser's own check
 * (`browserSees`) catches it where there is one.
 */
export function shows(element: Element, at: Point): boolean {
  return !faded(element) && topmostAt(element, at) && !underTopLayer(element);
}

/**
 * Whether something from `from` up to (not including) `to` (the root when null), shadow hosts
 * included, may hide what it holds in a way no hit test sees: a mask, a filter, opacity below 1, a
 * blend mode. Nothing of an ordinary page's text does.
 */
export function veiled(from: Element | null, to: Element | null = null): boolean {
  const view = from?.ownerDocument.defaultView;
  for (let node = from; node && node !== to; node = parentOf(node)) {
    const style = view?.getComputedStyle(node);
    if (
      !style ||
      style.maskImage !== 'none' ||
      style.filter !== 'none' ||
      Number(style.opacity) < 1 ||
      style.mixBlendMode !== 'normal'
    )
      return true;
  }
  return false;
}

/** Whether an element paints its text: not in a transparent or nearly transparent colour (nor fill). */
export function paintsText(element: Element): boolean {
  const style = element.ownerDocument.defaultView?.getComputedStyle(element);
  if (!style) return false;
  const alpha = (color: string) => Number(/rgba\(.*,\s*([\d.]+)\)/.exec(color)?.[1] ?? (color === 'transparent' ? 0 : 1));
  return alpha(style.color) >= 0.35 && alpha(style.webkitTextFillColor || style.color) >= 0.35;
}

/** Where a badge is hit tested: its centre and near each corner. */
const BADGE_POINTS = [
  [0.5, 0.5],
  [0.2, 0.25],
  [0.8, 0.25],
  [0.2, 0.75],
  [0.8, 0.75],
] as const;

/**
 * Whether the extension's own mark, a badge's host, is seen (docs/security.md section 10): drawn at
 * no less than half its size (no transform or zoom shrinks it away), shown (display, visibility,
 * opacity, content-visibility), nothing above it veiling it, the topmost element at its centre and
 * near each corner, not under the top layer, and, where the browser can tell (Chromium's
 * IntersectionObserver v2), painted whole with nothing over it. The host's own style is the
 * extension's (inline, `!important`, put back if the page rewrites it).
 */
export async function badgeSeen(host: Element): Promise<boolean> {
  const { left, top, width, height } = host.getBoundingClientRect();
  if (width < BADGE_COMPACT_WIDTH / 2 || height < BADGE_HEIGHT / 2) return false;
  if (!host.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return false;
  if (veiled(parentOf(host)) || underTopLayer(host)) return false;
  for (const [x, y] of BADGE_POINTS) if (!topmostAt(host, { x: left + width * x, y: top + height * y })) return false;
  return browserSees(host);
}

/** What a gesture was on, for the judge (`gestureSeen`). */
export interface Gesture {
  /** The share link. */
  link: Element;
  /** The link's badge host: the extension's own mark. */
  badge: Element;
  /** Where the gesture was: the link (a rest) or the badge (a rest, a key, a click). */
  on: Element;
  /** Where the pointer was, or the badge's centre for a key or a click, in this document's viewport. */
  at: Point;
  /** The badge was drawn before the gesture: a mark that appears under a pointer was not aimed at. */
  drawnBefore: boolean;
}

/**
 * Whether a gesture counts (docs/security.md section 10): on the extension's own mark, seen, beside a
 * link a person can see. The badge drawn before the gesture, whole and unveiled; the link's text
 * painted, nothing of its own veiling it; a rest on the link also needs the link to show where the
 * pointer is.
 */
export async function gestureSeen({ link, badge, on, at, drawnBefore }: Gesture): Promise<boolean> {
  const onLink = on !== badge;
  const linkSeen =
    (!link.textContent?.trim() || paintsText(link)) &&
    !veiled(onLink ? on : link, link.parentElement) &&
    (!onLink || (shows(on, at) && paintsText(on)));
  return drawnBefore && linkSeen && (await badgeSeen(badge));
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

interface VisibilityInit extends IntersectionObserverInit {
  trackVisibility: boolean;
  delay: number;
}
const TRACK_VISIBILITY: VisibilityInit = { trackVisibility: true, delay: 100 };

/**
 * The browser's own verdict where it has one (IntersectionObserver v2 in Chromium: nothing painted
 * over the element, no opacity below 1, no transform but a move, no filter, in its frame and in every
 * frame around it). True where the browser has no such check. It answers at the next rendering update,
 * which a document a person is using always has.
 */
export function browserSees(element: Element): Promise<boolean> {
  const view = element.ownerDocument.defaultView;
  if (!view || !('isVisible' in view.IntersectionObserverEntry.prototype)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const observer = new view.IntersectionObserver(([entry]) => {
      observer.disconnect();
      resolve(entry !== undefined && Reflect.get(entry, 'isVisible') === true);
    }, TRACK_VISIBILITY);
    observer.observe(element);
  });
}
