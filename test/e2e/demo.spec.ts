import type { BrowserContext, Worker } from '@playwright/test';
import { artifactPath } from './support/artifacts';
import { configureTestService, startFreshMinute } from './support/extension';
import { expect, test } from './support/fixtures';
import { startTestServer } from './support/server';
import { AnnotatedPage } from './support/web-page';
import { restOn } from './support/pointer';

/** Runs `use` on `/demo` of a seeded server (`npm start`'s) that the extension is set up for, then stops the server. */
async function withDemoPage(
  { context, serviceWorker }: { context: BrowserContext; serviceWorker: Worker },
  width: number,
  use: (demo: AnnotatedPage) => Promise<void>,
): Promise<void> {
  const server = await startTestServer(['--seed']);
  try {
    await configureTestService(serviceWorker, server.baseUrl);
    await use(await AnnotatedPage.open(context, `${server.baseUrl}/demo`, { viewport: { width, height: 900 } }));
  } finally {
    await server.stop();
  }
}

/**
 * The seeded demo page (`npm start`'s server, with its CSP), as a user opens it: every genuine link
 * badged, in the mail thread, the deal table, the mail body frame and the web component; look-alikes
 * none; nothing fetched.
 */
test('the demo page: links in the thread, the table, a framed mail body and a web component are badged; look-alikes are not', async ({
  context,
  serviceWorker,
}) => {
  await withDemoPage({ context, serviceWorker }, 1200, async (demo) => {
    const { page } = demo;
    const genuine = page.locator('a[data-demo-state]:not([data-demo-state="lookalike"])');
    await expect(genuine.first()).toBeVisible();
    const top = await genuine.count();
    // Every genuine link in the page's own DOM and in the component's shadow root has its badge...
    await expect(page.locator('a[data-demo-state]:not([data-demo-state="lookalike"]) + compliance-lens-badge')).toHaveCount(top);
    await expect(page.locator('a[data-demo-form="shadow-root"] + compliance-lens-badge')).toHaveCount(1);
    // ...and so has the link in the framed mail body, in the frame's own document.
    await expect(page.frameLocator('iframe.mail-frame').locator('a[data-demo-form="frame"] + compliance-lens-badge')).toHaveCount(
      1,
    );
    await expect(page.locator('a[data-demo-state="lookalike"] + compliance-lens-badge')).toHaveCount(0);
    // Resting on the framed link opens its card in the page, with the disclaimer.
    await restOn(page.frameLocator('iframe.mail-frame').locator('a[data-demo-form="frame"]'));
    await expect((await demo.card.opened()).disclaimer).toBeVisible();
    await demo.card.expectRevealed();
    await page.locator('iframe.mail-frame').scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('demo-frame-card.png') });
  });
});

test("the deal table's Expected badge column says what the extension draws once each link is loaded", async ({
  context,
  serviceWorker,
}) => {
  await withDemoPage({ context, serviceWorker }, 1280, async (demo) => {
    const { page } = demo;
    const rows = page.locator('table.crm tbody tr');
    const count = await rows.count();
    expect(count).toBeGreaterThan(3);
    for (let index = 0; index < count; index += 1) {
      const row = rows.nth(index);
      // The chip drawn after loading: a score with its scale, or a mark.
      const expected = (await row.locator('[data-testid="expected-badge"] .cl-badge').last().textContent()) ?? '';
      const badge = row.locator('a[data-demo-form="table"] + compliance-lens-badge');
      // Badges are drawn as they come near the viewport.
      await row.scrollIntoViewIfNeeded();
      await startFreshMinute(serviceWorker);
      await badge.click();
      if (/^\d+\/100$/.test(expected)) {
        await expect(badge).toHaveAttribute('data-state', 'ready');
        await expect((await demo.card.opened()).readinessScore).toHaveText(expected.split('/')[0] ?? '');
      } else {
        const code = { '◷': 'EXPIRED', '?': 'NOT_FOUND', '⊘': 'NOT_FOUND' }[expected];
        await expect(badge).toHaveAttribute('data-error-code', code ?? `unexpected mark ${expected}`);
        if (expected === '⊘') await expect(badge).toHaveAttribute('data-withdrawn');
        else await expect(badge).not.toHaveAttribute('data-withdrawn');
      }
      await page.keyboard.press('Escape');
      await page.mouse.click(2, 2);
    }
    await page.locator('table.crm').scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('demo-expected-badges.png') });
  });
});
