import type { BrowserContext } from '@playwright/test';
import { artifactPath } from './support/artifacts';
import { expectNoSeriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { createDeal, type Deal } from './support/server';
import { SidePanelPage, WIDE_SIDE_PANEL_WIDTH } from './support/side-panel';
import { DealFlowPage } from './support/web-page';

/**
 * The side panel end to end, opened as a page (`sidepanel.html`): it then lists the most recently
 * used web tab, follows the page as links arrive, sorts, exports CSV.
 */

test.use({ withTestService: true });

interface Company {
  name: string;
  readiness: number;
  fundraise: number;
}

const COMPANIES: Company[] = [
  { name: 'Kobo Ledger Ltd', readiness: 76, fundraise: 68 },
  { name: 'Abuja Remit Ltd', readiness: 35, fundraise: 30 },
  { name: '=HYPERLINK("http://evil.example","Zed Pay")', readiness: 92, fundraise: 90 },
];
const ZED = COMPANIES[2]!.name;

const createLink = (baseUrl: string, company: Company): Promise<Deal> =>
  createDeal(baseUrl, company.name, { readiness_score: company.readiness, fundraise_score: company.fundraise });

/** The three companies' links on a deal-flow page (Abuja's in its API form). */
async function openDealsOfCompanies(context: BrowserContext, baseUrl: string) {
  const [kobo, abuja, zed] = await Promise.all(COMPANIES.map((company) => createLink(baseUrl, company)));
  if (!kobo || !abuja || !zed) throw new Error('links not created');
  const page = await DealFlowPage.openWith(context, [kobo.link.shareUrl, abuja.link.apiUrl, zed.link.shareUrl]);
  return { kobo, abuja, zed, page };
}

test('side panel: a table that follows the page, sorts by each column (aria-sort, keyboard) and exports neutralised CSV', async ({
  context,
  extensionId,
  server,
}) => {
  const { kobo, abuja, zed, page } = await openDealsOfCompanies(context, server.baseUrl);
  const late = await createLink(server.baseUrl, { name: 'Lagos Late Ltd', readiness: 55, fundraise: 50 });

  const panel = await SidePanelPage.open(context, extensionId, 'en', { width: WIDE_SIDE_PANEL_WIDTH });
  await expect(panel.pageTitle).toContainText('Deal flow');
  await expect(panel.rows).toHaveCount(3);
  await expect(panel.loadAll).toHaveText('Load 3 snapshots (counts 3 views)');
  expect(await kobo.views()).toBe(0);
  await panel.loadAll.click();
  await expect(panel.readyRows).toHaveCount(3);
  await expect(panel.listDisclaimer).toBeVisible();
  expect(await kobo.views()).toBe(1);

  // Sort by readiness with the keyboard: ascending, then descending.
  const readinessHeader = panel.columnHeader(/Readiness/);
  await panel.sortButton('readiness').focus();
  await panel.page.keyboard.press('Enter');
  await expect(readinessHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(panel.companyColumn).toHaveText(['Abuja Remit Ltd', 'Kobo Ledger Ltd', ZED]);
  await panel.page.keyboard.press('Space');
  await expect(readinessHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(panel.companyColumn).toHaveText([ZED, 'Kobo Ledger Ltd', 'Abuja Remit Ltd']);
  await expect(panel.columnHeader(/Company/)).toHaveAttribute('aria-sort', 'none');

  await panel.sortButton('company').click();
  await expect(panel.columnHeader(/Company/)).toHaveAttribute('aria-sort', 'ascending');
  await expect(panel.companyColumn).toHaveText([ZED, 'Abuja Remit Ltd', 'Kobo Ledger Ltd']);
  await panel.sortButton('band').click();
  await expect(panel.companyColumn).toHaveText(['Abuja Remit Ltd', 'Kobo Ledger Ltd', ZED]);

  // CSV of the rows as shown: header, one line per row, formula neutralised, disclaimer included, no token.
  const { filename, csv } = await panel.exportCsv();
  expect(filename).toMatch(/^compliance-snapshots-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe(
    '"Company","Readiness score","Readiness label","Fundraising risk","Link expires (UTC)","Status","Service","Signature","Disclaimer"',
  );
  expect(lines).toHaveLength(4);
  // Each row says whether its snapshot was verified against the service's keys (issue #36).
  for (const line of lines.slice(1)) expect(line).toContain(',"Signature verified",');
  expect(lines[1]).toMatch(/^"Abuja Remit Ltd",35,"Critical","High","\d{4}-/);
  expect(lines[3]).toMatch(/^"'=HYPERLINK\(""http:\/\/evil\.example"",""Zed Pay""\)",92,"Regulator Ready","Investor ready",/);
  expect(csv).toContain('due diligence');
  for (const deal of [kobo, abuja, zed]) expect(csv).not.toContain(deal.link.token);
  await expect(panel.page.getByText('Exported 3 rows.')).toBeVisible();

  // The page grows: the panel follows (pageLinksChanged), without any fetch.
  await page.addDeal(late.link.shareUrl);
  await expect(panel.rows).toHaveCount(4);
  await expect(panel.loadAll).toHaveText('Load 1 snapshot (counts 1 view)');
  expect(await late.views()).toBe(0);

  // Details of a row, by keyboard; Escape closes them.
  await panel.detailsButton('Kobo Ledger Ltd').focus();
  await panel.page.keyboard.press('Enter');
  await expect(panel.detail.companyName).toHaveText('Kobo Ledger Ltd');
  await expect(panel.detail.disclaimer).toBeVisible();
  await panel.page.keyboard.press('Escape');
  await expect(panel.detailRegion).toHaveCount(0);
});

for (const language of ['en', 'fr'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`side panel: no serious accessibility violations (${language}, ${colorScheme}); screenshot`, async ({
      context,
      extensionId,
      server,
    }) => {
      const { page } = await openDealsOfCompanies(context, server.baseUrl);
      // Two of three cached (hovered), so the screenshot shows both row kinds.
      for (const index of [0, 1]) await page.warmCache(index);

      const panel = await SidePanelPage.open(context, extensionId, language);
      await panel.page.emulateMedia({ colorScheme });
      await expect(panel.readyRows).toHaveCount(2);
      await expect(panel.loadAll).toBeVisible();
      await expectNoSeriousViolations(panel.page);
      await panel.page.screenshot({ path: artifactPath(`sidepanel-${language}-${colorScheme}.png`), fullPage: true });

      await panel.rows.first().getByTestId('row-company').click();
      await expect(panel.detail.card).toBeVisible();
      await expectNoSeriousViolations(panel.page);
      await panel.page.screenshot({ path: artifactPath(`sidepanel-${language}-${colorScheme}-detail.png`), fullPage: true });
    });
  }
}

test('side panel at its usual width: one stacked row per link, sorted with toggles, nothing to scroll sideways (issue #33 item 11)', async ({
  context,
  extensionId,
  server,
}) => {
  const { page } = await openDealsOfCompanies(context, server.baseUrl);
  for (const index of [0, 1, 2]) await page.warmCache(index);
  const panel = await SidePanelPage.open(context, extensionId);
  await expect(panel.readyRows).toHaveCount(3);
  await expect(panel.page.getByRole('table')).toHaveCount(0);
  await panel.sortButton('readiness').click();
  await expect(panel.sortButton('readiness')).toHaveAttribute('aria-pressed', 'true');
  await expect(panel.companyColumn).toHaveText(['Abuja Remit Ltd', 'Kobo Ledger Ltd', ZED]);
  await panel.sortButton('readiness').click();
  await expect(panel.companyColumn).toHaveText([ZED, 'Kobo Ledger Ltd', 'Abuja Remit Ltd']);
  expect(
    await panel.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    'nothing scrolls sideways',
  ).toBe(true);
  for (const row of await panel.rows.all()) {
    const name = await row.getByTestId('row-company').boundingBox();
    const figures = await row.getByTestId('row-figures').boundingBox();
    if (!name || !figures) throw new Error('a row without its name or figures');
    expect(figures.y, 'the score and risk under the name').toBeGreaterThanOrEqual(name.y + name.height - 1);
  }
});
