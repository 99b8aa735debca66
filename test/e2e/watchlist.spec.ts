import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { z } from 'zod';
import { configureTestService, sendToBackground } from './support/extension';
import { expect, test } from './support/fixtures';
import { FounderClient, resetRateLimits, startTestServer, type TestServer } from './support/server';
import { mailPageValues, PAGES_ORIGIN, servePages } from './pages/serve';

/**
 * The watchlist end to end: the built extension in Chromium against the bundled server. A link is
 * watched from the hover card (opening it is one view, watching none) and from the side panel's
 * detail; the founder changes the profile; "Refresh all now" costs exactly one view per watched link
 * and shows the change; a revoked link and an expired one end their watch; the real `alarms` path
 * refreshes on its own with a 30-second cadence set in storage (the options page does not offer it:
 * docs/security.md); screenshots in test-results/watchlist/.
 */

const screenshots = path.resolve(import.meta.dirname, '../../test-results/watchlist');
mkdirSync(screenshots, { recursive: true });

const DEALS_ORIGIN = 'http://localhost:5995';
const cardFrame = (page: Page) => page.frameLocator('compliance-lens-card iframe');
const rows = (page: Page) => page.getByTestId('watch-row');
const row = (page: Page, company: string) =>
  rows(page).filter({ has: page.getByTestId('company-name').getByText(company, { exact: true }) });

async function founderCall(server: TestServer, founder: FounderClient, method: string, pathName: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${pathName}`, {
    method,
    headers: { authorization: `Bearer ${founder.founderKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${pathName} → ${response.status}: ${await response.text()}`);
}

async function newDeal(server: TestServer, name: string, profile: Record<string, unknown> = {}) {
  const founder = await FounderClient.signUp(server.baseUrl, name);
  if (Object.keys(profile).length > 0) await founderCall(server, founder, 'PATCH', '/api/founder/organisation', profile);
  return { founder, link: await founder.createShareLink() };
}

/** Opens the card on a mail-like page by resting on the link: one view. */
async function openCard(context: BrowserContext, server: TestServer, link: { shareUrl: string; apiUrl: string; token: string }) {
  await servePages(context, mailPageValues(link, new URL(server.baseUrl).origin));
  const page = await context.newPage();
  await page.goto(`${PAGES_ORIGIN}/gmail-thread.html`);
  await expect(page.locator('#gmail-share + compliance-lens-badge')).toHaveAttribute('data-state', 'idle');
  await page.locator('#gmail-share').hover();
  await expect(cardFrame(page).getByTestId('snapshot-card')).toBeVisible();
  return page;
}

async function openPanel(context: BrowserContext, extensionId: string, options: { language?: 'en' | 'fr'; hash?: string } = {}) {
  const panel = await context.newPage();
  await panel.setViewportSize({ width: 420, height: 900 });
  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`);
  await panel.evaluate((language) => chrome.storage.local.set({ language }), options.language ?? 'en');
  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html${options.hash ?? ''}`);
  await panel.reload();
  return panel;
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

async function refreshAll(panel: Page, expectedViews: number) {
  const button = panel.getByTestId('watch-refresh-all');
  await expect(button).toHaveText(`Refresh all now (counts ${expectedViews} view${expectedViews === 1 ? '' : 's'})`);
  await button.click();
  await expect(panel.getByRole('status').filter({ hasText: /refreshed\.$/ })).toBeVisible();
}

const listedSchema = z.object({
  watches: z.array(z.object({ id: z.string(), company: z.string().nullable(), pointCount: z.int(), status: z.string() })),
});

test.beforeEach(async ({ serviceWorker, server }) => {
  await configureTestService(serviceWorker, server.baseUrl);
  await resetRateLimits(server.baseUrl);
});

test('watch from the card and from the side panel; Refresh all costs one view per watched link and shows the change; a revoked link ends its watch', async ({
  context,
  extensionId,
  server,
}) => {
  const kobo = await newDeal(server, 'Kobo Ledger Ltd');
  const abuja = await newDeal(server, 'Abuja Remit Ltd', { readiness_score: 44, fundraise_score: 38 });

  // Kobo: opened in the card (one view), then watched from it (no view).
  const mail = await openCard(context, server, kobo.link);
  const toggle = cardFrame(mail).getByTestId('watch-toggle');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(cardFrame(mail).getByTestId('watch-control')).toContainText('Each refresh counts as one view for the founder');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  expect(await kobo.founder.viewCount(kobo.link.id)).toBe(1);
  await mail.locator('compliance-lens-card iframe').screenshot({ path: path.join(screenshots, 'card-watching.png') });

  // Abuja: from the side panel's "On this page" detail (loading it is one view, watching none).
  await context.route(`${DEALS_ORIGIN}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><title>Deals</title></head><body><a href="${abuja.link.shareUrl}">Abuja</a></body></html>`,
    }),
  );
  const deals = await context.newPage();
  await deals.goto(`${DEALS_ORIGIN}/deals.html`);
  await expect(deals.locator('compliance-lens-badge')).toHaveCount(1);
  const panel = await openPanel(context, extensionId);
  await panel.getByTestId('panel-row').getByTestId('row-company').click();
  await panel.getByTestId('link-detail').getByRole('button', { name: 'Load snapshot' }).click();
  const detailToggle = panel.getByTestId('link-detail').getByTestId('watch-toggle');
  await detailToggle.click();
  await expect(detailToggle).toHaveAttribute('aria-pressed', 'true');
  expect(await abuja.founder.viewCount(abuja.link.id)).toBe(1);

  await panel.getByTestId('watchlist-tab').click();
  await expect(rows(panel)).toHaveCount(2);
  await expect(row(panel, 'Kobo Ledger Ltd').getByTestId('readiness-score')).toHaveText('76');
  await expect(row(panel, 'Kobo Ledger Ltd').getByTestId('watch-change')).toHaveText('—');
  await expect(row(panel, 'Abuja Remit Ltd').getByTestId('risk-band')).toHaveText('High risk');

  // The founder completes tasks: a higher score and a new gap.
  await founderCall(server, kobo.founder, 'PATCH', '/api/founder/organisation', {
    readiness_score: 82,
    gaps: [
      { title: 'AML/CFT programme not yet board-approved', severity: 'high', regulatory_basis: 'CBN AML/CFT Regulations 2022' },
      { title: 'Travel-rule messaging not in place', severity: 'critical', regulatory_basis: 'FATF Recommendation 16' },
    ],
  });
  await refreshAll(panel, 2);
  expect(await kobo.founder.viewCount(kobo.link.id)).toBe(2);
  expect(await abuja.founder.viewCount(abuja.link.id)).toBe(2);
  await expect(row(panel, 'Kobo Ledger Ltd').getByTestId('readiness-score')).toHaveText('82');
  await expect(row(panel, 'Kobo Ledger Ltd').getByTestId('watch-change')).toHaveText('+6');
  await expect(row(panel, 'Abuja Remit Ltd').getByTestId('watch-change')).toHaveText('0');
  await row(panel, 'Kobo Ledger Ltd').getByRole('button', { name: 'Details for Kobo Ledger Ltd' }).click();
  const changes = row(panel, 'Kobo Ledger Ltd').getByTestId('watch-changes');
  await expect(changes).toContainText('Readiness score 76 → 82 (+6)');
  await expect(changes).toContainText('New critical gap: Travel-rule messaging not in place');
  await expect(row(panel, 'Kobo Ledger Ltd').getByTestId('watch-history-views')).toHaveText(['2', '1']);

  // Revoked: the next refresh ends the watch (a 404 counts no view) and it is never refreshed again.
  await founderCall(server, abuja.founder, 'POST', `/api/founder/share-links/${abuja.link.id}/revoke`, {});
  await refreshAll(panel, 2);
  await expect(row(panel, 'Abuja Remit Ltd')).toHaveAttribute('data-status', 'ended');
  await expect(row(panel, 'Abuja Remit Ltd')).toContainText('Link revoked or unknown · ended');
  await expect(panel.getByTestId('watch-refresh-all')).toHaveText('Refresh all now (counts 1 view)');
  expect(await kobo.founder.viewCount(kobo.link.id)).toBe(3);

  // Exports: a download each, without the share tokens.
  for (const [button, extension] of [
    ['watch-export-csv', 'csv'],
    ['watch-export-json', 'json'],
  ] as const) {
    const download = panel.waitForEvent('download');
    await panel.getByTestId(button).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^compliance-watchlist-\\d{4}-\\d\\d-\\d\\d\\.${extension}$`));
    const text = readFileSync((await file.path()) ?? '', 'utf8');
    expect(text).toContain('Kobo Ledger Ltd');
    expect(text).not.toContain(kobo.link.token);
    expect(text).not.toContain(abuja.link.token);
  }
  await expectNoSeriousViolations(panel);
});

test('an expired link ends its watch on the next refresh (server clock moved 8 days)', async ({
  context,
  extensionId,
  serviceWorker,
}) => {
  const server = await startTestServer();
  try {
    await configureTestService(serviceWorker, server.baseUrl);
    const deal = await newDeal(server, 'Lagos Custody Ltd');
    const mail = await openCard(context, server, deal.link);
    await cardFrame(mail).getByTestId('watch-toggle').click();
    await expect(cardFrame(mail).getByTestId('watch-toggle')).toHaveAttribute('aria-pressed', 'true');

    const clock = await fetch(`${server.baseUrl}/api/dev/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 8 * 24 * 3600_000 }),
    });
    expect(clock.ok).toBe(true);
    const panel = await openPanel(context, extensionId, { hash: '#watchlist' });
    await refreshAll(panel, 1);
    await expect(row(panel, 'Lagos Custody Ltd')).toHaveAttribute('data-status', 'ended');
    await expect(row(panel, 'Lagos Custody Ltd')).toContainText('Link expired · ended');
    await expect(panel.getByTestId('watch-refresh-all')).toBeDisabled();
    expect(await deal.founder.viewCount(deal.link.id)).toBe(1);
  } finally {
    await server.stop();
  }
});

test('the alarm path: with a 30-second cadence set in storage, the background refreshes a watched link on its own and notifies the change', async ({
  context,
  extensionId,
  server,
  serviceWorker,
}) => {
  test.setTimeout(120_000);
  await serviceWorker.evaluate(() =>
    chrome.storage.local.set({
      watchSettings: { cadence: 'interval', intervalSeconds: 30, notifications: true },
      watchSettings$: { v: 1 },
    }),
  );
  const deal = await newDeal(server, 'Kano Pay Ltd');
  await openCard(context, server, deal.link);
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/popup.html`);
  const watched = await sendToBackground(page, 'watchLink', { origin: new URL(server.baseUrl).origin, token: deal.link.token });
  expect(await deal.founder.viewCount(deal.link.id)).toBe(1);

  const alarm = await serviceWorker.evaluate(() => chrome.alarms.get('watchlist-refresh'));
  expect(alarm?.scheduledTime).toBeGreaterThan(Date.now());
  expect(alarm?.scheduledTime).toBeLessThan(Date.now() + 35_000);

  await founderCall(server, deal.founder, 'PATCH', '/api/founder/organisation', { readiness_score: 91 });
  // Nobody clicks anything: the alarm fires (about 30 s) and the background refreshes.
  await expect.poll(() => deal.founder.viewCount(deal.link.id), { timeout: 60_000, intervals: [1000] }).toBe(2);
  await expect
    .poll(async () => listedSchema.parse(await sendToBackground(page, 'listWatches', undefined)).watches[0]?.pointCount, {
      timeout: 10_000,
    })
    .toBe(2);
  const notifications = await serviceWorker.evaluate(() => chrome.notifications.getAll());
  expect(Object.keys(notifications)).toContain(`compliance-lens-watchlist:${z.object({ id: z.string() }).parse(watched).id}`);
  // The next refresh is set one cadence later.
  const next = await serviceWorker.evaluate(() => chrome.alarms.get('watchlist-refresh'));
  expect(next?.scheduledTime).toBeGreaterThan(Date.now() + 20_000);
});

async function watchedWithHistory(context: BrowserContext, server: TestServer, serviceWorker: Worker, extensionId: string) {
  const deals = [
    await newDeal(server, 'Kobo Ledger Ltd'),
    await newDeal(server, 'Abuja Remit Ltd', { readiness_score: 44, fundraise_score: 38 }),
    await newDeal(server, 'Zaria Digital Assets Ltd', { readiness_score: 88, fundraise_score: 86 }),
  ];
  const origin = new URL(server.baseUrl).origin;
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/popup.html`);
  for (const deal of deals) {
    await sendToBackground(page, 'getSnapshot', { origin, token: deal.link.token });
    await sendToBackground(page, 'watchLink', { origin, token: deal.link.token });
  }
  const scores = [
    [70, 74, 79],
    [40, 38, 35],
    [88, 90, 92],
  ];
  for (let round = 0; round < 3; round++) {
    for (const [index, deal] of deals.entries()) {
      await founderCall(server, deal.founder, 'PATCH', '/api/founder/organisation', { readiness_score: scores[index]![round] });
    }
    await sendToBackground(page, 'refreshAllWatches', undefined);
  }
  await page.close();
  void serviceWorker;
}

for (const language of ['en', 'fr'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`watchlist: no serious accessibility violations (${language}, ${colorScheme}); screenshots of the side panel and the popup`, async ({
      context,
      extensionId,
      server,
      serviceWorker,
    }) => {
      await watchedWithHistory(context, server, serviceWorker, extensionId);
      const panel = await openPanel(context, extensionId, { language, hash: '#watchlist' });
      await panel.emulateMedia({ colorScheme });
      await expect(rows(panel)).toHaveCount(3);
      await expect(panel.getByTestId('watchlist-tab')).toHaveAttribute('aria-selected', 'true');
      await expect(rows(panel).first().getByTestId('sparkline')).toBeVisible();
      await expectNoSeriousViolations(panel);
      await panel.screenshot({ path: path.join(screenshots, `sidepanel-${language}-${colorScheme}.png`), fullPage: true });

      await rows(panel).first().getByRole('button', { expanded: false }).first().click();
      await expect(rows(panel).first().getByTestId('watch-history')).toBeVisible();
      await expectNoSeriousViolations(panel);
      await panel.screenshot({ path: path.join(screenshots, `sidepanel-${language}-${colorScheme}-detail.png`), fullPage: true });

      const popup = await context.newPage();
      await popup.setViewportSize({ width: 400, height: 600 });
      await popup.goto(`chrome-extension://${extensionId}/popup.html`);
      await popup.emulateMedia({ colorScheme });
      await popup.getByTestId('watchlist-tab').click();
      await expect(rows(popup)).toHaveCount(3);
      await expectNoSeriousViolations(popup);
      await popup.screenshot({ path: path.join(screenshots, `popup-${language}-${colorScheme}.png`), fullPage: true });
    });
  }
}
