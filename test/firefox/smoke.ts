/**
 * Firefox smoke test: the built Firefox MV3 extension (.output/firefox-mv3) in Debian's Firefox ESR,
 * headless, driven by puppeteer-core over WebDriver BiDi, against the bundled server.
 *
 *   node --import tsx test/firefox/smoke.ts        (or: bash scripts/test-firefox.sh)
 *
 * Needs `npx wxt build -b firefox --mv3` first (this script builds nothing) and `firefox-esr`
 * (`FIREFOX_PATH` overrides the binary). Prints one line per check, then
 * `firefox smoke: N passed, M failed`; exits 1 on any failure. Artifacts in test-results/firefox/:
 * screenshots, results.json, firefox.log (the browser's own output, including extension console
 * messages).
 *
 * How the pieces fit (each found by trying on Firefox ESR 153 with puppeteer-core 24.43.1):
 * - The extension is installed as a temporary add-on through BiDi `webExtension.install`
 *   (`browser.installExtension`). Its manifest `host_permissions` (loopback) are granted: content
 *   scripts run on http://127.0.0.1 without any extra pref.
 * - BiDi may not navigate a tab to a moz-extension:// URL, but it may evaluate script inside an
 *   extension page shown in an iframe. So the server's random origin is added to the extension's
 *   services the way the Chromium e2e tests do it (test/e2e/support/extension.ts), from `card.html`
 *   (web-accessible) framed in a loopback page. The extension's UUID is fixed by a pref so that
 *   URL is known in advance.
 * - Pages: the server's own /demo (seeded links, look-alikes) and a small mail-like page on another
 *   loopback port holding a link of a founder created here, whose view count the founder API reports.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Frame, type Page } from 'puppeteer-core';
import { FounderClient, startTestServer, type TestServer } from '../e2e/support/server';
import { escapeHtml } from '../support/html';
import { addServiceInExtension } from '../support/test-service';
import { waitLongerThanHoverDelay } from '../support/timing';
import { CARD_AHEAD_HASH } from '../../lib/protocol/guarded/card';
import { READING_PAGES, readingPageHtml, readingValues } from '../e2e/pages/reading-pages';
import { findClippedBadges, findCoveredCharacters } from '../e2e/support/reading';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const extensionPath = path.join(repoRoot, '.output/firefox-mv3');
const outDir = path.join(repoRoot, 'test-results/firefox');
const firefoxPath =
  process.env.FIREFOX_PATH ?? ['/usr/bin/firefox-esr', '/usr/bin/firefox'].find((candidate) => existsSync(candidate));

const EXTENSION_ID = 'compliance-lens@compliance-lens.dev';
/** Fixed through `extensions.webextensions.uuids`, so moz-extension://UUID/ is known before install. */
const EXTENSION_UUID = '0c6f3a52-8d1e-4b7a-9f25-6e4d2c1b0a93';
const EXTENSION_ORIGIN = `moz-extension://${EXTENSION_UUID}`;
/** The whole run must stay well under 3 minutes. */
const WATCHDOG_MS = 240_000;

// ---------------------------------------------------------------------------------------------
// A tiny runner: named checks in order, each timed; one summary line at the end.

interface Result {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}
const results: Result[] = [];

async function check(name: string, body: () => Promise<void>): Promise<void> {
  const started = Date.now();
  try {
    await body();
    results.push({ name, ok: true, ms: Date.now() - started });
    console.log(`  ✔ ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    results.push({ name, ok: false, ms: Date.now() - started, error: message });
    console.log(`  ✘ ${name} (${Date.now() - started} ms)\n    ${message.split('\n').join('\n    ')}`);
  }
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Polls `probe` every 100 ms until `accept` holds; the error names the last value seen. */
async function waitFor<T>(what: string, probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      if (accept(last)) return last;
    } catch (error) {
      lastError = error;
    }
    await new Promise<void>((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(last)}${lastError ? `; last error: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)}` : ''}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Fixture pages on their own loopback origin (the content script runs on http://127.0.0.1, any port).

function startFixtureServer(pages: Record<string, string>): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const body = pages[new URL(request.url ?? '/', 'http://x').pathname];
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

function mailPage(link: { shareUrl: string; apiUrl: string; token: string }): string {
  const service = new URL(link.shareUrl);
  const lookalike = `${service.protocol}//${service.hostname}.evil.test:${service.port}/share/${link.token}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Inbox: Kobo Ledger</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:32px;max-width:760px;color:#1f2937}
.msg{border:1px solid #d1d5db;border-radius:10px;padding:16px 20px}.link{font-family:monospace;font-size:14px;word-break:break-all}</style>
</head><body>
<h1>Re: Kobo Ledger, compliance snapshot</h1>
<div class="msg">
<p>Hi, here is our investor view:</p>
<p class="link"><a id="share" href="${escapeHtml(link.shareUrl)}">${escapeHtml(link.shareUrl)}</a></p>
<p>And the API address for your tools:</p>
<p class="link"><a id="api" href="${escapeHtml(link.apiUrl)}">${escapeHtml(link.apiUrl)}</a></p>
<p>Not ours (look-alike host):</p>
<p class="link"><a id="lookalike" href="${escapeHtml(lookalike)}">${escapeHtml(lookalike)}</a></p>
<p style="margin-top:360px">Regards, Kobo Ledger</p>
</div></body></html>`;
}

/**
 * A CRM-like page whose record sits in a frame with an address of its own (same origin), and a mail
 * body in a frame sandboxed without `allow-same-origin` (cut off from the page's origin: the card
 * page could not run inside it).
 */
function crmPage(sealedLink: { shareUrl: string }): string {
  const body = `<p style="font:16px system-ui;margin:24px">Forwarded: <a id="share" href="${escapeHtml(sealedLink.shareUrl)}">snapshot</a></p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Deals</title></head><body>
<h1>Deals</h1><iframe id="record" src="/record.html" style="width:640px;height:160px"></iframe>
<iframe id="sealed" sandbox="allow-scripts" srcdoc="${escapeHtml(body)}" style="width:640px;height:120px"></iframe></body></html>`;
}

/**
 * Issue #26 items 1 and 2, the attacks that need no browser check of their own: a share link and its
 * badge made nearly transparent over a decoy "Continue" button (`#jack`), and a transparent 150 × 150
 * frame filled with one share link (`#trap`); a visible link (`#plain`) and a visible mail body
 * (`#mail`) for the controls.
 */
function attackPage(links: { jack: string; trap: string; plain: string; body: string }): string {
  const fill = (href: string) =>
    escapeHtml(
      `<body style="margin:0"><a id="share" href="${href}" style="display:block;width:150px;height:150px">offer</a></body>`,
    );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Offers</title></head>
<body style="font:16px system-ui;margin:24px">
<p>Visible: <a id="plain" href="${escapeHtml(links.plain)}">snapshot</a></p>
<button id="decoy" style="position:absolute;left:180px;top:300px;width:160px;height:40px;z-index:1">Continue</button>
<div style="position:absolute;left:200px;top:310px;z-index:2;opacity:0.01"><a id="jack" href="${escapeHtml(links.jack)}">offer</a></div>
<iframe id="trap" srcdoc="${fill(links.trap)}" style="position:absolute;left:420px;top:260px;width:150px;height:150px;border:0;opacity:0"></iframe>
<iframe id="mail" srcdoc="${escapeHtml(`<p>Status: <a id="share" href="${links.body}">snapshot</a></p>`)}" style="position:absolute;left:24px;top:480px;width:400px;height:80px"></iframe>
</body></html>`;
}

/**
 * Issue #32's attack classes: links whose paint is invisible (transparent text, transparent fill) with
 * page CSS that tries to hide the badges (a transparent mask too), a link the page slides under a
 * still pointer, and a transparent link whose badge the test covers with a decoy; one visible link
 * beside them.
 */
function paintAttackPage(links: { ink: string; fill: string; slide: string; mask: string; clear: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Offers</title>
<style>compliance-lens-badge{opacity:0!important;visibility:hidden!important;mask-image:linear-gradient(transparent,transparent)!important}</style></head>
<body style="font:16px system-ui;margin:24px">
<p>Ink: <a id="ink" href="${escapeHtml(links.ink)}" style="color:transparent">special offer</a></p>
<p>Fill: <a id="fill" href="${escapeHtml(links.fill)}" style="-webkit-text-fill-color:transparent">special offer</a></p>
<a id="slide" href="${escapeHtml(links.slide)}" style="position:absolute;left:600px;top:420px;transition:top .3s">an offer that moves</a>
<a id="mask" href="${escapeHtml(links.mask)}" style="position:absolute;left:200px;top:130px;z-index:10;color:transparent">free trial</a>
<p style="margin-top:120px">Visible: <a id="clear" href="${escapeHtml(links.clear)}">snapshot</a></p>
</body></html>`;
}

/** A page that frames the card page itself: its URL is stable per install on Firefox. */
function framingPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Framer</title></head><body>
<iframe id="copy" src="${EXTENSION_ORIGIN}/card.html" style="width:360px;height:300px;opacity:0.01"></iframe></body></html>`;
}

function recordPage(link: { shareUrl: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kobo Ledger</title></head><body>
<p>Compliance status: <a id="share" href="${escapeHtml(link.shareUrl)}">snapshot</a></p></body></html>`;
}

const BLANK_PAGE = '<!doctype html><html><head><meta charset="utf-8"><title>setup</title></head><body></body></html>';

// ---------------------------------------------------------------------------------------------
// Browser helpers.

/**
 * Adds `serviceOrigin` to the extension's configured services (storage.local `settings`, version 2,
 * as test/e2e/support/extension.ts does in Chromium), from an extension page: card.html framed in a
 * loopback page. BiDi refuses to navigate a tab to moz-extension:// but evaluates inside such a frame.
 */
/** Runs `use` in an extension page (card.html, framed by the page at `setupUrl`): its storage is the extension's. */
async function inExtensionFrame(browser: Browser, setupUrl: string, use: (frame: Frame) => Promise<void>): Promise<void> {
  const page = await browser.newPage();
  try {
    await page.goto(setupUrl);
    await page.evaluate(
      (src) =>
        new Promise<void>((resolve, reject) => {
          const frame = document.createElement('iframe');
          frame.src = src;
          frame.onload = () => resolve();
          frame.onerror = () => reject(new Error(`could not frame ${src}`));
          document.body.append(frame);
        }),
      `${EXTENSION_ORIGIN}/card.html`,
    );
    const frame = await waitFor(
      'the framed extension page',
      async () => findExtensionFrame(page, '/card.html'),
      (found) => found !== null,
    );
    assert(frame, 'no extension frame');
    await use(frame);
  } finally {
    await page.close();
  }
}

async function configureService(browser: Browser, setupUrl: string, serviceOrigin: string): Promise<void> {
  await inExtensionFrame(browser, setupUrl, async (frame) => {
    await frame.evaluate(addServiceInExtension, {
      id: `ff-smoke-${new URL(serviceOrigin).port}`,
      name: 'Firefox smoke test server',
      origin: serviceOrigin,
    });
  });
}

/** The reader's language, as the options page sets it. */
async function setLanguage(browser: Browser, setupUrl: string, language: 'en' | 'fr'): Promise<void> {
  await inExtensionFrame(browser, setupUrl, async (frame) => {
    await frame.evaluate((value) => chrome.storage.local.set({ language: value }), language);
  });
}

async function findExtensionFrame(page: Page, pathname: string): Promise<Frame | null> {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const href = await frame.evaluate(() => location.href).catch(() => '');
    // A card page loaded ahead of intent (`#ahead`) shows no card until one is drawn in it.
    if (href.startsWith(`${EXTENSION_ORIGIN}${pathname}`) && !href.endsWith(CARD_AHEAD_HASH)) return frame;
  }
  return null;
}

/**
 * Where a link is: a selector (puppeteer's `>>>` goes through open shadow roots) in a frame of the
 * page, the top document unless `frame` names a subframe.
 */
interface LinkTarget {
  selector: string;
  frame?: Frame;
}

function at(target: string | LinkTarget): LinkTarget {
  return typeof target === 'string' ? { selector: target } : target;
}

async function linkHandle(page: Page, target: string | LinkTarget): Promise<ElementHandle<Element>> {
  const { selector, frame } = at(target);
  const handle = await (frame ?? page.mainFrame()).$(selector);
  if (!handle) throw new Error(`no element ${selector}`);
  return handle;
}

/** The badge element right after the link (in the same document or shadow root; null: none). */
async function badgeState(page: Page, target: string | LinkTarget) {
  const handle = await linkHandle(page, target);
  return handle.evaluate((anchor) => {
    const next = anchor.nextElementSibling;
    if (next?.localName !== 'compliance-lens-badge') return null;
    return { state: next.getAttribute('data-state'), errorCode: next.getAttribute('data-error-code') };
  });
}

/** Where a window's viewport starts on the screen (Firefox's `mozInnerScreenX/Y`), in CSS pixels. */
function screenOrigin(): { x: number; y: number; width: number; height: number } {
  const x: unknown = Reflect.get(window, 'mozInnerScreenX');
  const y: unknown = Reflect.get(window, 'mozInnerScreenY');
  if (typeof x !== 'number' || typeof y !== 'number') throw new Error('no mozInnerScreenX/Y (not Firefox?)');
  return { x, y, width: innerWidth, height: innerHeight };
}

/**
 * Moves the real (BiDi) pointer onto the link and leaves it there: hover intent once the hover
 * delay is over (callers wait for its outcome). Aims at the middle of the link's first line box
 * (a link that wraps onto two lines has a bounding box whose centre may be off the text), in the top
 * viewport's coordinates when the link is in a frame (from the two viewports' places on the screen,
 * which also holds for a frame whose parent is on another origin).
 */
async function restOn(page: Page, target: string | LinkTarget): Promise<void> {
  const handle = await linkHandle(page, target);
  const point = await handle.evaluate((el) => {
    el.scrollIntoView({ block: 'center' });
    const rect = el.getClientRects()[0];
    if (!rect) throw new Error('the link is not laid out');
    const x = rect.left + Math.min(rect.width / 2, 60);
    const y = rect.top + rect.height / 2;
    const root = el.getRootNode();
    const hit = root instanceof Document || root instanceof ShadowRoot ? root.elementFromPoint(x, y) : null;
    const onTarget = !!hit && (hit === el || el.contains(hit));
    return { x, y, onTarget, hit: hit ? hit.localName : null };
  });
  assert(point.onTarget, `${at(target).selector}: the point (${point.x}, ${point.y}) is on <${point.hit}>, not on the link`);
  const { frame } = at(target);
  const [inner, top] = frame ? await Promise.all([frame.evaluate(screenOrigin), page.evaluate(screenOrigin)]) : [null, null];
  const offset = inner && top ? { x: inner.x - top.x, y: inner.y - top.y } : { x: 0, y: 0 };
  await page.mouse.move(point.x + offset.x, point.y + offset.y, { steps: 4 });
}

/** Moves the pointer away (top-left corner) and waits for the open card to close. */
async function closeCardByLeaving(page: Page): Promise<void> {
  await page.mouse.move(3, 3, { steps: 2 });
  await waitFor(
    'card closed',
    () => cardState(page),
    (s) => s.hosts === 0 || !s.visible,
  );
}

/** Waits until the badge after the link is in `state`; returns it. */
function waitForBadge(page: Page, target: string | LinkTarget, state: 'idle' | 'ready' | 'error') {
  return waitFor(
    `${at(target).selector}: badge ${state}`,
    () => badgeState(page, target),
    (s) => s?.state === state,
  );
}

interface CardState {
  /** Card hosts showing a card (a host may also hold a hidden card page loaded ahead of intent: not counted). */
  hosts: number;
  visible: boolean;
  box: { x: number; y: number; width: number; height: number } | null;
}

/**
 * The card in the top document. Its iframe is in a closed shadow root, out of any selector's reach,
 * so the box comes from inside the card page: Firefox's `mozInnerScreenX/Y` of the card frame minus
 * the page's. Visible = the page hit-tests its middle to the card host (a `visibility: hidden`
 * frame, still waiting for its size, is not hit).
 */
async function cardState(page: Page): Promise<CardState> {
  const hosts = await page.$$eval('compliance-lens-card', (els) => els.length);
  const frame = hosts > 0 ? await findExtensionFrame(page, '/card.html') : null;
  if (!frame) return { hosts: 0, visible: false, box: null };
  const [card, top] = await Promise.all([frame.evaluate(screenOrigin), page.evaluate(screenOrigin)]);
  const box = { x: card.x - top.x, y: card.y - top.y, width: card.width, height: card.height };
  const visible = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.localName === 'compliance-lens-card', {
    x: box.x + box.width / 2,
    y: box.y + Math.min(box.height / 2, 40),
  });
  return { hosts, visible, box };
}

/** Waits until the card frame has stopped moving and resizing (two polls 100 ms apart agree), e.g. before a screenshot. */
async function waitForStableCard(page: Page): Promise<void> {
  let previous = '';
  await waitFor(
    'the card frame to stop moving',
    async () => {
      const state = await cardState(page);
      const key = JSON.stringify(state);
      const stable = key === previous;
      previous = key;
      return { stable, visible: state.visible };
    },
    (probe) => probe.stable && probe.visible,
  );
}

/** Text of the card's `data-testid` elements, read inside the extension frame. */
async function cardText(page: Page): Promise<Record<string, string>> {
  const frame = await findExtensionFrame(page, '/card.html');
  if (!frame) return {};
  return frame.evaluate(() => {
    const out: Record<string, string> = {};
    for (const el of document.querySelectorAll('[data-testid]')) {
      const id = el.getAttribute('data-testid') ?? '';
      if (!(id in out)) out[id] = (el.textContent ?? '').trim();
    }
    return out;
  });
}

/**
 * Rests on the link, then waits for its badge to be ready and its card to show a company, a readiness
 * score and the disclaimer; returns the card's text by test id.
 */
async function openCardByResting(page: Page, target: string | LinkTarget): Promise<Record<string, string>> {
  await restOn(page, target);
  await waitForBadge(page, target, 'ready');
  await waitFor(
    'card visible',
    () => cardState(page),
    (s) => s.hosts === 1 && s.visible,
  );
  return waitFor(
    'card content',
    () => cardText(page),
    (t) => !!t['company-name'] && !!t['disclaimer'] && !!t['readiness-score'],
  );
}

/** Lines of Firefox's output that report an uncaught error thrown by the extension's own code. */
function extensionErrors(output: string): string[] {
  return output
    .split('\n')
    .filter(
      (line) =>
        /^(JavaScript error|console\.error): .*moz-extension:\/\//.test(line) || /\[Compliance Lens\].*(error|fail)/i.test(line),
    );
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = Date.now();
  mkdirSync(outDir, { recursive: true });
  const watchdog = setTimeout(() => {
    console.log(`firefox smoke: watchdog: still running after ${WATCHDOG_MS / 1000} s, giving up`);
    console.log(`firefox smoke: ${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length + 1} failed`);
    process.exit(1);
  }, WATCHDOG_MS);
  watchdog.unref();

  if (!firefoxPath || !existsSync(firefoxPath)) {
    console.log('firefox smoke: no Firefox (apt-get install -y --no-install-recommends firefox-esr, or set FIREFOX_PATH)');
    return fail('Firefox is installed');
  }
  if (!existsSync(path.join(extensionPath, 'manifest.json'))) {
    console.log(`firefox smoke: no build at ${extensionPath}: run \`npx wxt build -b firefox --mv3\` first`);
    return fail('Firefox build exists');
  }

  let server: TestServer | undefined;
  let fixtures: Awaited<ReturnType<typeof startFixtureServer>> | undefined;
  let browser: Browser | undefined;
  const pageErrors: string[] = [];
  const log = createWriteStream(path.join(outDir, 'firefox.log'));
  let firefoxOutput = '';
  try {
    // Server and browser start in parallel: both take a few seconds.
    const serverReady = startTestServer(['--seed']);
    const browserReady = puppeteer.launch({
      browser: 'firefox',
      executablePath: firefoxPath,
      headless: true,
      defaultViewport: { width: 1280, height: 900 },
      extraPrefsFirefox: {
        'extensions.webextensions.uuids': JSON.stringify({ [EXTENSION_ID]: EXTENSION_UUID }),
        // Console output of pages, content scripts and the extension's background into firefox.log.
        'devtools.console.stdout.content': true,
        'devtools.console.stdout.chrome': true,
      },
    });
    const [serverResult, browserResult] = await Promise.allSettled([serverReady, browserReady]);
    // Keep whatever started, so `finally` stops it even when the other one failed.
    if (serverResult.status === 'fulfilled') server = serverResult.value;
    if (browserResult.status === 'fulfilled') browser = browserResult.value;
    if (serverResult.status === 'rejected') throw serverResult.reason;
    if (browserResult.status === 'rejected') throw browserResult.reason;
    if (!server || !browser) throw new Error('unreachable: server or browser missing');
    for (const stream of [browser.process()?.stdout, browser.process()?.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        firefoxOutput += chunk.toString();
        log.write(chunk);
      });
    }
    const version = await browser.version();
    console.log(`firefox smoke: ${version} (${firefoxPath}), server ${server.baseUrl}, setup ${Date.now() - started} ms`);
    const baseUrl = server.baseUrl;
    const serviceOrigin = new URL(baseUrl).origin;

    const founder = await FounderClient.signUp(baseUrl, 'Kobo Ledger Ltd');
    const link = await founder.createShareLink();
    const sealedFounder = await FounderClient.signUp(baseUrl, 'Sahel Pay');
    const sealedLink = await sealedFounder.createShareLink();
    const attackDeals = await Promise.all(
      ['Jack Co', 'Trap Co', 'Plain Co', 'Body Co'].map(async (name) => {
        const owner = await FounderClient.signUp(baseUrl, name);
        const shared = await owner.createShareLink();
        return { owner, shared, views: () => owner.viewCount(shared.id) };
      }),
    );
    const [jack, trap, plain, body] = attackDeals;
    if (!jack || !trap || !plain || !body) throw new Error('attack deals not created');
    const paintDeals = await Promise.all(
      ['Ink Co', 'Fill Co', 'Slide Co', 'Mask Co', 'Clear Co'].map(async (name) => {
        const owner = await FounderClient.signUp(baseUrl, name);
        const shared = await owner.createShareLink();
        return { shared, views: () => owner.viewCount(shared.id) };
      }),
    );
    const [ink, fill, slide, mask, clear] = paintDeals;
    if (!ink || !fill || !slide || !mask || !clear) throw new Error('paint attack deals not created');
    const reading = readingValues(serviceOrigin);
    fixtures = await startFixtureServer({
      '/blank.html': BLANK_PAGE,
      '/attacks.html': attackPage({
        jack: jack.shared.shareUrl,
        trap: trap.shared.shareUrl,
        plain: plain.shared.shareUrl,
        body: body.shared.shareUrl,
      }),
      '/framing.html': framingPage(),
      '/mail.html': mailPage(link),
      '/crm.html': crmPage(sealedLink),
      '/record.html': recordPage(link),
      '/paint-attacks.html': paintAttackPage({
        ink: ink.shared.shareUrl,
        fill: fill.shared.shareUrl,
        slide: slide.shared.shareUrl,
        mask: mask.shared.shareUrl,
        clear: clear.shared.shareUrl,
      }),
      ...Object.fromEntries(READING_PAGES.map(({ name }) => [`/${name}.html`, readingPageHtml(name, reading)])),
      // Dark copies: Firefox over WebDriver BiDi cannot emulate the colour scheme, so the pages' dark rules always apply.
      ...Object.fromEntries(
        READING_PAGES.map(({ name }) => [
          `/dark-${name}.html`,
          readingPageHtml(name, reading).replaceAll('@media (prefers-color-scheme: dark)', '@media all'),
        ]),
      ),
    });

    const b = browser;
    /** A new tab at `url`, whose page errors count against the run, for `use`; closed after. */
    const inNewTab = async (url: string, use: (tab: Page) => Promise<void>) => {
      const tab = await b.newPage();
      tab.on('pageerror', (error) => pageErrors.push(String(error)));
      try {
        await tab.goto(url);
        await use(tab);
      } finally {
        await tab.close();
      }
    };
    await check('installs as a temporary add-on (WebDriver BiDi webExtension.install)', async () => {
      const id = await b.installExtension(extensionPath);
      assert(id === EXTENSION_ID, `installed id ${id}, expected ${EXTENSION_ID}`);
    });

    await check('adds the test server to the configured services (storage.local from card.html)', async () => {
      await configureService(b, `${fixtures!.origin}/blank.html`, serviceOrigin);
    });

    const page = await b.newPage();
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(`console.error: ${message.text()}`);
    });

    await check('/demo: every share link gets a badge (idle), look-alikes none', async () => {
      await page.goto(`${baseUrl}/demo`);
      const expected = await page.$$eval('a[data-demo-state]:not([data-demo-state="lookalike"])', (a) => a.length);
      assert(expected >= 15, `demo page has only ${expected} share links (seeded?)`);
      await waitFor(
        `${expected} badges`,
        () => page.$$eval('compliance-lens-badge', (els) => els.length),
        (count) => count === expected,
      );
      const report = await page.evaluate(() => {
        const rows = [...document.querySelectorAll('a[data-demo-state]')].map((a) => {
          const next = a.nextElementSibling;
          const badge = next?.localName === 'compliance-lens-badge' ? next : null;
          return {
            state: a.getAttribute('data-demo-state'),
            form: a.getAttribute('data-demo-form'),
            badge: badge ? badge.getAttribute('data-state') : null,
          };
        });
        return rows;
      });
      const lookalikes = report.filter((row) => row.state === 'lookalike');
      assert(lookalikes.length >= 5, `only ${lookalikes.length} look-alikes on the demo page`);
      const annotatedLookalikes = lookalikes.filter((row) => row.badge !== null);
      assert(annotatedLookalikes.length === 0, `look-alikes annotated: ${JSON.stringify(annotatedLookalikes)}`);
      const wrong = report.filter((row) => row.state !== 'lookalike' && !['idle', 'ready'].includes(row.badge ?? ''));
      assert(wrong.length === 0, `share links without an idle/ready badge: ${JSON.stringify(wrong)}`);
      const forms = new Set(report.filter((row) => row.badge !== null).map((row) => row.form));
      for (const form of ['plain-share', 'plain-api', 'gmail', 'safelinks', 'proofpoint-v2', 'table']) {
        assert(forms.has(form), `no badge on the ${form} link`);
      }
    });

    await check(
      '/demo: resting on an active link loads it (badge ready) and opens the card with the disclaimer and the verified signature',
      async () => {
        const selector = 'a[data-demo-form="plain-share"]';
        const company = await page.evaluate((sel) => {
          const href = document.querySelector(sel)?.getAttribute('href');
          const row = [...document.querySelectorAll('a[data-demo-form="table"]')].find((a) => a.getAttribute('href') === href);
          return row?.closest('tr')?.querySelector('strong')?.textContent ?? null;
        }, selector);
        assert(company, 'could not find the company of the plain-share link in the deal table');
        const text = await openCardByResting(page, selector);
        assert(text['company-name'] === company, `card shows ${text['company-name']}, expected ${company}`);
        assert((text['disclaimer'] ?? '').length > 40, `disclaimer looks truncated: ${text['disclaimer']}`);
        // The server signs its answers; Firefox's background checked this one (Ed25519 in Web Crypto; issue #36).
        assert(/^Signed by .+ · verified$/.test(text['signature'] ?? ''), `signature line: ${text['signature']}`);
        await waitForStableCard(page);
        await page.screenshot({ path: path.join(outDir, 'demo-card.png') });
        await closeCardByLeaving(page);
      },
    );

    await check('/demo: revoked and expired links end in error badges (NOT_FOUND, EXPIRED)', async () => {
      for (const [state, code] of [
        ['revoked', 'NOT_FOUND'],
        ['expired', 'EXPIRED'],
      ] as const) {
        const selector = `a[data-demo-form="table"][data-demo-state="${state}"]`;
        await restOn(page, selector);
        const badge = await waitForBadge(page, selector, 'error');
        assert(badge?.errorCode === code, `${state}: data-error-code ${badge?.errorCode}, expected ${code}`);
        const text = await waitFor(
          'card error message',
          () => cardText(page),
          (t) => !!t['error-message'],
        );
        assert(text['error-message'], `${state}: no error message in the card`);
        await closeCardByLeaving(page);
      }
    });

    await check(
      '/demo: the link in the framed mail body and the one in the web component are badged; resting opens the card in the page',
      async () => {
        const frameElement = await page.$('iframe.mail-frame');
        const mailFrame = await frameElement?.contentFrame();
        assert(mailFrame, 'no iframe.mail-frame on the demo page');
        const framed = { selector: 'a[data-demo-form="frame"]', frame: mailFrame };
        const inComponent = 'deal-record >>> a[data-demo-form="shadow-root"]';
        for (const target of [framed, inComponent]) {
          await waitForBadge(page, target, 'idle');
          const text = await openCardByResting(page, target);
          assert((text['disclaimer'] ?? '').length > 40, `disclaimer looks truncated: ${text['disclaimer']}`);
          const card = await cardState(page);
          assert(card.hosts === 1, `${card.hosts} card hosts in the top document, expected 1`);
          await waitForStableCard(page);
          await page.screenshot({
            path: path.join(outDir, target === framed ? 'demo-frame-card.png' : 'demo-shadow-root-card.png'),
          });
          await closeCardByLeaving(page);
        }
        const framedHosts = await mailFrame.$$eval('compliance-lens-card', (els) => els.length);
        assert(framedHosts === 0, 'the framed link drew its card inside the frame, not in the page');
      },
    );

    await check('a record in a frame with an address of its own (same origin): its link is badged, at no view', async () => {
      await inNewTab(`${fixtures!.origin}/crm.html`, async (crm) => {
        const record = await (await crm.$('iframe#record'))?.contentFrame();
        assert(record, 'no record frame');
        await waitForBadge(crm, { selector: '#share', frame: record }, 'idle');
        assert((await founder.viewCount(link.id)) === 0, 'a view was counted for a badge');
      });
    });

    await check(
      'a mail body sandboxed without allow-same-origin: its link is badged; resting opens the card in the top document, at one view',
      async () => {
        await inNewTab(`${fixtures!.origin}/crm.html`, async (crm) => {
          const sealed = await (await crm.$('iframe#sealed'))?.contentFrame();
          assert(sealed, 'no sealed frame');
          const target = { selector: '#share', frame: sealed };
          await waitForBadge(crm, target, 'idle');
          assert((await sealedFounder.viewCount(sealedLink.id)) === 0, 'a view was counted for a badge');
          const text = await openCardByResting(crm, target);
          assert(text['company-name'] === 'Sahel Pay', `the card shows ${text['company-name']}`);
          assert((text['disclaimer'] ?? '').length > 40, `disclaimer looks truncated: ${text['disclaimer']}`);
          assert((await cardState(crm)).hosts === 1, 'no card in the top document');
          await waitForStableCard(crm);
          await crm.screenshot({ path: path.join(outDir, 'sealed-frame-card.png') });
          assert((await sealedFounder.viewCount(sealedLink.id)) === 1, 'resting did not cost exactly one view');
          await closeCardByLeaving(crm);
        });
      },
    );

    await check(
      'own link on another origin: pass-over costs nothing; rest = ready + card + exactly 1 view; cached after',
      async () => {
        await inNewTab(`${fixtures!.origin}/mail.html`, async (mail) => {
          await waitForBadge(mail, '#share', 'idle');
          await waitForBadge(mail, '#api', 'idle');
          assert((await badgeState(mail, '#lookalike')) === null, 'the look-alike got a badge');
          assert((await founder.viewCount(link.id)) === 0, 'a view was counted before any hover');

          // Pass over the link on the way somewhere else: no fetch.
          const box = await (await mail.$('#share'))!.boundingBox();
          assert(box, 'link not laid out');
          await mail.mouse.move(box.x - 20, box.y + box.height / 2);
          await mail.mouse.move(box.x + 40, box.y + box.height / 2, { steps: 2 });
          await mail.mouse.move(box.x + 40, box.y + 300, { steps: 2 });
          await waitLongerThanHoverDelay();
          assert((await founder.viewCount(link.id)) === 0, 'a pass-over counted a view');
          assert((await cardState(mail)).hosts === 0, 'a pass-over opened a card');

          const text = await openCardByResting(mail, '#share');
          assert(text['company-name'] === 'Kobo Ledger Ltd', `card shows ${text['company-name']}`);
          assert(text['readiness-score'] === '76', `readiness score ${text['readiness-score']}, expected 76`);
          await waitForStableCard(mail);
          await mail.screenshot({ path: path.join(outDir, 'card-open.png') });
          const views = await founder.viewCount(link.id);
          assert(views === 1, `view count ${views} after one hover, expected 1`);

          // The API link of the same token, and the share link again: cached, no new view.
          await closeCardByLeaving(mail);
          await openCardByResting(mail, '#api');
          // A cached hover may not fetch, now or after its delay.
          await waitLongerThanHoverDelay();
          const after = await founder.viewCount(link.id);
          assert(after === 1, `view count ${after} after a cached hover, expected still 1`);
        });
      },
    );

    await check(
      'issue #36: "Save a verifiable copy" from a signed card writes a copy without the share token that npm run verify checks against the service’s keys; no view',
      async () => {
        await inNewTab(`${fixtures!.origin}/mail.html`, async (mail) => {
          await waitForBadge(mail, '#share', 'ready'); // cached by the check above
          const views = await founder.viewCount(link.id);
          await openCardByResting(mail, '#share');
          const frame = await findExtensionFrame(mail, '/card.html');
          assert(frame, 'no card frame');
          await waitFor(
            'the signature line says verified',
            () => frame.evaluate(() => document.querySelector('[data-testid="signature"]')?.getAttribute('data-state') ?? ''),
            (state) => state === 'verified',
          );
          // The file the card saves is read where it is made (a headless browser has nowhere to put a download).
          await frame.evaluate(() => {
            const scope = window as unknown as { savedCopy?: Promise<string> };
            const make = URL.createObjectURL.bind(URL);
            URL.createObjectURL = (blob: Blob | MediaSource) => {
              if (blob instanceof Blob) scope.savedCopy = blob.text();
              return make(blob);
            };
            HTMLAnchorElement.prototype.click = () => undefined;
          });
          await frame.click('[data-testid="save-copy"]');
          const text = await waitFor(
            'the saved copy',
            () => frame.evaluate(() => (window as unknown as { savedCopy?: Promise<string> }).savedCopy ?? Promise.resolve('')),
            (saved) => saved.length > 0,
          );
          assert(!text.includes(link.token), 'the saved copy holds the share token');
          const dir = mkdtempSync(path.join(tmpdir(), 'lens-copy-firefox-'));
          try {
            const file = path.join(dir, 'copy.json');
            writeFileSync(file, text);
            const run = spawnSync('npx', ['tsx', 'scripts/verify.ts', file, '--jwks', serviceOrigin], {
              cwd: repoRoot,
              encoding: 'utf8',
              timeout: 60_000,
            });
            const line = `${run.stdout}${run.stderr}`.trim();
            assert(run.status === 0 && line.startsWith('verified'), `npm run verify: ${line}`);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
          const after = await founder.viewCount(link.id);
          assert(after === views, `saving a copy cost ${after - views} views`);
        });
      },
    );

    await check(
      'watchlist: watched from the card (no view); the founder changes the score; "Refresh all" costs exactly one view and records it',
      async () => {
        await inNewTab(`${fixtures!.origin}/mail.html`, async (mail) => {
          await waitForBadge(mail, '#share', 'ready');
          await openCardByResting(mail, '#share');
          const card = await waitFor(
            'the card frame with its watch toggle',
            async () => {
              const frame = await findExtensionFrame(mail, '/card.html');
              const busy = await frame?.evaluate(() =>
                document.querySelector('[data-testid="watch-toggle"]')?.getAttribute('aria-busy'),
              );
              return busy === 'false' ? frame : null;
            },
            (frame) => frame !== null,
          );
          assert(card, 'no card frame');
          await card.evaluate(() => document.querySelector<HTMLButtonElement>('[data-testid="watch-toggle"]')?.click());
          await waitFor(
            'watch toggle pressed',
            () => card.evaluate(() => document.querySelector('[data-testid="watch-toggle"]')?.getAttribute('aria-pressed')),
            (pressed) => pressed === 'true',
          );
          assert((await founder.viewCount(link.id)) === 1, 'watching counted a view');

          await founder.updateProfile({ readiness_score: 84 });
          // The card is an extension page: it speaks the pages protocol like the side panel does.
          const send = (type: string) =>
            card.evaluate(
              (messageType) =>
                chrome.runtime.sendMessage({ id: Date.now(), type: messageType, data: undefined, timestamp: Date.now() }),
              type,
            );
          const refreshed: unknown = await send('refreshAllWatches');
          assert(JSON.stringify(refreshed).includes('"refreshed":1'), `refreshAllWatches answered ${JSON.stringify(refreshed)}`);
          const views = await founder.viewCount(link.id);
          assert(views === 2, `view count ${views} after one "Refresh all", expected 2`);
          const listed = JSON.stringify(await send('listWatches'));
          assert(listed.includes('"readinessScore":84') && listed.includes('"pointCount":2'), `listWatches answered ${listed}`);
          await mail.screenshot({ path: path.join(outDir, 'card-watching.png') });
        });
      },
    );

    await check(
      'issue #26: a page that frames card.html itself (stable URL on Firefox) gets nothing to show, at no view',
      async () => {
        await inNewTab(`${fixtures!.origin}/framing.html`, async (framer) => {
          const copy = await waitFor(
            'the framed copy of the card page',
            async () => {
              const frame = await findExtensionFrame(framer, '/card.html');
              return (await frame?.$('[data-testid="error-message"]')) ? frame : null;
            },
            (frame) => frame !== null,
          );
          assert(copy, 'no framed copy');
          assert((await copy.$('[data-testid="company-name"]')) === null, 'the copy shows a company');
          await framer.mouse.click(100, 100);
          assert((await plain.views()) === 0, 'framing the card page cost a view');
        });
      },
    );

    await check(
      'issue #26 item 1: click-jacking a nearly transparent badge under a decoy costs no view; a click on a visible badge costs one',
      async () => {
        await inNewTab(`${fixtures!.origin}/attacks.html`, async (tab) => {
          await waitForBadge(tab, '#jack', 'idle');
          const badge = await (
            await linkHandle(tab, '#jack')
          ).evaluate((anchor) => {
            const rect = anchor.nextElementSibling?.getBoundingClientRect();
            return rect ? { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 } : null;
          });
          assert(badge, 'the transparent badge is not laid out');
          for (let press = 0; press < 4; press++) {
            await tab.mouse.click(badge.x, badge.y);
            await new Promise((resolve) => setTimeout(resolve, 700));
            await tab.evaluate(() => document.querySelector('compliance-lens-card')?.remove());
          }
          assert((await jack.views()) === 0, `the click-jacked badge cost ${await jack.views()} views`);
          const visible = await (
            await linkHandle(tab, '#plain')
          ).evaluate((anchor) => {
            const rect = anchor.nextElementSibling?.getBoundingClientRect();
            return rect ? { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 } : null;
          });
          assert(visible, 'the visible badge is not laid out');
          await tab.mouse.click(visible.x, visible.y);
          await waitForBadge(tab, '#plain', 'ready');
          assert((await plain.views()) === 1, `a click on a visible badge cost ${await plain.views()} views`);
          await tab.screenshot({ path: path.join(outDir, 'attack-click-jack.png') });
        });
      },
    );

    await check(
      'issue #26 item 2: resting on a link in a transparent frame costs no view; a link in a visible mail body costs one',
      async () => {
        await inNewTab(`${fixtures!.origin}/attacks.html`, async (tab) => {
          const trapFrame = await (await tab.$('iframe#trap'))?.contentFrame();
          const mailFrame = await (await tab.$('iframe#mail'))?.contentFrame();
          assert(trapFrame && mailFrame, 'frames missing');
          await waitForBadge(tab, { selector: '#share', frame: trapFrame }, 'idle');
          for (let rest = 0; rest < 4; rest++) {
            await tab.mouse.move(3, 3, { steps: 2 });
            await tab.mouse.move(480 + rest, 320, { steps: 2 });
            await new Promise((resolve) => setTimeout(resolve, 900));
          }
          assert((await trap.views()) === 0, `resting in the transparent frame cost ${await trap.views()} views`);
          await tab.mouse.move(3, 3, { steps: 2 });
          await waitForBadge(tab, { selector: '#share', frame: mailFrame }, 'idle');
          await restOn(tab, { selector: '#share', frame: mailFrame });
          await waitForBadge(tab, { selector: '#share', frame: mailFrame }, 'ready');
          assert((await body.views()) === 1, `resting on the visible mail body's link cost ${await body.views()} views`);
        });
      },
    );

    await check(
      'issue #32: the reading pages (a mail thread opened after load, a reading pane, a CRM table, a shared doc), EN light and FR dark: no word under a badge, every badge whole',
      async () => {
        for (const [language, scheme] of [
          ['en', 'light'],
          ['fr', 'dark'],
        ] as const) {
          await setLanguage(b, `${fixtures!.origin}/blank.html`, language);
          for (const page of READING_PAGES) {
            const tab = await b.newPage();
            tab.on('pageerror', (error) => pageErrors.push(String(error)));
            try {
              await tab.goto(`${fixtures!.origin}/${scheme === 'dark' ? 'dark-' : ''}${page.name}.html`);
              const drawn = await waitFor(
                `${page.name}: ${page.badges} badges drawn in the page's scheme`,
                () =>
                  tab.evaluate(
                    (value) => document.querySelectorAll(`compliance-lens-badge[data-scheme="${value}"]`).length,
                    scheme,
                  ),
                (count) => count === page.badges,
              );
              assert(drawn === page.badges, `${page.name}: ${drawn} badges drawn`);
              await new Promise((resolve) => setTimeout(resolve, 500));
              // tsx keeps function names with a `__name` helper, which the page does not have.
              await tab.evaluate('globalThis.__name ??= (target) => target');
              const covered = await tab.evaluate(findCoveredCharacters);
              assert(
                covered.length === 0,
                `${page.name} (${language}, ${scheme}): covered ${JSON.stringify(covered.slice(0, 5))}`,
              );
              const clipped = await tab.evaluate(findClippedBadges);
              assert(clipped.length === 0, `${page.name} (${language}, ${scheme}): badges not whole: ${clipped.join(', ')}`);
              await tab.screenshot({ path: path.join(outDir, `reading-${page.name}-${language}-${scheme}.png`) });
            } finally {
              await tab.close();
            }
          }
        }
        await setLanguage(b, `${fixtures!.origin}/blank.html`, 'en');
      },
    );

    await check(
      "issue #32: links painted invisible (transparent text or fill) under page CSS that hides and masks badges, a link slid under a still pointer, and clicks and a key on a transparent link's masked badge over a decoy cost no view; a rest on a visible link costs one",
      async () => {
        await inNewTab(`${fixtures!.origin}/paint-attacks.html`, async (tab) => {
          await waitForBadge(tab, '#clear', 'idle');
          for (const selector of ['#ink', '#fill']) {
            for (let rest = 0; rest < 3; rest++) {
              await restOn(tab, selector);
              await waitLongerThanHoverDelay();
              await closeCardByLeaving(tab); // the card offers Load (not seen); it closes when the pointer leaves
            }
          }
          // The pointer parks where the page then slides its link.
          await tab.mouse.move(3, 3, { steps: 2 });
          await tab.mouse.move(640, 200, { steps: 4 });
          await tab.evaluate(() => document.getElementById('slide')?.style.setProperty('top', '190px'));
          await new Promise((resolve) => setTimeout(resolve, 1500));
          // Click-jacking: a decoy "Continue" under the masked badge of a transparent link (the chip takes
          // its positioned link's z-index, so clicks land on the badge itself); then Enter on the badge.
          await waitForBadge(tab, '#mask', 'idle');
          const decoy = await (
            await linkHandle(tab, '#mask')
          ).evaluate((anchor) => {
            const rect = anchor.nextElementSibling?.getBoundingClientRect();
            if (!rect) return null;
            const button = document.createElement('button');
            button.textContent = 'Continue';
            button.style.cssText = `position:absolute;left:${rect.left + scrollX - 40}px;top:${rect.top + scrollY - 12}px;width:${rect.width + 80}px;height:${rect.height + 24}px;z-index:1;background:#2563eb;color:#fff;border:0`;
            document.body.append(button);
            return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
          });
          assert(decoy, 'the masked badge is not laid out');
          const hit = await tab.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.localName, decoy);
          assert(hit === 'compliance-lens-badge', `a click there reaches <${hit}>, not the badge`);
          for (let press = 0; press < 4; press++) {
            await tab.mouse.click(decoy.x, decoy.y);
            await new Promise((resolve) => setTimeout(resolve, 700));
          }
          await (await linkHandle(tab, '#mask')).focus();
          await tab.keyboard.press('Tab');
          await tab.keyboard.press('Enter');
          // The key reached the badge: its card opens, offering Load (the decoy covers the badge: not seen).
          const offered = await waitFor(
            'a card after Enter on the covered badge',
            () => cardState(tab),
            (state) => state.visible,
          );
          assert(offered.visible, 'Enter on the covered badge opened no card');
          await waitLongerThanHoverDelay();
          await tab.keyboard.press('Escape');
          const spent = await Promise.all([ink, fill, slide, mask].map((deal) => deal.views()));
          assert(
            spent.every((views) => views === 0),
            `the attacks cost views: ink, fill, slide, mask = ${spent.join(', ')}`,
          );
          await tab.mouse.move(3, 3, { steps: 2 });
          await restOn(tab, '#clear');
          await waitForBadge(tab, '#clear', 'ready');
          assert((await clear.views()) === 1, `a rest on the visible link cost ${await clear.views()} views`);
          await tab.screenshot({ path: path.join(outDir, 'attack-paint.png') });
        });
      },
    );

    await check('no errors in the test pages', async () => {
      assert(pageErrors.length === 0, pageErrors.join('\n'));
    });
  } catch (error) {
    // Setup failed (server, browser launch): one failed check says so.
    results.push({
      name: 'setup',
      ok: false,
      ms: Date.now() - started,
      error: String(error instanceof Error ? error.stack : error),
    });
    console.log(`  ✘ setup\n    ${String(error instanceof Error ? error.stack : error)}`);
  } finally {
    await browser?.close().catch(() => undefined);
    await fixtures?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    log.end();
    clearTimeout(watchdog);
  }

  if (browser) {
    await check('no uncaught errors from extension code (background, content script, card) in the browser log', async () => {
      const errors = extensionErrors(firefoxOutput);
      assert(errors.length === 0, `see test-results/firefox/firefox.log:\n${errors.join('\n')}`);
    });
  }

  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  writeFileSync(
    path.join(outDir, 'results.json'),
    JSON.stringify({ passed, failed, ms: Date.now() - started, results }, null, 2),
  );
  console.log(`firefox smoke: ${passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return failed === 0 ? 0 : 1;
}

function fail(name: string): number {
  results.push({ name, ok: false, ms: 0 });
  writeFileSync(path.join(outDir, 'results.json'), JSON.stringify({ passed: 0, failed: 1, results }, null, 2));
  console.log('firefox smoke: 0 passed, 1 failed');
  return 1;
}

process.exitCode = await main();
