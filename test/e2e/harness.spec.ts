import { expect, test } from './support/fixtures';

test('the built extension loads into Chromium with its background worker', async ({ serviceWorker, extensionId }) => {
  expect(extensionId).toMatch(/^[a-p]{32}$/);
  const manifest = await serviceWorker.evaluate(() => chrome.runtime.getManifest());
  expect(manifest.name).toBe('Compliance Lens');
  expect(manifest.manifest_version).toBe(3);
});
