import { chromium, type BrowserContext } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The built extension; `CL_EXTENSION_PATH` points the benchmarks at another build (e.g. main's) to compare. */
export const extensionPath = process.env.CL_EXTENSION_PATH ?? path.join(repoRoot, '.output/chrome-mv3');

/** Debian's Chromium (Playwright cannot download browsers here). Shared by e2e fixtures and benchmarks. */
export const chromiumPath =
  process.env.CHROMIUM_PATH ??
  ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((candidate) => existsSync(candidate)) ??
  '/usr/bin/chromium';

const COMMON_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Keep timers and frames running at full rate in the headless tab.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  // Chromium's link-prediction metrics walk every anchor of a page in one task 200 ms after anchors
  // arrive (AnchorElementMetricsSender::MaybeUpdateMetrics: 90–120 ms on the 5,000-link page under
  // load). It is the browser's own work, present with or without the extension; left on, it lands in
  // the long-task measures meant for the extension's work whenever parsing ends before it runs.
  '--disable-features=NavigationPredictor',
];

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A persistent Chromium context, with the built extension loaded or without it (the baseline). */
export async function launch(
  withExtension: boolean,
  options: {
    viewport?: { width: number; height: number };
    extension?: string;
    /** Scrollbars drawn as a reader's browser draws them (headless hides them by default: they take no room). */
    scrollbars?: boolean;
    /** A profile kept between launches (a browser restart); the caller removes it. Default: a new one, removed on close. */
    userDataDir?: string;
  } = {},
): Promise<LaunchedBrowser> {
  const extension = options.extension ?? extensionPath;
  if (withExtension && !existsSync(path.join(extension, 'manifest.json'))) {
    throw new Error(`No built extension at ${extension}: run \`npx wxt build\` first.`);
  }
  const kept = options.userDataDir;
  const userDataDir = kept ?? mkdtempSync(path.join(os.tmpdir(), `compliance-lens-${withExtension ? 'ext' : 'base'}-`));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    ...(options.viewport ? { viewport: options.viewport } : {}),
    ...(options.scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
    args: withExtension
      ? [`--disable-extensions-except=${extension}`, `--load-extension=${extension}`, ...COMMON_ARGS]
      : ['--disable-extensions', ...COMMON_ARGS],
  });
  if (withExtension && context.serviceWorkers().length === 0) await context.waitForEvent('serviceworker');
  return {
    context,
    async close() {
      await context.close();
      if (!kept) rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
