import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { seriousViolations } from './axe';

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
  return clone.textContent ?? '';
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
