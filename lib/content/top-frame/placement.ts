import type { Rect } from '../shared/frame-geometry';

export type { Rect };

export interface Size {
  width: number;
  height: number;
}

export interface Placement {
  left: number;
  top: number;
  /** Height after clamping to the viewport (the card scrolls inside). */
  height: number;
  side: 'below' | 'above';
}

/**
 * Places the card next to its badge, inside the viewport: below and left-aligned by default,
 * flipped above when there is no room below, shifted left when it would overflow on the right.
 */
export function placeCard(anchor: Rect, size: Size, viewport: Size, gap = 6, margin = 8): Placement {
  const spaceBelow = viewport.height - anchor.bottom - gap - margin;
  const spaceAbove = anchor.top - gap - margin;
  const side = size.height <= spaceBelow || spaceBelow >= spaceAbove ? 'below' : 'above';
  const room = Math.max(0, side === 'below' ? spaceBelow : spaceAbove);
  const fullHeight = viewport.height - 2 * margin;
  const height = Math.max(Math.min(size.height, Math.max(room, Math.min(160, fullHeight)), fullHeight), 1);
  let top = side === 'below' ? anchor.bottom + gap : anchor.top - gap - height;
  top = Math.min(Math.max(top, margin), Math.max(margin, viewport.height - margin - height));

  let left = anchor.left;
  if (left + size.width > viewport.width - margin) left = anchor.right - size.width;
  left = Math.min(Math.max(left, margin), Math.max(margin, viewport.width - margin - size.width));
  return { left: Math.round(left), top: Math.round(top), height: Math.round(height), side };
}
