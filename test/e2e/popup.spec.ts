import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { configureTestService } from './support/extension';
import { expectNoSeriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { FounderClient, resetRateLimits } from './support/server';
import { escapeHtml } from '../support/html';

/**
 * The popup end to end: the built extension in Chromium, the bundled server on a random port, a
 * deal-flow page on a loopback origin (where the annotator runs). The popup is opened as a tab; it
 * then lists the most recently used web tab (components/page-links/api.ts `resolveTargetTab`).
 */

const artifacts = path.resolve(import.meta.dirname, '../artifacts');
mkdirSync(artifacts, { recursive: true });

const DEALS_ORIGIN = 'http://localhost:5997';

interface Deal {
  founder: FounderClient;
  link: { id: string; token: string; apiUrl: string; shareUrl: string };
}

/** A CRM-like page listing the given links (the same link twice counts once). */
async function serveDealPage(context: BrowserContext, hrefs: string[]): Promise<void> {
  const rows = hrefs
    .map((href, index) => `<tr><td>Deal ${index + 1}</td><td><a href="${escapeHtml(href)}">compliance snapshot</a></td></tr>`)
    .join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pipeline</title></head><body><h1>Pipeline</h1><table><tbody>${rows}</tbody></table></body></html>`;
  await context.route(`${DEALS_ORIGIN}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
  );
}

async function createDeals(baseUrl: string, names: string[]): Promise<Deal[]> {
  return Promise.all(
    names.map(async (name) => {
      const founder = await FounderClient.signUp(baseUrl, name);
      return { founder, link: await founder.createShareLink() };
    }),
  );
}

async function openDealPage(context: BrowserContext, expectedBadges: number): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${DEALS_ORIGIN}/pipeline.html`);
  await expect(page.locator('compliance-lens-badge')).toHaveCount(expectedBadges);
  return page;
}

async function openPopup(context: BrowserContext, extensionId: string, language: 'en' | 'fr' = 'en'): Promise<Page> {
  const popup = await context.newPage();
  await popup.setViewportSize({ width: 400, height: 600 });
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  await popup.evaluate((value) => chrome.storage.local.set({ language: value }), language);
  await popup.reload();
  return popup;
}

const settle = (page: Page, ms = 800) => page.waitForTimeout(ms);

test.beforeEach(async ({ serviceWorker, server }) => {
  await configureTestService(serviceWorker, server.baseUrl);
  await resetRateLimits(server.baseUrl);
});

test('lists the page’s links without a view; "Load 2 snapshots" costs exactly 2 views; a cached one shows at once', async ({
  context,
  extensionId,
  server,
}) => {
  const deals = await createDeals(server.baseUrl, ['Kobo Ledger Ltd', 'Sahel Pay SA', 'Naira Vault Ltd']);
  const [kobo, sahel, naira] = deals;
  if (!kobo || !sahel || !naira) throw new Error('deals not created');
  // Kobo's link twice (share and API form): one row.
  await serveDealPage(context, [kobo.link.shareUrl, kobo.link.apiUrl, sahel.link.shareUrl, naira.link.apiUrl]);
  const page = await openDealPage(context, 4);

  // Warm the cache for Naira the way an investor would: hover its badge (one view).
  await page.locator('a').nth(3).hover();
  await expect(page.locator('compliance-lens-badge').nth(3)).toHaveAttribute('data-state', 'ready');
  await page.mouse.move(0, 0);
  expect(await naira.founder.viewCount(naira.link.id)).toBe(1);

  const popup = await openPopup(context, extensionId);
  const rows = popup.getByTestId('page-link-row');
  await expect(rows).toHaveCount(3);
  await expect(popup.getByTestId('page-links-summary')).toHaveText('3 share links on this page · 1 cached');
  await expect(rows.filter({ hasText: 'Naira Vault Ltd' })).toHaveAttribute('data-state', 'ready');
  await expect(popup.getByTestId('list-disclaimers').getByTestId('disclaimer')).toContainText('due diligence');
  const loadAll = popup.getByTestId('load-all');
  await expect(loadAll).toHaveText('Load 2 snapshots (counts 2 views)');
  await settle(popup);
  expect(await kobo.founder.viewCount(kobo.link.id)).toBe(0);
  expect(await sahel.founder.viewCount(sahel.link.id)).toBe(0);
  expect(await naira.founder.viewCount(naira.link.id)).toBe(1);

  await loadAll.click();
  await expect(rows.filter({ hasText: 'Kobo Ledger Ltd' })).toHaveAttribute('data-state', 'ready');
  await expect(rows.filter({ hasText: 'Sahel Pay SA' })).toHaveAttribute('data-state', 'ready');
  await expect(popup.getByText('Every snapshot on this page is loaded.')).toBeVisible();
  await settle(popup);
  expect(await kobo.founder.viewCount(kobo.link.id)).toBe(1);
  expect(await sahel.founder.viewCount(sahel.link.id)).toBe(1);
  expect(await naira.founder.viewCount(naira.link.id)).toBe(1);

  // Selecting a link shows the full card; Refresh is one more view; back returns focus to the row.
  await rows.filter({ hasText: 'Sahel Pay SA' }).click();
  const card = popup.getByTestId('snapshot-card');
  await expect(card.getByTestId('company-name')).toHaveText('Sahel Pay SA');
  await expect(card.getByTestId('readiness-score')).toHaveText('76');
  await expect(card.getByTestId('disclaimer')).toBeVisible();
  await card.getByRole('button', { name: 'Refresh' }).click();
  await expect(card.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  await settle(popup);
  expect(await sahel.founder.viewCount(sahel.link.id)).toBe(2);
  await popup.getByRole('button', { name: 'All links' }).click();
  await expect(rows.filter({ hasText: 'Sahel Pay SA' })).toBeFocused();
});

test('founder preview: API URL, share URL, wrapped URL and bare token (service picker) each show the card and cost one view; bad input none', async ({
  context,
  extensionId,
  server,
}) => {
  const links = await createDeals(server.baseUrl, ['Api Form Ltd', 'Share Form Ltd', 'Wrapped Form Ltd', 'Token Form Ltd']);
  const [api, share, wrapped, token] = links;
  if (!api || !share || !wrapped || !token) throw new Error('links not created');
  const popup = await openPopup(context, extensionId);
  await popup.getByRole('tab', { name: 'Preview my link' }).click();
  const field = popup.getByRole('textbox', { name: 'Share link or token' });
  await expect(popup.getByTestId('preview-cost')).toHaveText(/counts as one view/);
  const submit = popup.getByRole('button', { name: 'Preview (counts 1 view)' });
  const result = popup.getByTestId('preview-result');

  // Typing or pasting fetches nothing.
  await field.fill(api.link.apiUrl);
  await expect(popup.getByTestId('preview-detected')).toHaveText('Recognised: API link on E2E test server.');
  await settle(popup);
  expect(await api.founder.viewCount(api.link.id)).toBe(0);
  await submit.click();
  await expect(result.getByTestId('company-name')).toHaveText('Api Form Ltd');
  await expect(result.getByTestId('disclaimer')).toBeVisible();
  expect(await api.founder.viewCount(api.link.id)).toBe(1);

  await field.fill(share.link.shareUrl);
  await field.press('Enter');
  await expect(result.getByTestId('company-name')).toHaveText('Share Form Ltd');
  expect(await share.founder.viewCount(share.link.id)).toBe(1);

  await field.fill(`https://www.google.com/url?q=${encodeURIComponent(wrapped.link.shareUrl)}&sa=D&source=editors`);
  await expect(popup.getByTestId('preview-detected')).toHaveText('Recognised: Share page on E2E test server.');
  await submit.click();
  await expect(result.getByTestId('company-name')).toHaveText('Wrapped Form Ltd');
  expect(await wrapped.founder.viewCount(wrapped.link.id)).toBe(1);

  await field.fill(token.link.token);
  await expect(popup.getByTestId('preview-detected')).toHaveText('Recognised: a token. Choose its service below.');
  await popup
    .getByRole('combobox', { name: 'Service that issued this token' })
    .selectOption({ label: `E2E test server (${new URL(server.baseUrl).origin})` });
  await submit.click();
  await expect(result.getByTestId('company-name')).toHaveText('Token Form Ltd');
  expect(await token.founder.viewCount(token.link.id)).toBe(1);

  await field.fill('https://evil.example/share/' + token.link.token);
  await submit.click();
  await expect(popup.getByRole('alert')).toHaveText(/not in your settings/);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toBeFocused();
  await expect(result).toHaveCount(0);
  await settle(popup);
  expect(await token.founder.viewCount(token.link.id)).toBe(1);
});

test('a tab the extension cannot see: a designed state, and the settings button opens the options page', async ({
  context,
  extensionId,
}) => {
  // The only other tab is about:blank, whose address the browser does not even show the extension.
  const popup = await openPopup(context, extensionId);
  await expect(popup.getByTestId('page-no-access')).toContainText('Compliance Lens can’t see this tab');
  const optionsPage = context.waitForEvent('page');
  await popup.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(await optionsPage).toHaveURL(/options\.html/);
});

test('French: counts, plurals and dates follow the language', async ({ context, extensionId, server }) => {
  const deals = await createDeals(server.baseUrl, ['Kobo Ledger Ltd', 'Sahel Pay SA']);
  await serveDealPage(
    context,
    deals.map((deal) => deal.link.shareUrl),
  );
  await openDealPage(context, 2);
  const popup = await openPopup(context, extensionId, 'fr');
  await expect(popup.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(popup.getByTestId('page-links-summary')).toHaveText('2 liens de partage sur cette page');
  await expect(popup.getByTestId('load-all')).toHaveText('Charger 2 instantanés (compte 2 vues)');
  await popup.getByTestId('load-all').click();
  await expect(popup.getByText('Tous les instantanés de cette page sont chargés.')).toBeVisible();
  await expect(popup.getByTestId('page-link-row').first()).toContainText(/Expiration du lien dans \d+ (jours|semaines)/);
});

for (const language of ['en', 'fr'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`popup: no serious accessibility violations (${language}, ${colorScheme}); screenshots`, async ({
      context,
      extensionId,
      server,
    }) => {
      const deals = await createDeals(server.baseUrl, ['Kobo Ledger Ltd', 'Sahel Pay SA', 'Naira Vault Ltd']);
      await serveDealPage(
        context,
        deals.map((deal) => deal.link.shareUrl),
      );
      const page = await openDealPage(context, 3);
      await page.locator('a').first().hover();
      await expect(page.locator('compliance-lens-badge').first()).toHaveAttribute('data-state', 'ready');
      await page.mouse.move(0, 0);

      const popup = await openPopup(context, extensionId, language);
      await popup.emulateMedia({ colorScheme });
      await expect(popup.locator('[data-testid="page-link-row"][data-state="ready"]')).toHaveCount(1);
      await expectNoSeriousViolations(popup);
      await popup.screenshot({ path: path.join(artifacts, `popup-${language}-${colorScheme}-list.png`), fullPage: true });

      await popup.getByTestId('page-link-row').first().click();
      await expect(popup.getByTestId('snapshot-card')).toBeVisible();
      await expectNoSeriousViolations(popup);
      await popup.screenshot({ path: path.join(artifacts, `popup-${language}-${colorScheme}-detail.png`), fullPage: true });

      await popup.getByRole('tab', { name: language === 'en' ? 'Preview my link' : 'Prévisualiser mon lien' }).click();
      await popup.getByRole('textbox').fill(deals[1]!.link.token);
      await expectNoSeriousViolations(popup);
      await popup
        .getByRole('button', { name: language === 'en' ? 'Preview (counts 1 view)' : 'Prévisualiser (compte 1 vue)' })
        .click();
      await expect(popup.getByTestId('preview-result').getByTestId('snapshot-card')).toBeVisible();
      await expectNoSeriousViolations(popup);
      await popup.screenshot({ path: path.join(artifacts, `popup-${language}-${colorScheme}-preview.png`), fullPage: true });
    });
  }
}

test('enabled sites: the background registers the annotator for them at runtime and unregisters it when none are left', async ({
  serviceWorker,
}) => {
  const registered = () =>
    serviceWorker.evaluate(async () =>
      (await chrome.scripting.getRegisteredContentScripts()).map(({ id, matches, js }) => ({ id, matches, js })),
    );
  const setSites = (sites: string[]) =>
    serviceWorker.evaluate(async (enabledSites) => {
      const stored = await chrome.storage.local.get(['settings']);
      const current: Record<string, unknown> =
        typeof stored.settings === 'object' && stored.settings !== null ? { ...stored.settings } : {};
      await chrome.storage.local.set({ settings: { ...current, enabledSites }, settings$: { v: 2 } });
    }, sites);

  await setSites(['crm.example.com', '*.deals.example.org']);
  await expect.poll(registered).toEqual([
    {
      id: 'annotator-enabled-sites',
      matches: ['*://*.deals.example.org/*', '*://crm.example.com/*'],
      js: ['content-scripts/annotator.js'],
    },
  ]);
  await setSites([]);
  await expect.poll(registered).toEqual([]);
});
