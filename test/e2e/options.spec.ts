import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';

const artifacts = path.resolve(import.meta.dirname, '../artifacts');

async function openOptions(page: Page, extensionId: string, language: 'en' | 'fr' = 'en') {
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  // Start from a known language whatever the browser's own is (WXT's `local:language` item).
  await page.evaluate((value) => chrome.storage.local.set({ language: value }), language);
  await page.reload();
}

test.beforeAll(() => mkdirSync(artifacts, { recursive: true }));

test('adds a service: a validation error first, then a valid origin the extension can already reach', async ({
  page,
  extensionId,
}) => {
  await openOptions(page, extensionId);
  await expect(page.getByRole('heading', { level: 1, name: 'Compliance Lens settings' })).toBeVisible();
  const services = page.getByRole('region', { name: 'Compliance services' });
  await expect(services.getByText('Local dev server', { exact: true })).toBeVisible();

  await services.getByRole('button', { name: 'Add a service' }).click();
  const name = services.getByRole('textbox', { name: 'Name' });
  const origin = services.getByRole('textbox', { name: 'Origin' });
  await expect(name).toBeFocused();
  await name.fill('Office dev server');
  await origin.fill('localhost:9999/share');
  await services.getByRole('button', { name: 'Add service' }).click();
  await expect(origin).toHaveAttribute('aria-invalid', 'true');
  await expect(origin).toBeFocused();
  await expect(services.getByText(/^Origin must be an http or https origin with no path/)).toBeVisible();

  // http://localhost/* is in host_permissions, so the browser grants it without a prompt.
  await origin.fill('http://localhost:9999/');
  await services.getByRole('button', { name: 'Add service' }).click();
  await expect(services.getByText('Added Office dev server.')).toBeVisible();
  const row = services.getByTestId('service-row').filter({ hasText: 'Office dev server' });
  await expect(row.getByText('http://localhost:9999', { exact: true })).toBeVisible();
  await expect(row.getByText('Access allowed')).toBeVisible();

  const stored = await page.evaluate(() => chrome.storage.local.get('settings'));
  expect(JSON.stringify(stored)).toContain('http://localhost:9999');
});

test('a denied host permission leaves the service unsaved, with a clear message', async ({ page, extensionId }) => {
  await openOptions(page, extensionId);
  // Headless Chromium cannot answer the permission prompt; answer "Block" on the user's behalf.
  await page.evaluate(() => {
    chrome.permissions.request = () => Promise.resolve(false);
  });
  const services = page.getByRole('region', { name: 'Compliance services' });
  await services.getByRole('button', { name: 'Add a service' }).click();
  await services.getByRole('textbox', { name: 'Name' }).fill('Comply');
  await services.getByRole('textbox', { name: 'Origin' }).fill('https://comply.example');
  await services.getByRole('button', { name: 'Add service' }).click();
  await expect(services.getByRole('alert')).toContainText(
    'Access to https://comply.example was not allowed, so the service was not saved.',
  );
  await expect(services.getByTestId('service-row').filter({ hasText: 'https://comply.example' })).toHaveCount(0);
  const stored = await page.evaluate(() => chrome.storage.local.get('settings'));
  expect(JSON.stringify(stored)).not.toContain('comply.example');
});

test('switching to French translates the page; clear cache reports what it removed', async ({ page, extensionId }) => {
  await openOptions(page, extensionId);
  await page.getByRole('button', { name: 'Clear cache' }).click();
  await expect(page.getByText('Cleared 0 cached entries.')).toBeVisible();

  await page.getByRole('combobox', { name: 'Display language' }).selectOption('fr');
  await expect(page.getByRole('heading', { level: 1, name: 'Paramètres de Compliance Lens' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('heading', { name: 'Ce que Compliance Lens envoie et conserve' })).toBeVisible();
  await page.getByRole('button', { name: 'Vider le cache' }).click();
  await expect(page.getByText('0 entrée supprimée du cache.')).toBeVisible();
});

for (const language of ['en', 'fr'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`no serious accessibility violations (${language}, ${colorScheme}); screenshot`, async ({ page, extensionId }) => {
      await page.setViewportSize({ width: 900, height: 900 });
      await page.emulateMedia({ colorScheme });
      await openOptions(page, extensionId, language);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByTestId('service-row').first()).toBeVisible();
      await expectNoSeriousViolations(page);
      // Open the add form with errors showing, so the screenshot covers the error states too.
      const services = page.getByRole('region', { name: language === 'en' ? 'Compliance services' : 'Services de conformité' });
      await services.getByRole('button', { name: language === 'en' ? 'Add a service' : 'Ajouter un service' }).click();
      await services.getByRole('button', { name: language === 'en' ? 'Add service' : 'Ajouter le service' }).click();
      await expectNoSeriousViolations(page);
      await page.screenshot({ path: path.join(artifacts, `options-${language}-${colorScheme}.png`), fullPage: true });
      // The first screen at full size, for checking detail.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(artifacts, `options-${language}-${colorScheme}-top.png`) });
    });
  }
}
