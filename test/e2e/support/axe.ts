import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Frame, type Page } from '@playwright/test';
import type { AxeResults, default as Axe } from 'axe-core';

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation, listing
 * each rule with the nodes it found (moderate and minor ones are not gated).
 */
export async function expectNoSeriousViolations(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** The serious and critical violations axe-core finds on the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  return serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

declare global {
  interface Window {
    /** axe-core, once injected into a frame. */
    axe?: typeof Axe;
  }
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The same, for one frame that AxeBuilder cannot reach from its page: the hover card's frame sits in
 * a closed shadow root. axe-core is injected into the frame and run on its document.
 */
export async function seriousViolationsInFrame(frame: Frame): Promise<string[]> {
  await frame.evaluate(axeSource);
  const results = await frame.evaluate((): Promise<AxeResults> => {
    if (!window.axe) throw new Error('axe-core was not injected');
    return window.axe.run(document);
  });
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  return serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
