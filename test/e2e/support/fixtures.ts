import { test as base, chromium, type BrowserContext, type Worker } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from './server';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const extensionPath = path.join(repoRoot, '.output/chrome-mv3');

/** Debian's Chromium (Playwright cannot download browsers here). */
export const chromiumPath =
  process.env.CHROMIUM_PATH ??
  ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((candidate) => existsSync(candidate)) ??
  '/usr/bin/chromium';

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
      const response = await fetch(`${server.baseUrl}/api/dev/reset`, { method: 'POST' });
      if (!response.ok) throw new Error(`dev reset failed: ${response.status}`);
      await use();
    },
    { auto: true },
  ],
  // eslint-disable-next-line no-empty-pattern
  context: async ({}, use) => {
    if (!existsSync(path.join(extensionPath, 'manifest.json'))) {
      throw new Error(`No built extension at ${extensionPath}: run \`npm run build\` first.`);
    }
    const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'compliance-lens-e2e-'));
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath,
      headless: true,
      args: [
        `--disable-extensions-except=${extensionPath}`,
        `--load-extension=${extensionPath}`,
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    await use(context);
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
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
