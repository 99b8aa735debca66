import { waitLongerThanHoverDelay } from '../support/timing';
import { artifactPath } from './support/artifacts';
import { expectNoSeriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { restOn } from './support/pointer';
import { stopServiceWorker } from './support/extension';
import { addServiceInExtension } from '../support/test-service';
import { PopupPage } from './support/popup';
import { createDeals, startTestServer } from './support/server';
import { DealFlowPage } from './support/web-page';

/**
 * The popup end to end: the built extension in Chromium, the bundled server on a random port, a
 * deal-flow page on a loopback origin (where the annotator runs). The popup is opened as a tab; it
 * then lists the most recently used web tab (components/page-links/api.ts `resolveTargetTab`).
 */

test.use({ withTestService: true });

test('lists the page’s links without a view; "Load 2 snapshots" costs exactly 2 views; a cached one shows at once', async ({
  context,
  extensionId,
  server,
}) => {
  const [kobo, sahel, naira] = await createDeals(server.baseUrl, ['Kobo Ledger Ltd', 'Sahel Pay SA', 'Naira Vault Ltd']);
  if (!kobo || !sahel || !naira) throw new Error('deals not created');
  // Kobo's link twice (share and API form): one row.
  const deals = await DealFlowPage.openWith(context, [
    kobo.link.shareUrl,
    kobo.link.apiUrl,
    sahel.link.shareUrl,
    naira.link.apiUrl,
  ]);

  // Warm the cache for Naira the way an investor would: hover its badge (one view).
  await deals.warmCache(3);
  expect(await naira.views()).toBe(1);

  const popup = await PopupPage.open(context, extensionId);
  await expect(popup.rows).toHaveCount(3);
  await expect(popup.summary).toHaveText('3 share links on this page · 1 cached');
  await expect(popup.row('Naira Vault Ltd')).toHaveAttribute('data-state', 'ready');
  await expect(popup.listDisclaimer).toContainText('due diligence');
  await expect(popup.loadAll).toHaveText('Load 2 snapshots (counts 2 views)');
  // Listing fetches nothing, now or later.
  await waitLongerThanHoverDelay();
  expect(await kobo.views()).toBe(0);
  expect(await sahel.views()).toBe(0);
  expect(await naira.views()).toBe(1);

  await expect(deals.badges.nth(0)).toHaveAttribute('data-state', 'idle');
  // The worker stops after half a minute idle: the one the Load starts still knows the page's badges.
  await stopServiceWorker(context);
  await popup.loadAll.click();
  await expect(popup.row('Kobo Ledger Ltd')).toHaveAttribute('data-state', 'ready');
  await expect(popup.row('Sahel Pay SA')).toHaveAttribute('data-state', 'ready');
  // The page's badges follow what the popup loaded, both forms of Kobo's link, without a reload.
  for (const index of [0, 1, 2]) await expect(deals.badges.nth(index)).toHaveAttribute('data-state', 'ready');
  // Shown once every request of the load has been answered: the counts are final.
  await expect(popup.page.getByText('Every snapshot on this page is loaded.')).toBeVisible();
  expect(await kobo.views()).toBe(1);
  expect(await sahel.views()).toBe(1);
  expect(await naira.views()).toBe(1);

  // Selecting a link shows the full card; Refresh is one more view; back returns focus to the row.
  await popup.row('Sahel Pay SA').click();
  const { detail } = popup;
  await expect(detail.companyName).toHaveText('Sahel Pay SA');
  await expect(detail.readinessScore).toHaveText('76');
  await expect(detail.disclaimer).toBeVisible();
  await detail.refreshButton.click();
  await expect(detail.refreshButton).toBeEnabled();
  await expect.poll(() => sahel.views()).toBe(2);
  await popup.backToList();
  await expect(popup.row('Sahel Pay SA')).toBeFocused();
});

test('founder preview: API URL, share URL, wrapped URL and bare token (service picker) each show the card and cost one view; bad input none', async ({
  context,
  extensionId,
  server,
  serviceOrigin,
}) => {
  const [api, share, wrapped, token] = await createDeals(server.baseUrl, [
    'Api Form Ltd',
    'Share Form Ltd',
    'Wrapped Form Ltd',
    'Token Form Ltd',
  ]);
  if (!api || !share || !wrapped || !token) throw new Error('links not created');
  const popup = await PopupPage.open(context, extensionId);
  await popup.openPreviewTab();
  const { previewField: field, previewSubmit: submit, previewResult: result } = popup;
  await expect(popup.previewCost).toHaveText(/counts as one view/);

  // Typing or pasting fetches nothing.
  await field.fill(api.link.apiUrl);
  await expect(popup.previewDetected).toHaveText('Recognised: API link on E2E test server.');
  await waitLongerThanHoverDelay();
  expect(await api.views()).toBe(0);
  await submit.click();
  await expect(result.companyName).toHaveText('Api Form Ltd');
  await expect(result.disclaimer).toBeVisible();
  // The founder sees the verdict an investor will see (issue #36).
  await expect(result.card.getByTestId('signature')).toHaveAttribute('data-state', 'verified');
  expect(await api.views()).toBe(1);

  await field.fill(share.link.shareUrl);
  await field.press('Enter');
  await expect(result.companyName).toHaveText('Share Form Ltd');
  expect(await share.views()).toBe(1);

  await field.fill(`https://www.google.com/url?q=${encodeURIComponent(wrapped.link.shareUrl)}&sa=D&source=editors`);
  await expect(popup.previewDetected).toHaveText('Recognised: Share page on E2E test server.');
  await submit.click();
  await expect(result.companyName).toHaveText('Wrapped Form Ltd');
  expect(await wrapped.views()).toBe(1);

  await field.fill(token.link.token);
  await expect(popup.previewDetected).toHaveText('Recognised: a token. Choose its service below.');
  await popup.previewServiceSelect.selectOption({ label: `E2E test server (${serviceOrigin})` });
  await submit.click();
  await expect(result.companyName).toHaveText('Token Form Ltd');
  expect(await token.views()).toBe(1);

  await field.fill('https://evil.example/share/' + token.link.token);
  await submit.click();
  await expect(popup.alert).toHaveText(/not in your settings/);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toBeFocused();
  await expect(popup.previewOutcome).toHaveCount(0);
  // A refused link is not fetched from the configured service either, now or later.
  await waitLongerThanHoverDelay();
  expect(await token.views()).toBe(1);
});

test('a tab the extension cannot see: a designed state, and the settings button opens the options page', async ({
  context,
  extensionId,
}) => {
  // The only other tab is about:blank, whose address the browser does not even show the extension.
  const popup = await PopupPage.open(context, extensionId);
  await expect(popup.noAccess).toContainText('Compliance Lens can’t see this tab');
  await expect(await popup.openSettings()).toHaveURL(/options\.html/);
});

test('French: counts, plurals and dates follow the language', async ({ context, extensionId, server }) => {
  const deals = await createDeals(server.baseUrl, ['Kobo Ledger Ltd', 'Sahel Pay SA']);
  await DealFlowPage.openWith(
    context,
    deals.map((deal) => deal.link.shareUrl),
  );
  const popup = await PopupPage.open(context, extensionId, 'fr');
  await expect(popup.page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(popup.summary).toHaveText('2 liens de partage sur cette page');
  await expect(popup.loadAll).toHaveText('Charger 2 instantanés (compte 2 vues)');
  await popup.loadAll.click();
  await expect(popup.page.getByText('Tous les instantanés de cette page sont chargés.')).toBeVisible();
  await expect(popup.rows.first()).toContainText(/Expiration du lien dans \d+ (jours|semaines)/);
});

for (const language of ['en', 'fr'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`popup: no serious accessibility violations (${language}, ${colorScheme}); screenshots`, async ({
      context,
      extensionId,
      server,
    }) => {
      const deals = await createDeals(server.baseUrl, ['Kobo Ledger Ltd', 'Sahel Pay SA', 'Naira Vault Ltd']);
      const page = await DealFlowPage.openWith(
        context,
        deals.map((deal) => deal.link.shareUrl),
      );
      await page.warmCache(0);

      const popup = await PopupPage.open(context, extensionId, language);
      await popup.page.emulateMedia({ colorScheme });
      await expect(popup.readyRows).toHaveCount(1);
      await expectNoSeriousViolations(popup.page);
      await popup.page.screenshot({ path: artifactPath(`popup-${language}-${colorScheme}-list.png`), fullPage: true });

      await popup.rows.first().click();
      await expect(popup.detail.card).toBeVisible();
      await expectNoSeriousViolations(popup.page);
      await popup.page.screenshot({ path: artifactPath(`popup-${language}-${colorScheme}-detail.png`), fullPage: true });

      await popup.openPreviewTab();
      await popup.previewField.fill(deals[1]!.link.token);
      await expectNoSeriousViolations(popup.page);
      await popup.previewSubmit.click();
      await expect(popup.previewResult.card).toBeVisible();
      await expectNoSeriousViolations(popup.page);
      await popup.page.screenshot({ path: artifactPath(`popup-${language}-${colorScheme}-preview.png`), fullPage: true });
    });
  }
}

test("enabled sites: the background registers the annotator and the frame relay (top frame) and the sentinel (the page world of every subframe) for them at runtime, removes an earlier build's frame probe, and unregisters them when none are left", async ({
  serviceWorker,
}) => {
  const registered = () =>
    serviceWorker.evaluate(async () =>
      (await chrome.scripting.getRegisteredContentScripts()).map(({ id, matches, js, allFrames, world }) => ({
        id,
        matches,
        js,
        allFrames,
        world,
      })),
    );
  const setSites = (sites: string[]) =>
    serviceWorker.evaluate(async (enabledSites) => {
      const stored = await chrome.storage.local.get(['settings']);
      const current: Record<string, unknown> =
        typeof stored.settings === 'object' && stored.settings !== null ? { ...stored.settings } : {};
      await chrome.storage.local.set({ settings: { ...current, enabledSites }, settings$: { v: 2 } });
    }, sites);

  // What an earlier build registered, and the browser keeps across an update.
  await serviceWorker.evaluate(() =>
    chrome.scripting.registerContentScripts([
      { id: 'frame-probe-enabled-sites', matches: ['*://crm.example.com/*'], js: ['frame-sentinel.js'], allFrames: true },
    ]),
  );
  await setSites(['crm.example.com', '*.deals.example.org']);
  await expect.poll(registered).toEqual([
    {
      id: 'annotator-enabled-sites',
      matches: ['*://*.deals.example.org/*', '*://crm.example.com/*'],
      js: ['annotator.js'],
      allFrames: false,
      world: 'ISOLATED',
    },
    {
      id: 'frame-relay-enabled-sites',
      matches: ['*://*.deals.example.org/*', '*://crm.example.com/*'],
      js: ['frame-relay.js'],
      allFrames: false,
      world: 'ISOLATED',
    },
    {
      id: 'frame-sentinel-enabled-sites',
      matches: ['*://*.deals.example.org/*', '*://crm.example.com/*'],
      js: ['frame-sentinel.js'],
      allFrames: true,
      world: 'MAIN',
    },
  ]);
  await setSites([]);
  await expect.poll(registered).toEqual([]);
});

test('one link, two spellings: a token on a service and on its alias is one link, one fetch, one badge state and one row (issue #33 item 14)', async ({
  context,
  extensionId,
  serviceWorker,
}) => {
  // A server of its own, configured as the local server is: on 127.0.0.1, with localhost as its alias.
  const service = await startTestServer();
  try {
    const origin = new URL(service.baseUrl).origin;
    const alias = origin.replace('127.0.0.1', 'localhost');
    await serviceWorker.evaluate(addServiceInExtension, { id: 'aliased', name: 'Aliased server', origin, aliases: [alias] });
    const [kobo] = await createDeals(service.baseUrl, ['Kobo Ledger Ltd']);
    if (!kobo) throw new Error('no deal');
    const deals = await DealFlowPage.openWith(context, [
      { href: kobo.link.shareUrl, text: 'Data room A' },
      { href: kobo.link.shareUrl.replace(origin, alias), text: 'Data room B' },
    ]);
    await restOn(deals.links.nth(1));
    await expect((await deals.card.opened()).companyName).toHaveText('Kobo Ledger Ltd');
    // Both badges follow the one fetch, whichever spelling was rested on.
    for (const index of [0, 1]) await expect(deals.badges.nth(index)).toHaveAttribute('data-state', 'ready');
    expect(await kobo.views()).toBe(1);
    const popup = await PopupPage.open(context, extensionId);
    await expect(popup.rows).toHaveCount(1);
    await expect(popup.row('Kobo Ledger Ltd')).toHaveAttribute('data-state', 'ready');
  } finally {
    await service.stop();
  }
});
