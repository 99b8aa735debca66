// @vitest-environment happy-dom
/**
 * Frame geometry (lib/content/shared/frame-geometry.ts): a box in a frame's viewport, carried into an
 * ancestor's viewport through each frame's position, border and scale; and the chain of same-origin
 * frames a frame measures through. Browsers place the frames; these fakes give what they report.
 */
import { describe, expect, it } from 'vitest';
import { sameOriginChainOf, toAncestorViewport, type FrameLike, type Rect } from '@/lib/content/shared/frame-geometry';

/** A frame element as the browser reports it: its box in the parent viewport, its layout size and border. */
function frame(
  box: { left: number; top: number; width: number; height: number },
  layout?: { width: number; height: number },
  border = 0,
): FrameLike {
  const { width, height } = layout ?? box;
  return {
    getBoundingClientRect: () => DOMRectReadOnly.fromRect({ x: box.left, y: box.top, width: box.width, height: box.height }),
    offsetWidth: width,
    offsetHeight: height,
    clientLeft: border,
    clientTop: border,
  };
}

const badge: Rect = { left: 10, top: 20, right: 40, bottom: 36 };

describe('toAncestorViewport', () => {
  it('no frames: the box as it is', () => {
    expect(toAncestorViewport(badge, [])).toEqual(badge);
  });

  it('one frame: moved by its position and its border', () => {
    expect(toAncestorViewport(badge, [frame({ left: 100, top: 50, width: 300, height: 200 }, undefined, 2)])).toEqual({
      left: 112,
      top: 72,
      right: 142,
      bottom: 88,
    });
  });

  it('nested frames, innermost first: each adds its offset', () => {
    const inner = frame({ left: 5, top: 5, width: 200, height: 100 }, undefined, 1);
    const outer = frame({ left: 100, top: 300, width: 600, height: 400 }, undefined, 2);
    expect(toAncestorViewport(badge, [inner, outer])).toEqual({ left: 118, top: 328, right: 148, bottom: 344 });
  });

  it('a scaled frame (a CSS transform, or zoom): the box scales with it, border included', () => {
    // Laid out at 300 × 200, drawn at 150 × 100: half size.
    const scaled = frame({ left: 100, top: 50, width: 150, height: 100 }, { width: 300, height: 200 }, 2);
    expect(toAncestorViewport(badge, [scaled])).toEqual({ left: 106, top: 61, right: 121, bottom: 69 });
  });

  it('a frame scrolled inside its parent moves the box with it (its box in the parent is where it is now)', () => {
    const scrolledOut = frame({ left: 0, top: -250, width: 300, height: 400 });
    expect(toAncestorViewport(badge, [scrolledOut])).toEqual({ left: 10, top: -230, right: 40, bottom: -214 });
  });

  it('a frame of no size does not divide by zero', () => {
    const empty = frame({ left: 7, top: 9, width: 0, height: 0 });
    expect(toAncestorViewport(badge, [empty])).toEqual({ left: 17, top: 29, right: 47, bottom: 45 });
  });
});

/** A window whose parent chain and frame elements the test builds (`frameElement` throws across origins). */
interface FakeWindow {
  parent: FakeWindow;
  document: { title: string };
  readonly frameElement: unknown;
}
function windowChain(links: ('same' | 'other')[]): FakeWindow[] {
  const top: FakeWindow = { parent: null as unknown as FakeWindow, document: { title: 'top' }, frameElement: null };
  top.parent = top;
  const windows = [top];
  let parent = top;
  links.forEach((origin, index) => {
    const element = { offsetWidth: 100 + index };
    const child: FakeWindow = {
      parent,
      document: { title: `frame ${index}` },
      get frameElement() {
        if (origin === 'other') throw new DOMException('Blocked a frame with origin', 'SecurityError');
        return element;
      },
    };
    windows.push(child);
    parent = child;
  });
  return windows.reverse(); // innermost first
}

describe('sameOriginChainOf', () => {
  it('climbs same-origin parents to the top', () => {
    const [inner, middle, top] = windowChain(['same', 'same']);
    const chain = sameOriginChainOf(inner as unknown as Window);
    expect(chain.windows).toEqual([inner, middle, top]);
    expect(chain.frames.map((element) => element.offsetWidth)).toEqual([101, 100]);
    expect(chain.document).toBe(top?.document);
  });

  it('stops below a parent of another origin', () => {
    const [inner, middle] = windowChain(['other', 'same']);
    const chain = sameOriginChainOf(inner as unknown as Window);
    expect(chain.windows).toEqual([inner, middle]);
    expect(chain.frames.map((element) => element.offsetWidth)).toEqual([101]);
    expect(chain.document).toBe(middle?.document);
  });

  it('the top window itself: no frames', () => {
    const [top] = windowChain([]);
    expect(sameOriginChainOf(top as unknown as Window)).toEqual({ document: top?.document, frames: [], windows: [top] });
  });
});
