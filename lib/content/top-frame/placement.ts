import type { Rect } from '../shared/frame-geometry';

export type { Rect };

export interface Size {
  width: number;
  height: number;
}

export interface Placement {
  left: number;
  top: number;
  /** The card's width: its own, or the viewport's less the margins where that is narrower. */
  width: number;
  /** Height after fitting the room there is (the card's middle scrolls inside). */
  height: number;
  side: 'below' | 'above' | 'right' | 'left';
}

/**
 * Places the card next to its anchor (the link and its badge), inside the viewport, never over the
 * anchor, so that as much of it shows as the viewport allows wherever the link sits (issue #33 item 1):
 * below and left-aligned when it fits there whole, else above when it fits there whole; else beside
 * the link (right, then left), where it can be as tall as the viewport; else (a window too narrow for
 * that) in the larger room above or below, shortened to it (its middle scrolls, its start in view).
 * Shifted sideways, or up and down beside the anchor, to stay inside the viewport.
 */
export function placeCard(anchor: Rect, size: Size, viewport: Size, gap = 6, margin = 8): Placement {
  const width = Math.max(1, Math.min(size.width, viewport.width - 2 * margin));
  const fullHeight = Math.max(1, viewport.height - 2 * margin);
  const below = viewport.height - anchor.bottom - gap - margin;
  const above = anchor.top - gap - margin;
  const right = viewport.width - anchor.right - gap - margin;
  const left = anchor.left - gap - margin;
  const want = Math.min(size.height, fullHeight);

  const alongside = (side: 'right' | 'left'): Placement => {
    const height = want;
    const top = clamp(anchor.top, margin, viewport.height - margin - height);
    const x = side === 'right' ? anchor.right + gap : anchor.left - gap - width;
    return round({ left: x, top, width, height, side });
  };
  const vertical = (side: 'below' | 'above'): Placement => {
    const room = Math.max(1, side === 'below' ? below : above);
    const height = Math.min(want, room);
    // Clamped for an anchor scrolled partly out of the viewport (inside it, the room already fits).
    const top = clamp(
      side === 'below' ? anchor.bottom + gap : anchor.top - gap - height,
      margin,
      viewport.height - margin - height,
    );
    let x = anchor.left;
    if (x + width > viewport.width - margin) x = anchor.right - width;
    x = clamp(x, margin, viewport.width - margin - width);
    return round({ left: x, top, width, height, side });
  };

  if (want <= below) return vertical('below');
  if (want <= above) return vertical('above');
  if (width <= right) return alongside('right');
  if (width <= left) return alongside('left');
  return vertical(below >= above ? 'below' : 'above');
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), Math.max(low, high));

const round = (placement: Placement): Placement => ({
  ...placement,
  left: Math.round(placement.left),
  top: Math.round(placement.top),
  width: Math.round(placement.width),
  height: Math.round(placement.height),
});
