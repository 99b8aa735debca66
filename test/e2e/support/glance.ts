import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Frame, type Locator, type Page } from '@playwright/test';
import { seriousViolations, seriousViolationsInFrame } from './axe';
import type { HoverCard } from './hover-card';

/**
 * What every surface must pass at first glance (issue #27): nothing clipped, no raw API codes on
 * screen, no past event told as if it were to come, and no serious or critical axe violation.
 * Screenshots go to test-results/glance/ (git-ignored), to be looked at.
 */

const screenshots = path.resolve(import.meta.dirname, '../../../test-results/glance');

/**
 * API codes a reader should never have to decode: snake-case and upper-case codes (`investor_ready`,
 * `SEC_NIGERIA`, `NOT_FOUND`) and the product classification codes. One-word regulator acronyms are
 * left out: prose (a gap's regulatory basis) uses them too.
 */
const RAW_CODE = /\b(?:[a-z]+_[a-z_]+|[A-Z]+_[A-Z_]+|PAYMENT|HYBRID|DAX|DAOP|DAC|DAI|AVASP|DAPO|RATOP)\b/;

/** A past event ("Refreshed", "ended", "fetched") said in the future tense: a clock behind the service's. */
const PAST_EVENT_IN_FUTURE =
  /\b(?:refreshed|ended|fetched|loaded|updated|actualisée?s?|terminée?|récupérée?|chargée?)\s+(?:in|dans)\s+\d/i;

export interface GlanceOptions {
  /** Regions left out of the raw-code check, with the reason (another surface's own test holds them). */
  rawCodesExcept?: string;
}

/** Elements whose content is cut off: overflowing a box that hides the rest (not a scroll container). */
function clippedElements(): string[] {
  const found: string[] = [];
  const describe = (element: Element) => {
    const id = element.getAttribute('data-testid');
    const text = (element.textContent ?? '').trim().slice(0, 60);
    return `${element.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''} "${text}"`;
  };
  for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
    if (element.closest('[hidden], [aria-hidden="true"]')) continue;
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    // Screen-reader-only text is 1 × 1 px on purpose.
    if (element.clientWidth <= 1 || element.clientHeight <= 1) continue;
    // Cut with an ellipsis is fine where the whole text is at hand in the tooltip (a list's long names, issue #33 item 11).
    const wholeInTitle = style.textOverflow === 'ellipsis' && element.title.trim() === (element.textContent ?? '').trim();
    if (wholeInTitle) continue;
    const hidesX = style.overflowX === 'hidden' || style.overflowX === 'clip' || style.textOverflow === 'ellipsis';
    const hidesY = style.overflowY === 'hidden' || style.overflowY === 'clip';
    if (hidesX && element.scrollWidth > element.clientWidth + 1) found.push(`${describe(element)} (cut sideways)`);
    else if (hidesY && element.scrollHeight > element.clientHeight + 1) found.push(`${describe(element)} (cut below)`);
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) found.push('the page scrolls sideways');
  return found;
}

function visibleText(except: string | undefined): string {
  const clone = document.body.cloneNode(true);
  if (!(clone instanceof HTMLElement)) return '';
  if (except) for (const element of clone.querySelectorAll(except)) element.remove();
  // innerText of a detached node has no layout: hidden parts are removed by attribute instead.
  for (const element of clone.querySelectorAll('[hidden], .sr-only, script, style')) element.remove();
  // A closed disclosure shows its summary only.
  for (const details of clone.querySelectorAll('details:not([open])')) {
    for (const child of [...details.children]) if (child.localName !== 'summary') child.remove();
  }
  return clone.textContent ?? '';
}

/** Saves a screenshot of the page as it is this moment, as `name` (a passing state, checked in full elsewhere). */
export async function photographNow(page: Page, name: string): Promise<void> {
  mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, `${name}.png`) });
}

/** Runs the first-glance checks on the page as it is now, then saves a full-page screenshot as `name`. */
export async function expectFirstGlance(page: Page, name: string, options: GlanceOptions = {}): Promise<void> {
  mkdirSync(screenshots, { recursive: true });
  // What is seen in the first second (the window), and the whole page.
  await page.screenshot({ path: path.join(screenshots, `${name}-first-second.png`) });
  await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
  // Soft: one run reports every screen's problems, not only the first.
  expect.soft(await page.evaluate(clippedElements), `${name}: clipped`).toEqual([]);
  const text = await page.evaluate(visibleText, options.rawCodesExcept);
  expect.soft(text.match(RAW_CODE)?.[0], `${name}: a raw code on screen`).toBeUndefined();
  expect.soft(text.match(PAST_EVENT_IN_FUTURE)?.[0], `${name}: a past event in the future`).toBeUndefined();
  expect.soft(await seriousViolations(page), `${name}: serious or critical axe violations`).toEqual([]);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Whether the card's part that scrolls hides more than it shows, and if so whether it says so. */
function scrollState(): { hides: boolean; cue: boolean } {
  const scroller = document.querySelector('[data-card-scroll]');
  if (!scroller) return { hides: false, cue: false };
  const hides = scroller.scrollHeight > scroller.clientHeight + 1;
  const cue = document.querySelector('[data-card-scroll-cue]') !== null;
  return { hides, cue };
}

/**
 * What the card's "More below" cue covers: it must cover nothing (issue #33 item 2), not even the
 * edge of the part that scrolls, whose last row it cuts (that row fades out instead).
 */
function cueCovers(): string[] {
  const cue = document.querySelector('[data-card-scroll-cue]');
  if (!cue) return [];
  const line = cue.getBoundingClientRect();
  const covered: string[] = [];
  const scrolling = document.querySelector('[data-card-scroll]');
  const part = scrolling?.getBoundingClientRect();
  if (part && part.top < line.bottom && line.top < part.bottom) covered.push('the part that scrolls');
  if (scrolling && scrolling.scrollTop + scrolling.clientHeight < scrolling.scrollHeight - 4) {
    const style = getComputedStyle(scrolling);
    const mask = style.maskImage || style.getPropertyValue('-webkit-mask-image');
    if (!mask || mask === 'none') covered.push('a cut row, shown unfaded');
  }
  for (const element of document.querySelectorAll<HTMLElement>('[data-card-scroll] *, [data-testid="disclaimer"]')) {
    if (element.children.length > 0 || !(element.textContent ?? '').trim()) continue;
    const box = element.getBoundingClientRect();
    const scroller = element.closest('[data-card-scroll]')?.getBoundingClientRect();
    // Only what shows: scrolled-away parts are under nothing.
    const top = Math.max(box.top, scroller?.top ?? box.top);
    const bottom = Math.min(box.bottom, scroller?.bottom ?? box.bottom);
    if (bottom > top && top < line.bottom && line.top < bottom) covered.push((element.textContent ?? '').trim().slice(0, 40));
  }
  return covered;
}

/**
 * What an investor came for, in the open card's first screenful without scrolling (issue #33 item 1):
 * the company, the readiness, the fundraising risk, the first two gaps (or that there are none), and
 * the whole disclaimer. Answers what does not show.
 */
export function essentialsOutOfView(): string[] {
  const scroller = document.querySelector('[data-card-scroll]');
  if (!scroller) return ['the snapshot'];
  const view = scroller.getBoundingClientRect();
  const out: string[] = [];
  if (scroller.scrollTop > 0) out.push('the card is scrolled');
  const shows = (element: Element | null | undefined, name: string, within: { top: number; bottom: number }) => {
    const box = element?.getBoundingClientRect();
    if (!box || box.height === 0 || box.top < within.top - 0.5 || box.bottom > within.bottom + 0.5) out.push(name);
  };
  shows(document.querySelector('[data-testid="company-name"]'), 'company', view);
  shows(document.querySelector('[data-testid="readiness-score"]'), 'readiness', view);
  shows(document.querySelector('[data-testid="risk-band"]'), 'risk', view);
  const gaps = [...document.querySelectorAll('[data-testid="gap"]')];
  if (gaps.length === 0) shows(document.querySelector('[data-testid="no-gaps"]'), 'no gaps', view);
  for (const [index, gap] of gaps.slice(0, 2).entries()) shows(gap, `gap ${index + 1}`, view);
  shows(document.querySelector('[data-testid="disclaimer"]'), 'disclaimer', { top: 0, bottom: window.innerHeight });
  return out;
}

/**
 * The first-glance checks for an open hover card (issue #27): inside the viewport and off its link and
 * badge; nothing clipped in it (what scrolls shows a cue); no raw code or past event in the future in
 * its text; no serious axe violation in its frame. Saves a screenshot of the page with the card as `name`.
 */
export async function expectCardGlance(page: Page, card: HoverCard, anchors: readonly Locator[], name: string): Promise<void> {
  mkdirSync(screenshots, { recursive: true });
  await card.expectRevealed();
  const frame = await card.frame();
  await page.screenshot({ path: path.join(screenshots, `${name}.png`) });
  const box = await card.box();
  // The viewport less its scrollbars: what the reader sees (issue #33 item 9).
  const viewport = await page.evaluate(() => ({
    width: document.documentElement.clientWidth,
    height: document.documentElement.clientHeight,
  }));
  expect.soft(box.x, `${name}: left edge in the viewport`).toBeGreaterThanOrEqual(0);
  expect.soft(box.y, `${name}: top edge in the viewport`).toBeGreaterThanOrEqual(0);
  expect.soft(box.x + box.width, `${name}: right edge in the viewport`).toBeLessThanOrEqual(viewport.width);
  expect.soft(box.y + box.height, `${name}: bottom edge in the viewport`).toBeLessThanOrEqual(viewport.height);
  expect.soft(box.width, `${name}: at most the viewport's width less 16 px`).toBeLessThanOrEqual(viewport.width - 16);
  expect.soft(await frame.evaluate(cueCovers), `${name}: "More below" covers what it sits on`).toEqual([]);
  for (const anchor of anchors) {
    const covered = await anchor.boundingBox();
    if (covered) expect.soft(overlaps(box, covered), `${name}: the card covers its link or badge`).toBe(false);
  }
  expect.soft(await frame.evaluate(clippedElements), `${name}: clipped`).toEqual([]);
  const scroll = await frame.evaluate(scrollState);
  if (scroll.hides) expect.soft(scroll.cue, `${name}: scrolls without saying so`).toBe(true);
  const text = await frame.evaluate(visibleText, undefined);
  expect.soft(text.match(RAW_CODE)?.[0], `${name}: a raw code on screen`).toBeUndefined();
  expect.soft(text.match(PAST_EVENT_IN_FUTURE)?.[0], `${name}: a past event in the future`).toBeUndefined();
  expect.soft(await seriousViolationsInFrame(frame), `${name}: serious or critical axe violations`).toEqual([]);
}

/**
 * The badges of a page at first glance (issue #27): every drawn badge the same size whatever its state
 * (`states`: those that must be on the page), and a screenshot of them as `name`.
 */
export async function expectBadgesGlance(page: Page, badges: Locator, states: readonly string[], name: string): Promise<void> {
  mkdirSync(screenshots, { recursive: true });
  const drawn = await badges.evaluateAll((hosts) =>
    hosts.flatMap((host) => {
      const box = host.getBoundingClientRect();
      const state = host.getAttribute('data-state') ?? '';
      const face = host.hasAttribute('data-withdrawn') ? 'withdrawn' : (host.getAttribute('data-error-code') ?? state);
      return box.width > 0 ? [{ face, size: `${Math.round(box.width)}×${Math.round(box.height)}` }] : [];
    }),
  );
  expect(drawn.map(({ face }) => face)).toEqual(expect.arrayContaining([...states]));
  expect(new Set(drawn.map(({ size }) => size)), `${name}: one size in every state`).toHaveProperty('size', 1);
  await page.screenshot({ path: path.join(screenshots, `${name}.png`) });
}

/**
 * A card is as tall as its content (issue #33 item 7): the space between its last line and its bottom
 * edge, measured in the card page once the frame took the height the card told it, is no more than the
 * card's own padding and border.
 */
export async function expectNoEmptyBand(frame: Frame): Promise<void> {
  await expect
    .poll(
      () =>
        frame.evaluate(() => {
          const main = document.querySelector('main');
          const content = main?.firstElementChild;
          if (!main || !content) return Number.POSITIVE_INFINITY;
          const bottoms = [...content.querySelectorAll('*')].map((element) => element.getBoundingClientRect().bottom);
          return main.getBoundingClientRect().bottom - Math.max(...bottoms);
        }),
      { message: 'space between the last line and the card’s bottom edge (px)' },
    )
    .toBeLessThanOrEqual(16);
}
