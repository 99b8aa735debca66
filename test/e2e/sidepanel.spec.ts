import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { configureTestService } from './support/extension';
import { expectNoSeriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { FounderClient, resetRateLimits } from './support/server';
import { escapeHtml } from '../support/html';

/**
 * The side panel end to end, opened as a page (`sidepanel.html`): it then lists the most recently
 * used web tab, follows the page as links arrive, sorts, exports CSV.
 */

const artifacts = path.resolve(import.meta.dirname, '../artifacts');
mkdirSync(artifacts, { recursive: true });

const DEALS_ORIGIN = 'http://localhost:5996';

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

async function createLink(baseUrl: string, company: Company) {
  const founder = await FounderClient.signUp(baseUrl, company.name);
  const response = await fetch(`${baseUrl}/api/founder/organisation`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${founder.founderKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ readiness_score: company.readiness, fundraise_score: company.fundraise }),
  });
  if (!response.ok) throw new Error(`PATCH organisation → ${response.status}: ${await response.text()}`);
  return { founder, link: await founder.createShareLink() };
}

/** A deal-flow page; `window.addDeal(href)` appends a row later, as a CRM's list does. */
async function serveDealPage(context: BrowserContext, hrefs: string[]): Promise<void> {
  const rows = hrefs.map((href, index) => `<li>Deal ${index + 1}: <a href="${escapeHtml(href)}">snapshot</a></li>`).join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Deal flow</title></head><body><h1>Deal flow</h1><ul id="deals">${rows}</ul>
<script>window.addDeal = (href) => { const li = document.createElement('li'); const a = document.createElement('a'); a.href = href; a.textContent = 'snapshot'; li.append('New deal: ', a); document.getElementById('deals').append(li); };</script></body></html>`;
  await context.route(`${DEALS_ORIGIN}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
  );
}

async function openPanel(context: BrowserContext, extensionId: string, language: 'en' | 'fr' = 'en'): Promise<Page> {
  const panel = await context.newPage();
  await panel.setViewportSize({ width: 420, height: 900 });
  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`);
  await panel.evaluate((value) => chrome.storage.local.set({ language: value }), language);
  await panel.reload();
  return panel;
}

const companyColumn = (panel: Page) => panel.getByTestId('panel-row').getByTestId('row-company');

test.beforeEach(async ({ serviceWorker, server }) => {
  await configureTestService(serviceWorker, server.baseUrl);
  await resetRateLimits(server.baseUrl);
});

test('side panel: a table that follows the page, sorts by each column (aria-sort, keyboard) and exports neutralised CSV', async ({
  context,
  extensionId,
  server,
}) => {
  const [kobo, abuja, zed] = await Promise.all(COMPANIES.map((company) => createLink(server.baseUrl, company)));
  const late = await createLink(server.baseUrl, { name: 'Lagos Late Ltd', readiness: 55, fundraise: 50 });
  if (!kobo || !abuja || !zed) throw new Error('links not created');
  await serveDealPage(context, [kobo.link.shareUrl, abuja.link.apiUrl, zed.link.shareUrl]);
  const page = await context.newPage();
  await page.goto(`${DEALS_ORIGIN}/deals.html`);
  await expect(page.locator('compliance-lens-badge')).toHaveCount(3);

  const panel = await openPanel(context, extensionId);
  await expect(panel.getByTestId('panel-page')).toContainText('Deal flow');
  await expect(panel.getByTestId('panel-row')).toHaveCount(3);
  await expect(panel.getByTestId('load-all')).toHaveText('Load 3 snapshots (counts 3 views)');
  expect(await kobo.founder.viewCount(kobo.link.id)).toBe(0);
  await panel.getByTestId('load-all').click();
  await expect(panel.locator('[data-testid="panel-row"][data-state="ready"]')).toHaveCount(3);
  await expect(panel.getByTestId('list-disclaimers').getByTestId('disclaimer')).toBeVisible();
  expect(await kobo.founder.viewCount(kobo.link.id)).toBe(1);

  // Sort by readiness with the keyboard: ascending, then descending.
  const readinessHeader = panel.getByRole('columnheader', { name: /Readiness/ });
  await panel.getByTestId('sort-readiness').focus();
  await panel.keyboard.press('Enter');
  await expect(readinessHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(companyColumn(panel)).toHaveText(['Abuja Remit Ltd', 'Kobo Ledger Ltd', COMPANIES[2]!.name]);
  await panel.keyboard.press('Space');
  await expect(readinessHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(companyColumn(panel)).toHaveText([COMPANIES[2]!.name, 'Kobo Ledger Ltd', 'Abuja Remit Ltd']);
  await expect(panel.getByRole('columnheader', { name: /Company/ })).toHaveAttribute('aria-sort', 'none');

  await panel.getByTestId('sort-company').click();
  await expect(panel.getByRole('columnheader', { name: /Company/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(companyColumn(panel)).toHaveText([COMPANIES[2]!.name, 'Abuja Remit Ltd', 'Kobo Ledger Ltd']);
  await panel.getByTestId('sort-band').click();
  await expect(companyColumn(panel)).toHaveText(['Abuja Remit Ltd', 'Kobo Ledger Ltd', COMPANIES[2]!.name]);

  // CSV of the rows as shown: header, one line per row, formula neutralised, disclaimer included, no token.
  const downloadPromise = panel.waitForEvent('download');
  await panel.getByTestId('export-csv').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^compliance-snapshots-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe(
    '"Company","Readiness score","Readiness label","Risk band","Link expires (UTC)","Status","Service","Disclaimer"',
  );
  expect(lines).toHaveLength(4);
  expect(lines[1]).toMatch(/^"Abuja Remit Ltd",35,"Critical","High risk","\d{4}-/);
  expect(lines[3]).toMatch(/^"'=HYPERLINK\(""http:\/\/evil\.example"",""Zed Pay""\)",92,"Regulator Ready","Investor ready",/);
  expect(csv).toContain('due diligence');
  for (const deal of [kobo, abuja, zed]) expect(csv).not.toContain(deal.link.token);
  await expect(panel.getByText('Exported 3 rows.')).toBeVisible();

  // The page grows: the panel follows (pageLinksChanged), without any fetch.
  await page.evaluate((href) => (window as unknown as { addDeal(href: string): void }).addDeal(href), late.link.shareUrl);
  await expect(panel.getByTestId('panel-row')).toHaveCount(4);
  await expect(panel.getByTestId('load-all')).toHaveText('Load 1 snapshot (counts 1 view)');
  expect(await late.founder.viewCount(late.link.id)).toBe(0);

  // Details of a row, by keyboard; Escape closes them.
  await panel.getByRole('button', { name: 'Show details for Kobo Ledger Ltd' }).focus();
  await panel.keyboard.press('Enter');
  const detail = panel.getByTestId('link-detail');
  await expect(detail.getByTestId('company-name')).toHaveText('Kobo Ledger Ltd');
  await expect(detail.getByTestId('disclaimer')).toBeVisible();
  await panel.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
});

for (const language of ['en', 'fr'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`side panel: no serious accessibility violations (${language}, ${colorScheme}); screenshot`, async ({
      context,
      extensionId,
      server,
    }) => {
      const [kobo, abuja, zed] = await Promise.all(COMPANIES.map((company) => createLink(server.baseUrl, company)));
      if (!kobo || !abuja || !zed) throw new Error('links not created');
      await serveDealPage(context, [kobo.link.shareUrl, abuja.link.apiUrl, zed.link.shareUrl]);
      const page = await context.newPage();
      await page.goto(`${DEALS_ORIGIN}/deals.html`);
      await expect(page.locator('compliance-lens-badge')).toHaveCount(3);
      // Two of three cached (hovered), so the screenshot shows both row kinds.
      for (const index of [0, 1]) {
        await page.locator('a').nth(index).hover();
        await expect(page.locator('compliance-lens-badge').nth(index)).toHaveAttribute('data-state', 'ready');
        await page.mouse.move(0, 0);
      }

      const panel = await openPanel(context, extensionId, language);
      await panel.emulateMedia({ colorScheme });
      await expect(panel.locator('[data-testid="panel-row"][data-state="ready"]')).toHaveCount(2);
      await expect(panel.getByTestId('load-all')).toBeVisible();
      await expectNoSeriousViolations(panel);
      await panel.screenshot({ path: path.join(artifacts, `sidepanel-${language}-${colorScheme}.png`), fullPage: true });

      await panel.getByTestId('panel-row').first().getByTestId('row-company').click();
      await expect(panel.getByTestId('link-detail').getByTestId('snapshot-card')).toBeVisible();
      await expectNoSeriousViolations(panel);
      await panel.screenshot({ path: path.join(artifacts, `sidepanel-${language}-${colorScheme}-detail.png`), fullPage: true });
    });
  }
}
