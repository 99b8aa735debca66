import type { BrowserContext, Locator, Page, Worker } from '@playwright/test';
import { configureTestService, openExtensionPage, sendToBackground, type Language } from './support/extension';
import { expect, test } from './support/fixtures';
import { expectFirstGlance } from './support/glance';
import { OptionsPage } from './support/options';
import { PopupPage } from './support/popup';
import { createDeal, startTestServer, type Deal, type TestServer } from './support/server';
import { SIDE_PANEL_WIDTH, SidePanelPage } from './support/side-panel';
import { LIST_ORIGIN, serveLinkList } from './pages/serve';
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

/** The words a mail shows for its links: a name, the raw address, a mail gateway's wrapper of it. */
const proofpoint = (url: string) => `https://urldefense.com/v3/__${url}__;!!K-Hz7m0Vt54!lqpl1Sy9GIEK$`;

test('fifteen links in the side panel and the popup at their real widths: one stacked row each, named by company, words or service and token, in page order (issue #33 items 11, 12)', async ({
  context,
  extensionId,
  server,
}) => {
  test.setTimeout(180_000);
  const names = Array.from({ length: 15 }, (_, index) =>
    index === 3 ? 'Sahel Pay Holdings International Digital Assets and Remittances SA' : `Deal ${index + 1} Ltd`,
  );
  const deals = await Promise.all(names.map((name) => createDeal(server.baseUrl, name)));
  const helper = await openExtensionPage(context, extensionId, 'popup.html');
  const request = (deal: Deal) => ({ origin: new URL(deal.link.apiUrl).origin, token: deal.link.token });
  // Eight loaded, one of them since revoked (withdrawn); the rest not loaded.
  for (const deal of deals.slice(0, 8)) await sendToBackground(helper, 'getSnapshot', request(deal));
  const revoked = deals[7];
  if (!revoked) throw new Error('no deal');
  expect(await revoked.founder.revoke(revoked.link.id)).toBe(200);
  await sendToBackground(helper, 'refreshSnapshot', request(revoked));
  await helper.close();

  const texts = deals.map((deal, index) => {
    if (index === 14) return { href: deal.link.shareUrl, text: 'Shadow deal room' }; // last on the page, in a shadow root
    if (index % 4 === 1) return { href: deal.link.shareUrl, text: deal.link.shareUrl }; // the raw address
    if (index % 4 === 2) return { href: proofpoint(deal.link.shareUrl), text: proofpoint(deal.link.shareUrl) };
    if (index === 3) return { href: deal.link.apiUrl, text: 'Series A data room' };
    return { href: deal.link.shareUrl, text: `Data room ${index + 1}` };
  });
  await serveLinkList(context, texts);
  const mail = await context.newPage();
  await mail.goto(`${LIST_ORIGIN}/mail.html`);
  await expect(mail.locator('compliance-lens-badge')).toHaveCount(15); // the locator reaches into the shadow root too
  await expect(mail.locator('deal-card').locator('compliance-lens-badge')).toHaveCount(1);

  /** Each row's name sits on a line above its figures or status, and nothing makes the page scroll sideways. */
  const expectStacked = async (page: Page, rowId: string) => {
    const layout = await page.evaluate((id) => {
      const rows = [...document.querySelectorAll(`[data-testid="${id}"]`)];
      return {
        sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
        unstacked: rows.flatMap((row) => {
          const name = row.querySelector('[data-testid="row-company"]')?.getBoundingClientRect();
          const figures = row.querySelector('[data-testid="row-figures"]')?.getBoundingClientRect();
          return name && figures && figures.top < name.bottom - 1 ? [row.textContent?.slice(0, 40)] : [];
        }),
      };
    }, rowId);
    expect(layout).toEqual({ sideways: false, unstacked: [] });
  };
  const expectNames = async (rows: Locator) => {
    const shown = await rows.getByTestId('row-company').allTextContents();
    expect(shown).toHaveLength(15);
    expect(
      shown.filter((name) => name.includes('://')),
      'no row named by an address',
    ).toEqual([]);
    // Loaded rows by their company, in the page's order; the shadow root's link last, by its words.
    expect(shown.slice(0, 7)).toEqual(names.slice(0, 7));
    expect(shown[14]).toBe('Shadow deal room');
    expect(shown[9]).toMatch(new RegExp(`^${new URL(server.baseUrl).host.replace(/\./g, '\\.')} share link · `));
  };

  for (const colorScheme of ['light', 'dark'] as const) {
    const panel = await SidePanelPage.open(context, extensionId, 'en', { colorScheme });
    await expect(panel.rows).toHaveCount(15);
    await expect(panel.readyRows).toHaveCount(7);
    await expectNames(panel.rows);
    await expectStacked(panel.page, 'panel-row');
    await expectFirstGlance(panel.page, `sidepanel-15-links-${colorScheme}-${SIDE_PANEL_WIDTH}`);
    await panel.page.close();

    const popup = await PopupPage.open(context, extensionId, 'en', { colorScheme });
    await expect(popup.rows).toHaveCount(15);
    await expectNames(popup.rows);
    await expectStacked(popup.page, 'page-link-row');
    await expectFirstGlance(popup.page, `popup-15-links-${colorScheme}-400`);
    await popup.page.close();
  }
});
