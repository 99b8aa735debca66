import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  ANNOTATOR_HEADROOM_BYTES,
  CARD_PRESENTER_BUDGET_BYTES,
  CONTENT_SCRIPT_BUDGET_BYTES,
  FRAME_RELAY_BUDGET_BYTES,
  measureBundle,
} from '../bench/bundle';

/**
 * CI guard for the deterministic size budgets (DESIGN "Budgets"): the annotator is at most 15 KB gzip
 * and keeps 0.5 KB of it free; the top frame's relay is at most 6 KB. `npm test` builds both extensions
 * before Playwright runs, so this reads the real output. (`npm run bench` prints the whole table.)
 */

const repoRoot = path.resolve(import.meta.dirname, '../..');

for (const target of ['chrome-mv3', 'firefox-mv3'] as const) {
  test(`${target}: the annotator keeps 0.5 KB free under its 15 KB gzip, the frame relay is within 6 KB, the card presenter within 6 KB`, () => {
    const dir = path.join(repoRoot, '.output', target);
    expect(
      existsSync(path.join(dir, 'manifest.json')),
      `no build at ${dir}: run \`npm run build\` and \`npm run build:firefox\``,
    ).toBe(true);
    const { annotatorGzipBytes, frameRelayGzipBytes, cardPresenterGzipBytes } = measureBundle(dir);
    test.info().annotations.push({
      type: 'size',
      description: `annotator ${annotatorGzipBytes} B gzip (budget ${CONTENT_SCRIPT_BUDGET_BYTES} B, ${ANNOTATOR_HEADROOM_BYTES} B kept free); relay ${frameRelayGzipBytes} B (budget ${FRAME_RELAY_BUDGET_BYTES} B); card presenter ${cardPresenterGzipBytes} B (budget ${CARD_PRESENTER_BUDGET_BYTES} B)`,
    });
    expect(annotatorGzipBytes, 'the annotator is in the build').not.toBeNull();
    expect(annotatorGzipBytes, 'annotator gzip size').toBeLessThanOrEqual(CONTENT_SCRIPT_BUDGET_BYTES - ANNOTATOR_HEADROOM_BYTES);
    expect(frameRelayGzipBytes, 'the frame relay is in the build').not.toBeNull();
    expect(frameRelayGzipBytes, 'frame relay gzip size').toBeLessThanOrEqual(FRAME_RELAY_BUDGET_BYTES);
    expect(cardPresenterGzipBytes, 'the card presenter is in the build').not.toBeNull();
    expect(cardPresenterGzipBytes, 'card presenter gzip size').toBeLessThanOrEqual(CARD_PRESENTER_BUDGET_BYTES);
  });
}
