/** A box in a viewport, in CSS pixels. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The documents a frame reaches through same-origin parents (a `srcdoc` or script-written
 * `about:blank` frame, a same-origin frame, nested), up to the topmost: a subframe measures its
 * badge's box through them for the top frame, which draws its card (annotator/card.ts), and the top
 * frame places the card through the frames between it and the frame it found (top-frame/card-host.ts).
 */
export interface SameOriginChain {
  /** The topmost document reached. */
  readonly document: Document;
  /** The frame elements from the link's document up to that document, innermost first. */
  readonly frames: readonly HTMLElement[];
  /** Every window from the link's up to the host's, for scroll and resize listeners. */
  readonly windows: readonly Window[];
}

export function sameOriginChainOf(win: Window): SameOriginChain {
  const frames: HTMLElement[] = [];
  const windows: Window[] = [win];
  let current = win;
  while (current.parent !== current) {
    let frame: Element | null;
    try {
      frame = current.frameElement; // null (or a throw) when the parent is on another origin
    } catch {
      frame = null;
    }
    // Duck-typed: the element belongs to the parent's realm, where this world's HTMLElement is another class.
    if (!frame || !('offsetWidth' in frame)) break;
    frames.push(frame as HTMLElement);
    current = current.parent;
    windows.push(current);
  }
  return { document: current.document, frames, windows };
}

/** What the geometry needs of a frame element (an `HTMLIFrameElement` fits, and so do test fakes). */
export type FrameLike = Pick<HTMLElement, 'getBoundingClientRect' | 'offsetWidth' | 'offsetHeight' | 'clientLeft' | 'clientTop'>;

/**
 * A rectangle of a frame's viewport in an ancestor's viewport: through each frame (innermost first),
 * moved by the frame's position and border and scaled by its transform or zoom (its box against its
 * layout size). A frame's own scrolling is already in the rectangle (it is in that frame's viewport).
 */
export function toAncestorViewport(rect: Rect, frames: readonly FrameLike[]): Rect {
  let { left, top, right, bottom } = rect;
  for (const frame of frames) {
    const box = frame.getBoundingClientRect();
    const scaleX = frame.offsetWidth > 0 ? box.width / frame.offsetWidth : 1;
    const scaleY = frame.offsetHeight > 0 ? box.height / frame.offsetHeight : 1;
    const originX = box.left + frame.clientLeft * scaleX;
    const originY = box.top + frame.clientTop * scaleY;
    left = originX + left * scaleX;
    right = originX + right * scaleX;
    top = originY + top * scaleY;
    bottom = originY + bottom * scaleY;
  }
  return { left, top, right, bottom };
}
