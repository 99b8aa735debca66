import { BADGE_COMPACT_WIDTH, BADGE_GAP, BADGE_HEIGHT } from '../../core/badge-look';
import type { Badge, BadgeForm } from './badge';
import type { Scheduler } from './types';

/**
 * Chooses how each badge stands beside its link (`BadgeForm`), from the page as laid out, in the
 * animation frame before the page is painted: a badge inserted during parsing or in a mutation
 * callback is painted for the first time in its final form, so the reader never sees the page move.
 * What it measures is what a reader would meet: the chip outside its block (it would paint over the
 * next cell or column), clipped by an ancestor, or wrapped alone onto the next line. Reads and writes
 * go in phases, so a frame costs at most three layouts whatever the number of badges.
 */

export interface Fitted {
  readonly anchor: Element;
  readonly badge: Badge;
  /**
   * Its link was painted before the badge came (the page was painted before the annotator had its
   * settings or before the background injected it into a frame, or a painted link became a share
   * link): in view, taking room now would move what the reader already sees, so it stands over its
   * own link's end, and stays there when it is fitted again. Cleared once it is placed in another form.
   */
  late: boolean;
}

export interface BadgeFitter {
  /**
   * Fits `item` before the next paint: a new badge, or its link restyled (`again`); without `again`,
   * only one never fitted (in a hidden subtree when it came), so a form chosen once is not changed
   * under the reader's eyes.
   */
  fit(item: Fitted, again?: boolean): void;
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const EVERYWHERE: Box = { left: -Infinity, right: Infinity, top: -Infinity, bottom: Infinity };
/** The chip's end stays this far inside the end of the link it sits over. */
const INSET = 2;

const intersect = (a: Box, b: Box): Box => ({
  left: Math.max(a.left, b.left),
  right: Math.min(a.right, b.right),
  top: Math.max(a.top, b.top),
  bottom: Math.min(a.bottom, b.bottom),
});

/** The element a node is laid out in: its parent, or the host of the shadow root it is in. */
function layoutParent(node: Element): Element | null {
  const root = node.getRootNode();
  return node.parentElement ?? ('host' in root && root.host instanceof Element ? root.host : null);
}

export function createBadgeFitter(doc: Document, scheduler: Scheduler, signal: AbortSignal): BadgeFitter {
  const view = doc.defaultView;
  const pending = new Set<Fitted>();
  /** Every badge fitted so far: a new window size fits them again, from their natural form. */
  const fitted = new Set<Fitted>();
  let cancelFrame: (() => void) | null = null;
  // Computed styles and clip boxes of one pass (the page does not change during it).
  let styles = new Map<Element, CSSStyleDeclaration>();
  let clips = new Map<Element, Box>();
  const style = (element: Element): CSSStyleDeclaration => {
    let found = styles.get(element);
    if (!found && view) styles.set(element, (found = view.getComputedStyle(element)));
    return found ?? ({} as CSSStyleDeclaration);
  };

  /** What an element's ancestors leave of the viewport: the boxes of those that clip what overflows them. */
  function clipOf(element: Element | null): Box {
    if (!element) return EVERYWHERE;
    let clip = clips.get(element);
    if (!clip) {
      const { overflowX, overflowY } = style(element);
      const own = /hidden|clip/.test(overflowX + overflowY) ? element.getBoundingClientRect() : EVERYWHERE;
      clips.set(element, (clip = intersect(own, clipOf(layoutParent(element)))));
    }
    return clip;
  }

  /** The nearest ancestor that is not inline: a chip outside its box paints over the page's next block or cell. */
  function blockOf(element: Element): Element | null {
    let node = layoutParent(element);
    while (node && /^(inline|contents)/.test(style(node).display)) node = layoutParent(node);
    return node;
  }

  /** How the badge stands when nothing is in its way, from how the link's parent lays it out. */
  function naturalForm({ anchor }: Fitted): BadgeForm {
    const parent = layoutParent(anchor);
    const parentStyle = parent ? style(parent) : null;
    const display = parentStyle?.display ?? '';
    const own = style(anchor);
    if (
      /grid/.test(display) ||
      (/flex/.test(display) && /column/.test(parentStyle?.flexDirection ?? '')) ||
      /absolute|fixed/.test(own.position)
    )
      return 'out';
    const isBlock = (value: string) => !/^(inline|contents|none)/.test(value);
    const last = anchor.lastElementChild;
    // A block link (or one that holds a block) would leave its chip a line of its own.
    return !/flex/.test(display) && (isBlock(own.display) || (last !== null && isBlock(style(last).display))) ? 'out' : 'full';
  }

  /**
   * The last box of a link a reader can see: an inline link that holds a block (a card, a logo) also
   * has empty fragments before and after it, at the start of the lines around the block.
   */
  const lastLine = (anchor: Element): DOMRect | undefined =>
    [...anchor.getClientRects()].findLast((line) => line.width > 0 && line.height > 0);

  /** Whether a link's last line is wider than the compact chip: a chip over its end covers none of the page's other words. */
  const wideEnough = (anchor: Element) => (lastLine(anchor)?.width ?? 0) > BADGE_COMPACT_WIDTH + 2 * INSET;

  /** Whether any of an element's box is in the viewport. */
  function inView(element: Element): boolean {
    const { top, bottom, left, right } = element.getBoundingClientRect();
    return bottom > 0 && right > 0 && top < (view?.innerHeight ?? 0) && left < (view?.innerWidth ?? 0);
  }

  /** The end of the link's last line that a reader can see (inside what clips it). */
  function linkEnd({ anchor, badge }: Fitted): Box | null {
    const last = lastLine(anchor);
    if (!last) return null;
    const clip = clipOf(layoutParent(badge.host));
    return { left: last.left, right: Math.min(last.right, clip.right), top: last.top, bottom: last.bottom };
  }

  /**
   * Whether words or boxes follow the chip on the line it wrapped onto: then the line was there anyway,
   * and the chip only starts it; alone, it would make its block a line taller.
   */
  function accompanied(host: Element, block: Element | null, middle: number): boolean {
    if (!block) return false;
    const after = doc.createRange();
    after.setStartAfter(host);
    after.setEnd(block, block.childNodes.length);
    for (const box of after.getClientRects()) if (box.width > 0 && box.top <= middle && box.bottom >= middle) return true;
    return false;
  }

  /**
   * Whether the chip shows whole where it is: inside its block and what clips it, and on its link's
   * last line (the compact chip may start the next line, where words follow it there).
   */
  function fits(item: Fitted): boolean {
    const { badge } = item;
    const box = badge.host.getBoundingClientRect();
    if (box.width === 0) return true; // not laid out (a hidden subtree): nothing a reader sees
    const block = blockOf(badge.host);
    const room = intersect(block ? block.getBoundingClientRect() : EVERYWHERE, clipOf(layoutParent(badge.host)));
    const middle = (box.top + box.bottom) / 2;
    const inside = box.left >= room.left - 0.5 && box.right <= room.right + 0.5 && middle >= room.top && middle <= room.bottom;
    if (!inside) return false;
    const end = linkEnd(item);
    return end === null || middle <= end.bottom || (badge.form === 'compact' && accompanied(badge.host, block, middle));
  }

  const contains = (outer: Box, inner: Box) =>
    inner.left >= outer.left && inner.right <= outer.right && inner.top >= outer.top && inner.bottom <= outer.bottom;

  /**
   * The chip's place just after the link's last painted content (its words, an image), where a block
   * link (a card, a logo, a grid cell) leaves empty room inside its own box: there it covers nothing
   * and reads with its link, not at the block's far end. None for an inline link (its box ends where
   * its words do) or where that room holds more of the link.
   */
  function afterContent({ anchor, badge }: Fitted): Box | null {
    const range = doc.createRange();
    range.selectNodeContents(anchor);
    const painted = [...range.getClientRects()].filter((box) => box.width > 0);
    const last = painted.at(-1);
    const own = lastLine(anchor);
    if (!last || !own) return null;
    const top = (last.top + last.bottom - BADGE_HEIGHT) / 2;
    const left = last.right + BADGE_GAP;
    const chip = { left, right: left + BADGE_COMPACT_WIDTH, top, bottom: top + BADGE_HEIGHT };
    const crosses = (box: Box) => {
      const common = intersect(box, chip);
      return common.left < common.right && common.top < common.bottom;
    };
    return contains(intersect(own, clipOf(layoutParent(badge.host))), chip) &&
      painted.every((box) => contains(box, chip) || !crosses(box))
      ? chip
      : null;
  }

  /** Over the visible end of its link, on its last line (near the bottom of a tall block). */
  function overEnd(item: Fitted): Pick<Box, 'left' | 'top'> | null {
    const end = linkEnd(item);
    if (!end) return null;
    const height = end.bottom - end.top;
    const top = height > 2 * BADGE_HEIGHT ? end.bottom - BADGE_HEIGHT - INSET : end.top + (height - BADGE_HEIGHT) / 2;
    return { left: end.right - BADGE_COMPACT_WIDTH - INSET, top };
  }

  /** Where an out-of-flow chip goes from where it stands: after its link's content, else over its end. */
  function offsets(item: Fitted): [number, number, string] {
    const from = item.badge.host.getBoundingClientRect();
    const to = afterContent(item) ?? overEnd(item);
    const { zIndex } = style(item.anchor);
    return to ? [Math.round(to.left - from.left), Math.round(to.top - from.top), zIndex] : [0, 0, zIndex];
  }

  const newPass = () => {
    styles = new Map();
    clips = new Map();
  };

  /**
   * Fits each badge from its natural form down, each step taken only where the one before has no
   * room: full, compact, then out of the flow over its own link's end. So a line never grows, and only
   * its own link's last letters may lie under a chip.
   */
  function place(items: Iterable<Fitted>): void {
    newPass();
    const shown: Fitted[] = [];
    for (const item of items) {
      const { anchor, badge } = item;
      if (!anchor.isConnected || !badge.host.isConnected) continue;
      const linkShown = anchor.getClientRects().length > 0 && anchor.checkVisibility({ visibilityProperty: true });
      // Neither laid out: a hidden subtree, fitted when it is drawn (near the viewport).
      if (!linkShown && badge.host.getClientRects().length === 0) continue;
      fitted.add(item);
      // Late (its link painted without it): over its own link's end, where that covers no other word.
      const form = !linkShown ? 'none' : item.late && inView(anchor) && wideEnough(anchor) ? 'out' : naturalForm(item);
      item.late &&= form === 'out';
      if (form !== badge.form || form === 'out') badge.setForm(form);
      if (form !== 'none') shown.push(item);
    }
    newPass();
    const outs: Fitted[] = [];
    const compacts: Fitted[] = [];
    for (const item of shown) {
      if (item.badge.form === 'out') outs.push(item);
      else if (!fits(item)) compacts.push(item);
    }
    const placed = outs.map((item) => [item, offsets(item)] as const);
    for (const [{ badge }, [x, y, z]] of placed) badge.setForm('out', x, y, z);
    for (const { badge } of compacts) badge.setForm('compact');
    newPass();
    const moved = compacts.filter((item) => !fits(item));
    for (const { badge } of moved) badge.setForm('out');
    newPass();
    const replaced = moved.map((item) => [item, offsets(item)] as const);
    for (const [{ badge }, [x, y, z]] of replaced) badge.setForm('out', x, y, z);
  }

  function onFrame(): void {
    cancelFrame = null;
    const items = [...pending];
    pending.clear();
    place(items);
  }

  function schedule(): void {
    if (!cancelFrame && !signal.aborted) cancelFrame = scheduler.frame(onFrame);
  }

  // A new window size: every badge fitted again (a chip that had no room may have it now).
  view?.addEventListener(
    'resize',
    () => {
      for (const item of fitted)
        if (item.anchor.isConnected) pending.add(item);
        else fitted.delete(item);
      schedule();
    },
    { signal },
  );
  signal.addEventListener('abort', () => cancelFrame?.(), { once: true });

  return {
    fit(item, again = true) {
      if (!again && fitted.has(item)) return;
      pending.add(item);
      schedule();
    },
  };
}
