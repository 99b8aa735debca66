import { test as base, type BrowserContext, type Worker } from '@playwright/test';
import { launch } from '../../support/chromium';
import { configureTestService } from './extension';
import { createDeal, resetRateLimits, startTestServer, type Deal, type TestServer } from './server';

/**
 * The e2e fixtures (the shape of wxt-dev/examples' playwright-e2e-testing): a persistent Chromium
 * context with the built extension per test, its background service worker and extension id, and one
 * bundled server per worker. Page objects for what the specs drive live next to this file.
 */

interface Options {
  /**
   * Adds the worker's server to the extension's configured services before the test
   * (`test.use({ withTestService: true })`); off, the extension has only its built-in services.
   */
  withTestService: boolean;
  /** Scrollbars take room as in a reader's browser (`test.use({ scrollbars: true })`); off, headless hides them. */
  scrollbars: boolean;
}

interface Fixtures {
  /** Clears the shared server's rate-limit state before each test (tests share 127.0.0.1). */
  freshRateLimits: void;
  /** Applies `withTestService`. */
  testService: void;
  context: BrowserContext;
  serviceWorker: Worker;
  extensionId: string;
  /** The server's origin, as the extension's settings and the snapshot requests name it. */
  serviceOrigin: string;
  /** 'Kobo Ledger Ltd' (GROWTH_PROFILE: readiness 76) with one share link, new for each test that asks. */
  deal: Deal;
}

interface WorkerFixtures {
  server: TestServer;
}

export const test = base.extend<Options & Fixtures, WorkerFixtures>({
  withTestService: [false, { option: true }],
  scrollbars: [false, { option: true }],
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructuring pattern even without dependencies
    async ({}, use) => {
      const server = await startTestServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  freshRateLimits: [
    async ({ server }, use) => {
      await resetRateLimits(server.baseUrl);
      await use();
    },
    { auto: true },
  ],
  testService: [
    async ({ withTestService, serviceWorker, server }, use) => {
      if (withTestService) await configureTestService(serviceWorker, server.baseUrl);
      await use();
    },
    { auto: true },
  ],
  context: async ({ scrollbars }, use) => {
    const browser = await launch(true, { scrollbars });
    await use(browser.context);
    await browser.close();
  },
  serviceWorker: async ({ context }, use) => {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    await use(worker);
  },
  extensionId: async ({ serviceWorker }, use) => {
    const id = new URL(serviceWorker.url()).host;
    await use(id);
  },
  serviceOrigin: async ({ server }, use) => {
    await use(new URL(server.baseUrl).origin);
  },
  deal: async ({ server }, use) => {
    await use(await createDeal(server.baseUrl, 'Kobo Ledger Ltd'));
  },
});

export const expect = test.expect;
