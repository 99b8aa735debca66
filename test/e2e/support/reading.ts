import type { Page } from '@playwright/test';

/**
 * What a reader meets on a page the extension annotated (issue #32): words under a badge, badges cut
 * off, and the page moving. Measured in the page, as a person would see it, not from where elements
 * end up.
 */

/** A character of the page's text under a badge (not one of its own link's). */
export interface CoveredCharacter {
  /** The id of the badge's link. */
  link: string;
  character: string;
  /** The words around it, to read in a failure message. */
  around: string;
}

/**
 * Every visible character of the page's text whose box a badge covers by a fifth or more, other than
 * its own link's characters (a chip over its own link's end is the last resort where there is no room:
 * docs/design-changes.md).
 */
export function coveredCharacters(page: Page): Promise<CoveredCharacter[]> {
  return page.evaluate(findCoveredCharacters);
}

/** `coveredCharacters`, as it runs in the page (self-contained: Puppeteer's Firefox runs it too). */
export function findCoveredCharacters(): CoveredCharacter[] {
  const overlap = (a: DOMRect, b: DOMRect) =>
    Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
    Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const badges = [...document.querySelectorAll('compliance-lens-badge')].map((host) => ({
    box: host.getBoundingClientRect(),
    link: host.previousElementSibling,
  }));
  const found: { link: string; character: string; around: string }[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    if (!text.trim() || node.parentElement?.closest('script, style')) continue;
    range.selectNodeContents(node);
    const lines = [...range.getClientRects()];
    for (const { box, link } of badges) {
      if (link?.contains(node) || !lines.some((line) => overlap(line, box) > 0)) continue;
      for (let index = 0; index < text.length; index += 1) {
        if (/\s/.test(text[index] ?? ' ')) continue;
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        for (const glyph of range.getClientRects()) {
          if (overlap(glyph, box) >= 0.2 * glyph.width * glyph.height && glyph.width > 0) {
            found.push({
              link: link?.id ?? '?',
              character: text[index] ?? '',
              around: text.slice(Math.max(0, index - 12), index + 12),
            });
          }
        }
      }
    }
  }
  return found;
}

/** The links whose badge is not the element a click at its centre reaches (cut off, or under something). */
export function clippedBadges(page: Page): Promise<string[]> {
  return page.evaluate(findClippedBadges);
}

/**
 * `clippedBadges`, as it runs in the page (self-contained): a badge is whole when, scrolled into view,
 * it lies inside the window and it is what a pointer meets at its middle and near each corner.
 */
export function findClippedBadges(): string[] {
  return [...document.querySelectorAll('compliance-lens-badge')]
    .filter((host) => {
      host.scrollIntoView({ block: 'center', inline: 'nearest' });
      const { left, top, right, bottom, width, height } = host.getBoundingClientRect();
      if (left < 0 || top < 0 || right > innerWidth || bottom > innerHeight) return true;
      const points = [
        [left + width / 2, top + height / 2],
        [left + 2, top + 2],
        [right - 2, top + 2],
        [left + 2, bottom - 2],
        [right - 2, bottom - 2],
      ] as const;
      return points.some(([x, y]) => document.elementFromPoint(x, y) !== host);
    })
    .map((host) => host.previousElementSibling?.id ?? '?');
}

/** Records the page's layout shifts from its first paint on (Layout Instability API): add before it loads. */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    const sources: string[] = [];
    Object.assign(window, { __layoutShifts: shifts, __layoutShiftSources: sources });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        shifts.push(Number(Reflect.get(entry, 'value')));
        const moved: unknown = Reflect.get(entry, 'sources');
        for (const source of Array.isArray(moved) ? moved : []) {
          const node: unknown = Reflect.get(source, 'node');
          const text = node instanceof Node ? (node.textContent ?? '').trim().slice(0, 40) : '';
          const { x, y } = Reflect.get(source, 'previousRect') as DOMRectReadOnly;
          const now = Reflect.get(source, 'currentRect') as DOMRectReadOnly;
          sources.push(
            `"${text}" ${Math.round(x)},${Math.round(y)} → ${Math.round(now.x)},${Math.round(now.y)} at ${Math.round(entry.startTime)} ms`,
          );
        }
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** What moved in the page's layout shifts: each source's text and where it went (for a failure's message). */
export function layoutShiftSources(page: Page): Promise<string[]> {
  return page.evaluate(() => [...(Reflect.get(window, '__layoutShiftSources') as string[])]);
}

/** The sum of the page's layout shifts so far (what the Layout Instability API would report). */
export function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (Reflect.get(window, '__layoutShifts') as number[]).reduce((sum, value) => sum + value, 0));
}
