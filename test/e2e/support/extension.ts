import type { BrowserContext, Page, Worker } from '@playwright/test';

/**
 * Adds the test server's origin (a random port) to the extension's configured services, the way the
 * options page would: through the versioned settings item in storage.local (`settings` + `settings$`
 * meta, lib/settings.ts).
 */
export async function configureTestService(serviceWorker: Worker, baseUrl: string): Promise<void> {
  const origin = new URL(baseUrl).origin;
  await serviceWorker.evaluate(async (serviceOrigin) => {
    const stored = await chrome.storage.local.get(['settings']);
    const current: Record<string, unknown> =
      typeof stored.settings === 'object' && stored.settings !== null ? { ...stored.settings } : {};
    const services = Array.isArray(current.services) ? current.services : [];
    current.services = [
      ...services,
      {
        // One entry per server: a test may start its own (e.g. to move its clock).
        id: `e2e-server-${new URL(serviceOrigin).port}`,
        name: 'E2E test server',
        origin: serviceOrigin,
        apiPathTemplate: '/api/v1/compliance-status/{token}',
        sharePathTemplates: ['/share/{token}'],
      },
    ];
    await chrome.storage.local.set({ settings: current, settings$: { v: 2 } });
  }, origin);
}

/** An extension page to talk to the background from, as the popup does. */
export async function openExtensionPage(context: BrowserContext, extensionId: string, page = 'popup.html'): Promise<Page> {
  const tab = await context.newPage();
  await tab.goto(`chrome-extension://${extensionId}/${page}`);
  return tab;
}

/** Sends one message of the typed protocol (lib/messaging/protocol.ts) in @webext-core's wire format. */
export async function sendToBackground(page: Page, type: string, data: unknown): Promise<unknown> {
  const reply = await page.evaluate(
    ({ type, data }) => chrome.runtime.sendMessage({ id: Date.now(), type, data, timestamp: Date.now() }),
    { type, data },
  );
  if (typeof reply !== 'object' || reply === null) throw new Error(`no reply to ${type}`);
  if ('err' in reply && reply.err) throw new Error(`${type} failed: ${JSON.stringify(reply.err)}`);
  return 'res' in reply ? reply.res : undefined;
}
