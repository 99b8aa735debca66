import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeCard, type Rect } from '@/lib/content/top-frame/placement';

const overlaps = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const boxOf = (p: { left: number; top: number; width: number; height: number }): Rect => ({
  left: p.left,
  top: p.top,
  right: p.left + p.width,
  bottom: p.top + p.height,
});

describe('placeCard', () => {
  const viewport = { width: 1280, height: 800 };
  const size = { width: 360, height: 480 };

  it('goes below the link, left-aligned, when there is room', () => {
    expect(placeCard({ left: 100, top: 100, right: 140, bottom: 116 }, size, viewport)).toEqual({
      left: 100,
      top: 122,
      width: 360,
      height: 480,
      side: 'below',
    });
  });

  it('flips above near the bottom and shifts left near the right edge', () => {
    const placement = placeCard({ left: 1200, top: 700, right: 1240, bottom: 716 }, size, viewport);
    expect(placement.side).toBe('above');
    expect(placement.top).toBe(700 - 6 - 480);
    expect(placement.left).toBe(1240 - 360);
  });

  it('in a deal-flow row with little room above and below, goes beside the link instead of over it', () => {
    const short = { width: 1280, height: 420 };
    const row = { left: 40, top: 190, right: 260, bottom: 208 };
    const placement = placeCard(row, size, short);
    expect(placement.side).toBe('right');
    expect(overlaps(boxOf(placement), row)).toBe(false);
  });

  it('a full card that fits neither above nor below a link mid-screen goes beside it, whole, not shortened (issue #33 item 1)', () => {
    const tall = { width: 360, height: 560 };
    const link = { left: 40, top: 390, right: 220, bottom: 408 };
    const placement = placeCard(link, tall, viewport);
    expect(placement).toMatchObject({ side: 'right', left: 226, height: 560 });
    expect(placement.top).toBe(800 - 8 - 560);
    const nearRightEdge = placeCard({ left: 1000, top: 390, right: 1180, bottom: 408 }, tall, viewport);
    expect(nearRightEdge).toMatchObject({ side: 'left', left: 1000 - 6 - 360, height: 560 });
  });

  it('in a window too narrow to go beside it: the larger room above or below, shortened to it', () => {
    const phone = { width: 360, height: 740 };
    const upper = placeCard({ left: 8, top: 296, right: 160, bottom: 314 }, { width: 360, height: 560 }, phone);
    expect(upper).toMatchObject({ side: 'below', top: 320, height: 740 - 320 - 8 });
    const lower = placeCard({ left: 8, top: 500, right: 160, bottom: 518 }, { width: 360, height: 560 }, phone);
    expect(lower).toMatchObject({ side: 'above', top: 8, height: 500 - 6 - 8 });
  });

  it('in a 360 px window: at most the viewport less 16 px wide, inside it', () => {
    const phone = { width: 360, height: 740 };
    const placement = placeCard({ left: 10, top: 100, right: 90, bottom: 116 }, size, phone);
    expect(placement.width).toBe(344);
    expect(placement.left).toBe(8);
    expect(placement.left + placement.width).toBeLessThanOrEqual(352);
  });

  it('property: never over its anchor, always inside the viewport, never wider than it less the margins', () => {
    fc.assert(
      fc.property(
        fc.record({ width: fc.integer({ min: 240, max: 2000 }), height: fc.integer({ min: 240, max: 1400 }) }),
        fc.record({
          x: fc.double({ min: 0, max: 1, noNaN: true }),
          y: fc.double({ min: 0, max: 1, noNaN: true }),
          w: fc.integer({ min: 8, max: 400 }),
          h: fc.integer({ min: 12, max: 60 }),
        }),
        fc.record({ width: fc.integer({ min: 200, max: 360 }), height: fc.integer({ min: 80, max: 560 }) }),
        (view, at, card) => {
          const left = Math.floor(at.x * (view.width - at.w - 16)) + 8;
          const top = Math.floor(at.y * (view.height - at.h - 16)) + 8;
          const anchor = { left, top, right: left + at.w, bottom: top + at.h };
          const placement = placeCard(anchor, card, view);
          const box = boxOf(placement);
          expect(overlaps(box, anchor)).toBe(false);
          expect(box.left).toBeGreaterThanOrEqual(8);
          expect(box.right).toBeLessThanOrEqual(view.width - 8 + 1);
          expect(box.top).toBeGreaterThanOrEqual(0);
          expect(box.bottom).toBeLessThanOrEqual(view.height);
          expect(placement.width).toBeLessThanOrEqual(view.width - 16);
        },
      ),
      { numRuns: 3_000 },
    );
  });
});
