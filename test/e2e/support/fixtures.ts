import { test as base, type BrowserContext, type Worker } from '@playwright/test';
import { launch } from '../../support/chromium';
import { resetRateLimits, startTestServer, type TestServer } from './server';

interface Fixtures {
  /** Clears the shared server's rate-limit state before each test (tests share 127.0.0.1). */
  freshRateLimits: void;
  context: BrowserContext;
  serviceWorker: Worker;
  extensionId: string;
}

interface WorkerFixtures {
  server: TestServer;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  server: [
    // eslint-disable-next-line no-empty-pattern
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
  // eslint-disable-next-line no-empty-pattern
  context: async ({}, use) => {
    const browser = await launch(true);
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
});

export const expect = test.expect;
