import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CONTENT_SCRIPT_BUDGET_BYTES, measureBundle } from '../bench/bundle';

/**
 * CI guard for the deterministic size budget (DESIGN "Budgets"): the built content script is at most
 * 15 KB gzip. `npm test` builds both extensions before Playwright runs, so this reads the real output.
 * (The full numbers, with the whole extension, are printed by `npm run bench`.)
 */

const repoRoot = path.resolve(import.meta.dirname, '../..');

for (const target of ['chrome-mv3', 'firefox-mv3'] as const) {
  test(`${target}: the content script is at most 15 KB gzip`, () => {
    const dir = path.join(repoRoot, '.output', target);
    expect(
      existsSync(path.join(dir, 'manifest.json')),
      `no build at ${dir}: run \`npm run build\` and \`npm run build:firefox\``,
    ).toBe(true);
    const sizes = measureBundle(dir);
    expect(sizes.contentScriptFiles, 'content scripts found in the build').toContain('content-scripts/annotator.js');
    test.info().annotations.push({
      type: 'size',
      description: `${sizes.contentScriptGzipBytes} B gzip (budget ${CONTENT_SCRIPT_BUDGET_BYTES} B) in ${sizes.contentScriptFiles.join(', ')}`,
    });
    expect(
      sizes.contentScriptGzipBytes,
      `content script gzip size (budget ${CONTENT_SCRIPT_BUDGET_BYTES} B)`,
    ).toBeLessThanOrEqual(CONTENT_SCRIPT_BUDGET_BYTES);
  });
}
