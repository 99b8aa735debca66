import { artifactPath } from './support/artifacts';
import { expectNoSeriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { OptionsPage } from './support/options';

test('adds a service: a validation error first, then a valid origin the extension can already reach', async ({
  context,
  extensionId,
}) => {
  const options = await OptionsPage.open(context, extensionId);
  await expect(options.page.getByRole('heading', { level: 1, name: 'Compliance Lens settings' })).toBeVisible();
  const { services, nameField: name, originField: origin } = options;
  await expect(services.getByText('Local dev server', { exact: true })).toBeVisible();

  await options.openAddForm();
  await expect(name).toBeFocused();
  await name.fill('Office dev server');
  await origin.fill('localhost:9999/share');
  await options.submitService();
  await expect(origin).toHaveAttribute('aria-invalid', 'true');
  await expect(origin).toBeFocused();
  await expect(services.getByText(/^Origin must be an http or https origin with no path/)).toBeVisible();

  // http://localhost/* is in host_permissions, so the browser grants it without a prompt.
  await origin.fill('http://localhost:9999/');
  await options.submitService();
  await expect(services.getByText('Added Office dev server.')).toBeVisible();
  const row = options.serviceRow('Office dev server');
  await expect(row.getByText('http://localhost:9999', { exact: true })).toBeVisible();
  await expect(row.getByText('Access allowed')).toBeVisible();

  expect(await options.storedSettingsJson()).toContain('http://localhost:9999');
});

test('a denied host permission leaves the service unsaved, with a clear message', async ({ context, extensionId }) => {
  const options = await OptionsPage.open(context, extensionId);
  await options.denyPermissionRequests();
  await options.addService('Comply', 'https://comply.example');
  await expect(options.services.getByRole('alert')).toContainText(
    'Access to https://comply.example was not allowed, so the service was not saved.',
  );
  await expect(options.serviceRow('https://comply.example')).toHaveCount(0);
  expect(await options.storedSettingsJson()).not.toContain('comply.example');
});

test('switching to French translates the page; clear cache reports what it removed', async ({ context, extensionId }) => {
  const options = await OptionsPage.open(context, extensionId);
  const { page } = options;
  await options.clearCache();
  await expect(page.getByText('Cleared 0 cached entries.')).toBeVisible();

  await options.switchLanguage('fr');
  await expect(page.getByRole('heading', { level: 1, name: 'Paramètres de Compliance Lens' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('heading', { name: 'Ce que Compliance Lens envoie et conserve' })).toBeVisible();
  await options.clearCache();
  await expect(page.getByText('0 entrée supprimée du cache.')).toBeVisible();
});

for (const language of ['en', 'fr'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`no serious accessibility violations (${language}, ${colorScheme}); screenshot`, async ({ context, extensionId }) => {
      const options = await OptionsPage.open(context, extensionId, {
        language,
        colorScheme,
        viewport: { width: 900, height: 900 },
      });
      const { page } = options;
      await expect(options.heading).toBeVisible();
      await expect(options.serviceRows.first()).toBeVisible();
      await expectNoSeriousViolations(page);
      // Open the add form with errors showing, so the screenshot covers the error states too.
      await options.openAddForm();
      await options.submitService();
      await expectNoSeriousViolations(page);
      await page.screenshot({ path: artifactPath(`options-${language}-${colorScheme}.png`), fullPage: true });
      // The first screen at full size, for checking detail.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: artifactPath(`options-${language}-${colorScheme}-top.png`) });
    });
  }
}

test('a new install warns about nothing it was not asked to reach, and says plainly what to add and how (issue #33 item 13)', async ({
  context,
  extensionId,
}) => {
  const options = await OptionsPage.open(context, extensionId);
  const { services } = options;
  await expect(options.serviceRow('Compliance Status')).toBeVisible();
  await expect(services.getByText(/^Access not allowed yet/)).toHaveCount(0);
  await expect(options.serviceRow('Compliance Status')).toContainText('Built in, not in use');
  await expect(services.getByTestId('services-start')).toContainText('Add the service your founders share links from');
  await expect(services.getByTestId('services-start')).toContainText('Add a service');
});
