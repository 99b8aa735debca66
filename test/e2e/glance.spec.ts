import type { BrowserContext, Page, Worker } from '@playwright/test';
import { configureTestService, openExtensionPage, sendToBackground, type Language } from './support/extension';
import { expect, test } from './support/fixtures';
import { expectFirstGlance } from './support/glance';
import { OptionsPage } from './support/options';
import { PopupPage } from './support/popup';
import { createDeal, startTestServer, type Deal, type TestServer } from './support/server';
import { SidePanelPage } from './support/side-panel';
import { DealFlowPage } from './support/web-page';

/**
 * The surfaces an investor sees in the first second (issue #27), as they are after a week of use:
 * the popup (the page's links, the watchlist), the side panel (the page's table, the watchlist with
 * an ended and a failed row, a row's details) and the options page, in English and French (the
 * options' language setting), light and dark, at 1280 and 360 px wide. Each screen is checked by
 * `expectFirstGlance` (nothing clipped, no raw code, no past event in the future, axe) and
 * photographed into test-results/glance/.
 */

test.use({ withTestService: true });

const WIDTHS = [1280, 360] as const;
const HEIGHT = 800;

interface Scene {
  kobo: Deal;
  sahel: Deal;
  abuja: Deal;
  naira: Deal;
  zaria: Deal;
  /** Watched on a second service that is then stopped: its last refresh failed. */
  lagos: Deal;
}

/**
 * Five companies on a deal-flow page (three loaded, one revoked, one not loaded) and five watched
 * ones with three refreshes of history: Abuja's link revoked (its watch ended) and Lagos's service
 * gone (its last refresh failed).
 */
async function setUpScene(context: BrowserContext, server: TestServer, serviceWorker: Worker, extensionId: string) {
  const [kobo, sahel, abuja, naira, zaria] = await Promise.all([
    createDeal(server.baseUrl, 'Kobo Ledger Ltd'),
    createDeal(server.baseUrl, 'Sahel Pay SA', {
      readiness_score: 93,
      fundraise_score: 86,
      primary_regulator: 'AMF_UMOA',
      secondary_regulators: ['BCEAO'],
      arip_stage: 'aip_active',
    }),
    createDeal(server.baseUrl, 'Abuja Remit Ltd', { readiness_score: 44, fundraise_score: 38 }),
    createDeal(server.baseUrl, 'Naira Vault Ltd'),
    createDeal(server.baseUrl, 'Zaria Digital Assets and Tokenised Real-World Infrastructure Holdings Ltd', {
      readiness_score: 22,
      fundraise_score: 20,
      primary_regulator: 'SEC_NIGERIA',
    }),
  ]);
  if (!kobo || !sahel || !abuja || !naira || !zaria) throw new Error('deals not created');
  const gone: TestServer = await startTestServer();
  await configureTestService(serviceWorker, gone.baseUrl);
  const lagos = await createDeal(gone.baseUrl, 'Lagos Custody Ltd');

  const helper: Page = await openExtensionPage(context, extensionId, 'popup.html');
  const request = (deal: Deal) => ({ origin: new URL(deal.link.apiUrl).origin, token: deal.link.token });
  const watched = [kobo, sahel, abuja, zaria, lagos];
  for (const deal of watched) {
    await sendToBackground(helper, 'getSnapshot', request(deal));
    await sendToBackground(helper, 'watchLink', request(deal));
  }
  const rounds = [
    { kobo: 70, sahel: 93, zaria: 30 },
    { kobo: 82, sahel: 93, zaria: 22 },
  ];
  for (const round of rounds) {
    await kobo.founder.updateProfile({ readiness_score: round.kobo });
    await zaria.founder.updateProfile({ readiness_score: round.zaria });
    await sendToBackground(helper, 'refreshAllWatches', undefined);
  }
  expect(await abuja.founder.revoke(abuja.link.id)).toBe(200);
  await gone.stop();
  await sendToBackground(helper, 'refreshAllWatches', undefined);
  await helper.close();

  const deals = await DealFlowPage.openWith(context, [
    { href: kobo.link.shareUrl, text: 'Series A data room' },
    { href: sahel.link.shareUrl, text: 'Sahel Pay — compliance snapshot' },
    { href: abuja.link.apiUrl, text: 'Abuja Remit status (API)' },
    { href: naira.link.shareUrl, text: 'Naira Vault seed round' },
    { href: zaria.link.shareUrl, text: 'Zaria DA' },
  ]);
  return { scene: { kobo, sahel, abuja, naira, zaria, lagos } satisfies Scene, deals };
}

/** The snapshot card is the hover card's engineer's (its own tests hold its vocabulary). */
const CARD = '[data-testid="snapshot-card"]';

for (const language of ['en', 'fr'] as const satisfies readonly Language[]) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`first glance (${language}, ${colorScheme}): popup, side panel lists, watchlist with ended and failed rows, options, at 1280 and 360 px`, async ({
      context,
      extensionId,
      server,
      serviceWorker,
    }) => {
      test.setTimeout(180_000);
      await setUpScene(context, server, serviceWorker, extensionId);
      const name = (surface: string, width: number) => `${surface}-${language}-${colorScheme}-${width}`;

      for (const width of WIDTHS) {
        const viewport = { width, height: HEIGHT };

        const popup = await PopupPage.open(context, extensionId, language, { colorScheme });
        await popup.page.setViewportSize(viewport);
        await expect(popup.rows).toHaveCount(5);
        await expect(popup.readyRows).toHaveCount(3);
        await expectFirstGlance(popup.page, name('popup-page', width));
        await popup.rows.filter({ hasText: 'Sahel Pay SA' }).click();
        await expect(popup.detail.companyName).toHaveText('Sahel Pay SA');
        await expectFirstGlance(popup.page, name('popup-detail', width), { rawCodesExcept: CARD });
        await popup.watchlist.tab.click();
        await expect(popup.watchlist.rows).toHaveCount(5);
        await expectFirstGlance(popup.page, name('popup-watchlist', width));
        await popup.page.close();

        const panel = await SidePanelPage.open(context, extensionId, language, { colorScheme });
        await panel.page.setViewportSize(viewport);
        await expect(panel.rows).toHaveCount(5);
        await expect(panel.readyRows).toHaveCount(3);
        await expectFirstGlance(panel.page, name('sidepanel-page', width));
        await panel.watchlist.tab.click();
        await expect(panel.watchlist.rows).toHaveCount(5);
        await expect(panel.watchlist.rows.filter({ has: panel.page.locator('[data-status="ended"]') })).toHaveCount(0);
        await expect(panel.page.locator('[data-testid="watch-row"][data-status="ended"]')).toHaveCount(1);
        await panel.watchlist.row('Kobo Ledger Ltd').getByRole('button', { expanded: false }).first().click();
        await expect(panel.watchlist.row('Kobo Ledger Ltd').getByTestId('watch-history')).toBeVisible();
        await expectFirstGlance(panel.page, name('sidepanel-watchlist', width));
        await panel.page.close();

        const options = await OptionsPage.open(context, extensionId, { language, colorScheme, viewport });
        await expect(options.serviceRows.first()).toBeVisible();
        await expectFirstGlance(options.page, name('options', width));
        await options.page.close();
      }
    });
  }
}

test('the /share page, the model for the card: the same vocabulary, mark and palette, at 1280 and 360 px, light and dark', async ({
  context,
  server,
}) => {
  const deal = await createDeal(server.baseUrl, 'Sahel Pay SA', {
    primary_regulator: 'AMF_UMOA',
    secondary_regulators: ['BCEAO', 'CBN'],
    arip_stage: 'aip_active',
    readiness_score: 22,
    checklist_complete: 9,
    checklist_total: 40,
  });
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of WIDTHS) {
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: HEIGHT });
      await page.goto(deal.link.shareUrl);
      await expect(page.getByTestId('primary-regulator')).toHaveText('Autorité des marchés financiers de l’UMOA');
      await expect(page.getByTestId('risk-band')).toBeVisible();
      await expectFirstGlance(page, `share-${colorScheme}-${width}`);
      await page.close();
    }
  }
});
