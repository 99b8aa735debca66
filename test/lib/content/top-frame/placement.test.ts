import { describe, expect, it } from 'vitest';
import { placeCard } from '@/lib/content/top-frame/placement';

describe('placeCard', () => {
  const viewport = { width: 1280, height: 800 };
  const size = { width: 360, height: 480 };

  it('goes below the badge, left-aligned, when there is room', () => {
    expect(placeCard({ left: 100, top: 100, right: 140, bottom: 116 }, size, viewport)).toEqual({
      left: 100,
      top: 122,
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

  it('never leaves the viewport, shrinking the height if it must', () => {
    const small = { width: 400, height: 300 };
    const placement = placeCard({ left: 10, top: 140, right: 50, bottom: 156 }, size, small);
    expect(placement.left).toBeGreaterThanOrEqual(8);
    expect(placement.left + 360).toBeLessThanOrEqual(400 - 8 + 1);
    expect(placement.top).toBeGreaterThanOrEqual(8);
    expect(placement.top + placement.height).toBeLessThanOrEqual(300 - 8);
  });
});
