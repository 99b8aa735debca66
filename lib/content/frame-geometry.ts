import type { Rect } from './position';

/**
 * Where the card goes for a link in a frame. A mail body or a CRM record is often a small frame: a
 * card inside it would be cut off at its edges, so the card goes into the topmost document this
 * frame can reach through same-origin parents (a `srcdoc` or script-written `about:blank` frame, a
 * same-origin frame, nested). A frame whose parent is on another origin keeps its card to itself.
 */
export interface CardHost {
  /** The document the card is put in. */
  readonly document: Document;
  /** The frame elements from the link's document up to that document, innermost first. */
  readonly frames: readonly Element[];
  /** Every window from the link's up to the host's, for scroll and resize listeners. */
  readonly windows: readonly Window[];
}

export function cardHostOf(win: Window): CardHost {
  const frames: Element[] = [];
  const windows: Window[] = [win];
  let current = win;
  while (current.parent !== current) {
    let frame: Element | null;
    try {
      frame = current.frameElement; // null (or a throw) when the parent is on another origin
    } catch {
      frame = null;
    }
    if (!frame) break;
    frames.push(frame);
    current = current.parent;
    windows.push(current);
  }
  return { document: current.document, frames, windows };
}

/** One frame as its parent lays it out: its box, its layout size, and where its content starts. */
export interface FrameBox {
  /** `getBoundingClientRect()` in the parent's viewport (after transforms and zoom). */
  readonly rect: Rect;
  /** Layout size (`offsetWidth`/`offsetHeight`), before transforms: the ratio is the frame's scale. */
  readonly layoutWidth: number;
  readonly layoutHeight: number;
  /** Border and padding before the content box, in layout pixels. */
  readonly contentLeft: number;
  readonly contentTop: number;
}

export function frameBoxOf(frame: Element): FrameBox {
  const style = frame.ownerDocument.defaultView?.getComputedStyle(frame);
  const html = frame as HTMLElement;
  return {
    rect: frame.getBoundingClientRect(),
    layoutWidth: html.offsetWidth,
    layoutHeight: html.offsetHeight,
    contentLeft: frame.clientLeft + (parseFloat(style?.paddingLeft ?? '') || 0),
    contentTop: frame.clientTop + (parseFloat(style?.paddingTop ?? '') || 0),
  };
}

/**
 * A rectangle of a frame's viewport in an ancestor's viewport: through each frame (innermost first),
 * scaled by the frame's transform or zoom and moved by its position, border and padding. A frame's
 * own scrolling is already in the rectangle (it is in that frame's viewport).
 */
export function toAncestorViewport(rect: Rect, frames: readonly FrameBox[]): Rect {
  let { left, top, right, bottom } = rect;
  for (const frame of frames) {
    const scaleX = frame.layoutWidth > 0 ? (frame.rect.right - frame.rect.left) / frame.layoutWidth : 1;
    const scaleY = frame.layoutHeight > 0 ? (frame.rect.bottom - frame.rect.top) / frame.layoutHeight : 1;
    const originX = frame.rect.left + frame.contentLeft * scaleX;
    const originY = frame.rect.top + frame.contentTop * scaleY;
    left = originX + left * scaleX;
    right = originX + right * scaleX;
    top = originY + top * scaleY;
    bottom = originY + bottom * scaleY;
  }
  return { left, top, right, bottom };
}
