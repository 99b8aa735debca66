import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { z } from 'zod';
import { expectNoSeriousViolations } from './support/axe';
import { configureTestService, openExtensionPage, sendToBackground } from './support/extension';
import { expect, test } from './support/fixtures';
import { PopupPage } from './support/popup';
import { advanceClock, createDeal, startTestServer, type Deal, type TestServer } from './support/server';
import { SidePanelPage } from './support/side-panel';
import { DealFlowPage, MailPage } from './support/web-page';

/**
 * The watchlist end to end: the built extension in Chromium against the bundled server. A link is
 * watched from the hover card (opening it is one view, watching none) and from the side panel's
 * detail; the founder changes the profile; "Refresh all now" costs exactly one view per watched link
 * and shows the change; a revoked link and an expired one end their watch; the real `alarms` path
 * refreshes on its own with a 30-second cadence set in storage (the options page does not offer it:
 * docs/security.md section 7); screenshots in test-results/watchlist/, to be looked at.
 */

test.use({ withTestService: true });

const screenshots = path.resolve(import.meta.dirname, '../../test-results/watchlist');
const screenshot = (name: string) => {
  mkdirSync(screenshots, { recursive: true });
  return path.join(screenshots, name);
};

/** Opens the card on the Gmail-like page by resting on the share link: one view. */
async function openCard(context: BrowserContext, serviceOrigin: string, deal: Deal) {
  const mail = await MailPage.open(context, 'gmail-thread', deal.link, serviceOrigin);
  await expect(mail.badgeAfter('gmail-share')).toHaveAttribute('data-state', 'idle');
  await mail.restOn('gmail-share');
  await expect((await mail.card.opened()).card).toBeVisible();
  return mail;
}

const listedSchema = z.object({
  watches: z.array(z.object({ id: z.string(), pointCount: z.int() })),
});

test('watch from the card and from the side panel; Refresh all costs one view per watched link and shows the change; a revoked link ends its watch', async ({
  context,
  extensionId,
  server,
  serviceOrigin,
}) => {
  const kobo = await createDeal(server.baseUrl, 'Kobo Ledger Ltd');
  const abuja = await createDeal(server.baseUrl, 'Abuja Remit Ltd', { readiness_score: 44, fundraise_score: 38 });

  // Kobo: opened in the card (one view), then watched from it (no view).
  const mail = await openCard(context, serviceOrigin, kobo);
  const watchToggle = await mail.card.watchToggle();
  await expect(watchToggle).toHaveAttribute('aria-pressed', 'false');
  await expect(watchToggle).toHaveAttribute('title', /Each refresh counts as one view for the founder/);
  await watchToggle.click();
  await expect(watchToggle).toHaveAttribute('aria-pressed', 'true');
  expect(await kobo.views()).toBe(1);
  await (await (await mail.card.frame()).frameElement()).screenshot({ path: screenshot('card-watching.png') });

  // Abuja: from the side panel's "On this page" detail (loading it is one view, watching none).
  await DealFlowPage.openWith(context, [abuja.link.shareUrl]);
  const panel = await SidePanelPage.open(context, extensionId);
  await panel.rows.getByTestId('row-company').click();
  await panel.detailRegion.getByRole('button', { name: 'Load snapshot' }).click();
  const detailToggle = panel.detailRegion.getByTestId('watch-toggle');
  await detailToggle.click();
  await expect(detailToggle).toHaveAttribute('aria-pressed', 'true');
  expect(await abuja.views()).toBe(1);

  const { watchlist } = panel;
  await watchlist.tab.click();
  await expect(watchlist.rows).toHaveCount(2);
  await expect(watchlist.row('Kobo Ledger Ltd').getByTestId('readiness-score')).toHaveText('76');
  await expect(watchlist.row('Kobo Ledger Ltd').getByTestId('watch-change')).toHaveText('—');
  await expect(watchlist.row('Abuja Remit Ltd').getByTestId('risk-band')).toHaveText('Fundraising risk: High');

  // The founder completes tasks: a higher score and a new gap.
  await kobo.founder.updateProfile({
    readiness_score: 82,
    gaps: [
      { title: 'AML/CFT programme not yet board-approved', severity: 'high', regulatory_basis: 'CBN AML/CFT Regulations 2022' },
      { title: 'Travel-rule messaging not in place', severity: 'critical', regulatory_basis: 'FATF Recommendation 16' },
    ],
  });
  await watchlist.refreshAllNow(2);
  expect(await kobo.views()).toBe(2);
  expect(await abuja.views()).toBe(2);
  await expect(watchlist.row('Kobo Ledger Ltd').getByTestId('readiness-score')).toHaveText('82');
  await expect(watchlist.row('Kobo Ledger Ltd').getByTestId('watch-change')).toHaveText('+6');
  await expect(watchlist.row('Abuja Remit Ltd').getByTestId('watch-change')).toHaveText('0');
  const history = await watchlist.openDetails('Kobo Ledger Ltd');
  const changes = watchlist.row('Kobo Ledger Ltd').getByTestId('watch-changes');
  await expect(changes).toContainText('Readiness score 76 → 82 (+6)');
  await expect(changes).toContainText('New critical gap: Travel-rule messaging not in place');
  // The view counts the service reported: the founder's own count, growing with each refresh.
  await expect(history.getByTestId('watch-history-views')).toHaveText(['2', '1']);

  // Revoked: the next refresh ends the watch (a 404 counts no view) and it is never refreshed again.
  expect(await abuja.founder.revoke(abuja.link.id)).toBe(200);
  await watchlist.refreshAllNow(2);
  await expect(watchlist.row('Abuja Remit Ltd')).toHaveAttribute('data-status', 'ended');
  await expect(watchlist.row('Abuja Remit Ltd')).toContainText('Link revoked or unknown · ended');
  await expect(watchlist.refreshAll).toHaveText('Refresh all now (counts 1 view)');
  expect(await kobo.views()).toBe(3);

  // Exports: a download each, without the share tokens.
  for (const kind of ['csv', 'json'] as const) {
    const { filename, text } = await watchlist.export(kind);
    expect(filename).toMatch(new RegExp(`^compliance-watchlist-\\d{4}-\\d\\d-\\d\\d\\.${kind}$`));
    expect(text).toContain('Kobo Ledger Ltd');
    // Each refresh says whether its snapshot was verified against the service's keys (issue #36).
    expect(text).toContain(kind === 'csv' ? '"Signature verified"' : '"state": "verified"');
    expect(text).not.toContain(kobo.link.token);
    expect(text).not.toContain(abuja.link.token);
  }
  await expectNoSeriousViolations(panel.page);
});

test('an expired link ends its watch on the next refresh (server clock moved 8 days)', async ({
  context,
  extensionId,
  serviceWorker,
}) => {
  // Its own server: moving the clock would expire the other specs' links.
  const server = await startTestServer();
  try {
    await configureTestService(serviceWorker, server.baseUrl);
    const deal = await createDeal(server.baseUrl, 'Lagos Custody Ltd');
    const mail = await openCard(context, new URL(server.baseUrl).origin, deal);
    const watchToggle = await mail.card.watchToggle();
    await watchToggle.click();
    await expect(watchToggle).toHaveAttribute('aria-pressed', 'true');

    await advanceClock(server.baseUrl, 8 * 24 * 3600_000);
    const { watchlist } = await SidePanelPage.open(context, extensionId, 'en', { view: 'watchlist' });
    await watchlist.refreshAllNow(1);
    await expect(watchlist.row('Lagos Custody Ltd')).toHaveAttribute('data-status', 'ended');
    await expect(watchlist.row('Lagos Custody Ltd')).toContainText('Link expired · ended');
    await expect(watchlist.refreshAll).toBeDisabled();
    expect(await deal.views()).toBe(1);
  } finally {
    await server.stop();
  }
});

test('the alarm path: with a 30-second cadence set in storage, the background refreshes a watched link on its own and notifies the change', async ({
  context,
  extensionId,
  server,
  serviceOrigin,
  serviceWorker,
}) => {
  test.setTimeout(120_000);
  // What the options page never offers; the stored settings accept it (at least 30 s: Chrome's shortest alarm).
  await serviceWorker.evaluate(() =>
    chrome.storage.local.set({
      watchSettings: { cadence: 'interval', intervalSeconds: 30, notifications: true },
      watchSettings$: { v: 1 },
    }),
  );
  const deal = await createDeal(server.baseUrl, 'Kano Pay Ltd');
  await openCard(context, serviceOrigin, deal);
  const page = await openExtensionPage(context, extensionId, 'popup.html');
  const watched = z
    .object({ id: z.string() })
    .parse(await sendToBackground(page, 'watchLink', { origin: serviceOrigin, token: deal.link.token }));
  expect(await deal.views()).toBe(1);

  const alarm = await serviceWorker.evaluate(() => chrome.alarms.get('watchlist-refresh'));
  expect(alarm?.scheduledTime).toBeGreaterThan(Date.now());
  expect(alarm?.scheduledTime).toBeLessThan(Date.now() + 35_000);

  await deal.founder.updateProfile({ readiness_score: 91 });
  // Nobody clicks anything: the alarm fires (about 30 s) and the background refreshes.
  await expect.poll(() => deal.views(), { timeout: 60_000, intervals: [1000] }).toBe(2);
  await expect
    .poll(async () => listedSchema.parse(await sendToBackground(page, 'listWatches', undefined)).watches[0]?.pointCount, {
      timeout: 10_000,
    })
    .toBe(2);
  const notifications = await serviceWorker.evaluate(() => chrome.notifications.getAll());
  expect(Object.keys(notifications)).toContain(`compliance-lens-watchlist:${watched.id}`);
  // The next refresh is set one cadence later.
  const next = await serviceWorker.evaluate(() => chrome.alarms.get('watchlist-refresh'));
  expect(next?.scheduledTime).toBeGreaterThan(Date.now() + 20_000);
});

/** Three watched companies with four refreshes each (so rows have a trend), through the background. */
async function watchedWithHistory(context: BrowserContext, server: TestServer, serviceOrigin: string, extensionId: string) {
  const deals = [
    await createDeal(server.baseUrl, 'Kobo Ledger Ltd'),
    await createDeal(server.baseUrl, 'Abuja Remit Ltd', { readiness_score: 44, fundraise_score: 38 }),
    await createDeal(server.baseUrl, 'Zaria Digital Assets Ltd', { readiness_score: 88, fundraise_score: 86 }),
  ];
  const page: Page = await openExtensionPage(context, extensionId, 'popup.html');
  for (const deal of deals) {
    await sendToBackground(page, 'getSnapshot', { origin: serviceOrigin, token: deal.link.token });
    await sendToBackground(page, 'watchLink', { origin: serviceOrigin, token: deal.link.token });
  }
  const scores = [
    [70, 74, 79],
    [40, 38, 35],
    [88, 90, 92],
  ];
  for (let round = 0; round < 3; round++) {
    for (const [index, deal] of deals.entries()) await deal.founder.updateProfile({ readiness_score: scores[index]![round] });
    await sendToBackground(page, 'refreshAllWatches', undefined);
  }
  await page.close();
}

for (const language of ['en', 'fr'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`watchlist: no serious accessibility violations (${language}, ${colorScheme}); screenshots of the side panel and the popup`, async ({
      context,
      extensionId,
      server,
      serviceOrigin,
    }) => {
      await watchedWithHistory(context, server, serviceOrigin, extensionId);
      const panel = await SidePanelPage.open(context, extensionId, language, { view: 'watchlist', colorScheme });
      const { watchlist } = panel;
      await expect(watchlist.rows).toHaveCount(3);
      await expect(watchlist.tab).toHaveAttribute('aria-selected', 'true');
      await expect(watchlist.rows.first().getByTestId('sparkline')).toBeVisible();
      await expectNoSeriousViolations(panel.page);
      await panel.page.screenshot({ path: screenshot(`sidepanel-${language}-${colorScheme}.png`), fullPage: true });

      await watchlist.rows.first().getByRole('button', { expanded: false }).first().click();
      await expect(watchlist.rows.first().getByTestId('watch-history')).toBeVisible();
      await expectNoSeriousViolations(panel.page);
      await panel.page.screenshot({ path: screenshot(`sidepanel-${language}-${colorScheme}-detail.png`), fullPage: true });

      const popup = await PopupPage.open(context, extensionId, language, { colorScheme });
      await popup.watchlist.tab.click();
      await expect(popup.watchlist.rows).toHaveCount(3);
      await expectNoSeriousViolations(popup.page);
      await popup.page.screenshot({ path: screenshot(`popup-${language}-${colorScheme}.png`), fullPage: true });
    });
  }
}
