import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { BADGE_COMPACT_WIDTH, BADGE_HEIGHT, BADGE_WIDTH } from '@/lib/core/badge-look';
import { launch, type LaunchedBrowser } from '../support/chromium';
import { PAGES_ORIGIN, servePages } from './pages/serve';
import { READING_PAGES, readingValues } from './pages/reading-pages';
import { expect, test } from './support/fixtures';
import { clippedBadges, coveredCharacters, layoutShift, layoutShiftSources, recordLayoutShifts } from './support/reading';

/**
 * The badge reads with the page (issue #32): on pages written like the places investors read share
 * links (a mail thread whose second message opens after load, a reading pane, a CRM table with
 * narrow, clipped and fixed-height cells, flex and grid rows and card-like links, a shared document
 * with links in running text), in English and French, light and dark:
 * - no character of the page's text, other than a badge's own link's, lies under a badge;
 * - every badge is the element a click at its centre reaches (whole, not clipped, not covered);
 * - the Layout Instability API reports no shift with the extension that the same page, in a browser
 *   without it, does not have (the badges' room is taken before the page is first painted).
 * Screenshots: test-results/glance/reading-<page>-<language>-<scheme>.png.
 */

test.use({ withTestService: true });

const screenshots = path.resolve(import.meta.dirname, '../../test-results/glance');

async function openReadingPage(
  context: BrowserContext,
  name: string,
  colorScheme: 'light' | 'dark',
  values: Record<string, string>,
  opened?: string,
): Promise<Page> {
  await servePages(context, values);
  const page = await context.newPage();
  await page.emulateMedia({ colorScheme });
  await page.setViewportSize({ width: 1280, height: 800 });
  await recordLayoutShifts(page);
  await page.goto(`${PAGES_ORIGIN}/${name}.html`);
  if (opened) await expect(page.locator(opened)).toHaveCount(1);
  return page;
}

/** Loads of a reading page at most, for one without a shift (see the race below). */
const LOOKS_AT_A_LOADED_PAGE = 3;

let baseline: LaunchedBrowser | null = null;
test.afterAll(async () => {
  await baseline?.close();
  baseline = null;
});

for (const language of ['en', 'fr'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const { name, badges, ...rest } of READING_PAGES) {
      const opened = 'opened' in rest ? rest.opened : undefined;
      test(`${name} (${language}, ${colorScheme}): no word under a badge, every badge whole, no shift the page does not make itself`, async ({
        context,
        serviceWorker,
        serviceOrigin,
      }) => {
        await serviceWorker.evaluate((value) => chrome.storage.local.set({ language: value }), language);
        const values = readingValues(serviceOrigin);
        const page = await openReadingPage(context, name, colorScheme, values, opened);
        await expect(page.locator('compliance-lens-badge')).toHaveCount(badges);
        // Drawn: the host takes the page's scheme when its face is drawn (near the viewport).
        await expect(page.locator('compliance-lens-badge[data-scheme]')).toHaveCount(badges);
        await page.waitForTimeout(500); // anything late would move the page now
        mkdirSync(screenshots, { recursive: true });
        await page.screenshot({ path: path.join(screenshots, `reading-${name}-${language}-${colorScheme}.png`) });

        expect(await coveredCharacters(page)).toEqual([]);
        let withExtension = await layoutShift(page);
        // The room is taken before the first paint when the annotator has read its settings by then
        // (a few ms); on a machine this loaded it may lose that race (docs/design-changes.md, issue
        // #32, measured there): each lost load is noted, and the page is loaded again, at most twice;
        // one load must not move.
        for (let look = 1; withExtension > 0 && look < LOOKS_AT_A_LOADED_PAGE; look += 1) {
          test
            .info()
            .annotations.push({ type: `load ${look} shifted`, description: (await layoutShiftSources(page)).join('; ') });
          await page.reload();
          if (opened) await expect(page.locator(opened)).toHaveCount(1);
          await expect(page.locator('compliance-lens-badge[data-scheme]')).toHaveCount(badges);
          await page.waitForTimeout(500);
          withExtension = await layoutShift(page);
        }
        expect(await clippedBadges(page)).toEqual([]);
        // Every badge is one of the chip's two sizes, whichever form it stands in.
        const sizes = await page
          .locator('compliance-lens-badge')
          .evaluateAll((hosts) =>
            hosts.map((host) => `${host.getBoundingClientRect().width}×${host.getBoundingClientRect().height}`),
          );
        for (const size of sizes)
          expect([`${BADGE_WIDTH}×${BADGE_HEIGHT}`, `${BADGE_COMPACT_WIDTH}×${BADGE_HEIGHT}`]).toContain(size);
        // The page follows its own scheme, and so do its chips (not the system's).
        await expect(page.locator(`compliance-lens-badge[data-scheme="${colorScheme}"]`)).toHaveCount(badges);

        // The same page in a browser without the extension: the shifts it makes itself.
        baseline ??= await launch(false);
        await servePages(baseline.context, values);
        const bare = await openReadingPage(baseline.context, name, colorScheme, values, opened);
        await bare.waitForTimeout(1500);
        const withoutExtension = await layoutShift(bare);
        await bare.close();
        expect(withExtension, (await layoutShiftSources(page)).join('\n')).toBeLessThanOrEqual(withoutExtension + 0.0005);
      });
    }
  }
}
