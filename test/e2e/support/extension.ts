import { expect, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { z } from 'zod';
import { HOVER_FETCHES_KEY_PREFIX } from '../../../lib/background/cards/hover-allowance';
import { LAST_POLICY_STORAGE_KEY } from '../../../lib/core/storage-keys';
import { addServiceInExtension } from '../../support/test-service';

/** @webext-core/messaging's reply: the handler's result, or the error it threw. */
const wireReplySchema = z.object({ res: z.unknown().optional(), err: z.unknown().optional() });

/**
 * Adds the test server's origin (a random port) to the extension's configured services, the way the
 * options page would: through the versioned settings item in storage.local (`settings` + `settings$`
 * meta, lib/extension/settings.ts).
 */
/**
 * A new minute for every tab's gesture allowance (10 uncached fetches a minute, hover, click and key
 * alike): for tests that open more uncached cards than that for what the cards show, not for the limit.
 */
export async function startFreshMinute(serviceWorker: Worker): Promise<void> {
  await serviceWorker.evaluate(async (prefix) => {
    const stored = await chrome.storage.session.get(null);
    await chrome.storage.session.remove(Object.keys(stored).filter((key) => key.startsWith(prefix)));
  }, HOVER_FETCHES_KEY_PREFIX);
}

/**
 * Waits until the browser's first read of the administrator policy is done (seconds in Chromium, once
 * per session; a fresh profile's first card waits for it): for tests that time a card, as a browser
 * that ran before would not wait.
 */
export async function untilPolicyRead(serviceWorker: Worker): Promise<void> {
  await expect
    .poll(
      () =>
        serviceWorker.evaluate(async (key) => (await chrome.storage.local.get(key))[key] !== undefined, LAST_POLICY_STORAGE_KEY),
      { message: 'the first policy read', timeout: 20_000 },
    )
    .toBe(true);
}

/**
 * Stops the extension's service worker, as the browser does after half a minute idle: the next message
 * starts a new one, with only what was kept in storage. Resolves once it has stopped.
 */
export async function stopServiceWorker(context: BrowserContext): Promise<void> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const workers = async () =>
    (await cdp.send('Target.getTargets')).targetInfos.filter(
      (info) => info.type === 'service_worker' && info.url.startsWith('chrome-extension://'),
    );
  const [target] = await workers();
  if (!target) throw new Error('no service worker to stop');
  await cdp.send('Target.closeTarget', { targetId: target.targetId });
  await expect.poll(async () => (await workers()).length, { message: 'the service worker to stop' }).toBe(0);
  await page.close();
}

export async function configureTestService(serviceWorker: Worker, baseUrl: string): Promise<void> {
  const origin = new URL(baseUrl).origin;
  // One entry per server: a test may start its own (e.g. to move its clock).
  await serviceWorker.evaluate(addServiceInExtension, {
    id: `e2e-server-${new URL(origin).port}`,
    name: 'E2E test server',
    origin,
  });
}

export type Language = 'en' | 'fr';

export interface ExtensionPageOptions {
  /** Sets WXT's `local:language` item and reloads, so the page starts in a known language whatever the browser's. */
  language?: Language;
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
}

/** An extension page (popup.html, sidepanel.html, options.html) opened as a tab. */
export async function openExtensionPage(
  context: BrowserContext,
  extensionId: string,
  pathName = 'popup.html',
  options: ExtensionPageOptions = {},
): Promise<Page> {
  const tab = await context.newPage();
  if (options.colorScheme) await tab.emulateMedia({ colorScheme: options.colorScheme });
  if (options.viewport) await tab.setViewportSize(options.viewport);
  await tab.goto(`chrome-extension://${extensionId}/${pathName}`);
  if (options.language) {
    await tab.evaluate((value) => chrome.storage.local.set({ language: value }), options.language);
    await tab.reload();
  }
  return tab;
}

/** Sends one message of the typed protocol (lib/protocol) in @webext-core's wire format. */
export async function sendToBackground(page: Page, type: string, data: unknown): Promise<unknown> {
  const reply: unknown = await page.evaluate(
    ({ type, data }) => chrome.runtime.sendMessage({ id: Date.now(), type, data, timestamp: Date.now() }),
    { type, data },
  );
  const parsed = wireReplySchema.safeParse(reply);
  if (!parsed.success) throw new Error(`no reply to ${type}`);
  if (parsed.data.err) throw new Error(`${type} failed: ${JSON.stringify(parsed.data.err)}`);
  return parsed.data.res;
}

/**
 * Counts the background's `scripting.executeScript` calls that inject a file: each is the annotator
 * injected into one frame (the page-world reports and marks pass a function).
 */
export async function countInjections(serviceWorker: Worker): Promise<() => Promise<number>> {
  await serviceWorker.evaluate(() => {
    const counter = { injections: 0 };
    Object.assign(globalThis, { __annotatorInjections: counter });
    const original = chrome.scripting.executeScript.bind(chrome.scripting);
    Object.defineProperty(chrome.scripting, 'executeScript', {
      configurable: true,
      value: (...args: Parameters<typeof original>) => {
        if (args[0].files !== undefined) counter.injections += 1;
        return original(...args);
      },
    });
  });
  return () =>
    serviceWorker.evaluate(() => {
      const counter: unknown = Reflect.get(globalThis, '__annotatorInjections');
      return typeof counter === 'object' && counter !== null && 'injections' in counter ? Number(counter.injections) : -1;
    });
}
