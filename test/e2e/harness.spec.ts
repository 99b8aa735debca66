import { snapshotResultSchema } from '../../lib/core/schemas/results';
import { expect, test } from './support/fixtures';
import { openExtensionPage, sendToBackground } from './support/extension';
import { createDeal } from './support/server';

test.use({ withTestService: true });

test('the built extension loads into Chromium with its background worker', async ({ serviceWorker, extensionId }) => {
  expect(extensionId).toMatch(/^[a-p]{32}$/);
  const manifest = await serviceWorker.evaluate(() => chrome.runtime.getManifest());
  expect(manifest.name).toBe('Compliance Lens');
  expect(manifest.manifest_version).toBe(3);
  // The hover card is the only web-accessible page, behind a per-session URL.
  expect(manifest.web_accessible_resources).toEqual([
    expect.objectContaining({ resources: ['card.html'], use_dynamic_url: true }),
  ]);
});

test('the background fetches a snapshot from the bundled server, once, and refresh costs one view', async ({
  context,
  extensionId,
  server,
  serviceOrigin,
}) => {
  const deal = await createDeal(server.baseUrl, 'Smoke Test Pay Ltd');
  const page = await openExtensionPage(context, extensionId);
  const request = { origin: serviceOrigin, token: deal.link.token };

  const first = snapshotResultSchema.parse(await sendToBackground(page, 'getSnapshot', request));
  expect(first.status).toBe('ready');
  if (first.status !== 'ready') return;
  expect(first.snapshot.company.name).toBe('Smoke Test Pay Ltd');
  expect(first.fromCache).toBe(false);
  expect(await deal.views()).toBe(1);

  const second = snapshotResultSchema.parse(await sendToBackground(page, 'getSnapshot', request));
  expect(second.status === 'ready' && second.fromCache).toBe(true);
  expect(await deal.views()).toBe(1);

  const refreshed = snapshotResultSchema.parse(await sendToBackground(page, 'refreshSnapshot', request));
  expect(refreshed.status === 'ready' && !refreshed.fromCache).toBe(true);
  expect(await deal.views()).toBe(2);
});

test('a look-alike origin is refused without any request', async ({ context, extensionId, server }) => {
  const page = await openExtensionPage(context, extensionId);
  const lookAlike = new URL(server.baseUrl);
  lookAlike.hostname = 'localhost.evil.test';
  const result = snapshotResultSchema.parse(
    await sendToBackground(page, 'getSnapshot', { origin: lookAlike.origin, token: 'A'.repeat(43) }),
  );
  expect(result.status === 'error' && result.code).toBe('FORBIDDEN_ORIGIN');
});
