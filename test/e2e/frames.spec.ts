import type { BrowserContext, Frame, FrameLocator, Locator, Page } from '@playwright/test';
import { escapeHtml } from '../support/html';
import { waitLongerThanHoverDelay } from '../support/timing';
import { DEALS_ORIGIN, PAGES_ORIGIN, serveHtml, servePages, UNCONFIGURED_ORIGIN } from './pages/serve';
import { artifactPath } from './support/artifacts';
import { countInjections } from './support/extension';
import { expect, test } from './support/fixtures';
import { PopupPage } from './support/popup';
import { createDeals, type Deal } from './support/server';
import { AnnotatedPage } from './support/web-page';
import { restOn } from './support/pointer';

/**
 * Links where mail clients and CRMs keep them: in a srcdoc frame, an about:blank frame the page writes
 * after load, a same-origin frame and a frame inside it, a frame in a scrolled box, a moved and scaled
 * frame, a frame of another origin the extension runs on, and one of an origin it does not run on
 * (test/e2e/pages/frames.html).
 */

test.use({ withTestService: true });

const NAMES = [
  'Kobo Ledger Ltd',
  'Sahel Pay',
  'Nairobi Rails',
  'Abuja Remit Ltd',
  'Zed Pay',
  'Scrolled Co',
  'Scaled Co',
] as const;

interface FramesPage {
  mail: AnnotatedPage;
  page: Page;
  deals: Record<(typeof NAMES)[number], Deal>;
  /** Every request of the context, and those of the extension's service worker. */
  requests: { all: string[]; worker: string[] };
}

async function openFramesPage(context: BrowserContext, baseUrl: string): Promise<FramesPage> {
  const list = await createDeals(baseUrl, NAMES);
  const deals = Object.fromEntries(list.map((deal) => [deal.name, deal])) as FramesPage['deals'];
  const url = (name: (typeof NAMES)[number]) => escapeHtml(deals[name].link.shareUrl);
  const values = {
    TOP_URL: url('Kobo Ledger Ltd'),
    SRCDOC_URL: url('Sahel Pay'),
    BLANK_URL: url('Nairobi Rails'),
    SAME_URL: url('Abuja Remit Ltd'),
    NESTED_URL: url('Zed Pay'),
    SCROLLED_URL: url('Scrolled Co'),
    TRANSFORMED_URL: url('Scaled Co'),
    CROSS_ORIGIN: UNCONFIGURED_ORIGIN,
    MATCHED_CROSS_ORIGIN: DEALS_ORIGIN,
  };
  await servePages(context, values);
  await servePages(context, values, UNCONFIGURED_ORIGIN);
  await servePages(context, values, DEALS_ORIGIN);
  const requests = { all: [] as string[], worker: [] as string[] };
  context.on('request', (request) => {
    requests.all.push(request.url());
    if (request.serviceWorker()) requests.worker.push(request.url());
  });
  const mail = await AnnotatedPage.open(context, `${PAGES_ORIGIN}/frames.html`, { viewport: { width: 1100, height: 800 } });
  return { mail, page: mail.page, deals, requests };
}

/** The badge right after `#linkId` in a frame. */
const badgeIn = (frame: FrameLocator | Page, linkId: string): Locator => frame.locator(`#${linkId} + compliance-lens-badge`);

async function expectCardNextTo(mail: AnnotatedPage, badge: Locator): Promise<void> {
  await mail.card.expectRevealed();
  const card = await mail.card.box();
  const at = await badge.boundingBox();
  if (!at) throw new Error('badge not laid out');
  // Below the badge (6 px gap), or above it when there is no room below, aligned with its left edge
  // unless that would run off the right of the window; where the card fits whole neither above nor
  // below, beside the link (issue #33 item 1), over the badge's height.
  const below = Math.abs(card.y - (at.y + at.height + 6)) <= 3;
  const above = Math.abs(card.y + card.height - (at.y - 6)) <= 3;
  const beside =
    (Math.abs(card.x - (at.x + at.width + 6)) <= 3 || card.x + card.width <= at.x) &&
    card.y <= at.y + at.height &&
    card.y + card.height >= at.y;
  expect(below || above || beside, JSON.stringify({ card, badge: at })).toBe(true);
  if (beside) return;
  expect(card.x).toBeLessThanOrEqual(at.x + 1);
  expect(card.x + card.width).toBeGreaterThanOrEqual(at.x + at.width - 1);
}

test('links in srcdoc, script-written, same-origin, nested and matched cross-origin frames get badges in their own documents; none on an unconfigured origin; nothing is fetched on load', async ({
  context,
  server,
}) => {
  const { page, deals, requests } = await openFramesPage(context, server.baseUrl);
  await expect(badgeIn(page, 'top')).toHaveAttribute('data-state', 'idle');
  await expect(badgeIn(page.frameLocator('#srcdoc'), 'in-srcdoc')).toHaveAttribute('data-state', 'idle');
  await expect(badgeIn(page.frameLocator('#srcdoc'), 'dup')).toHaveAttribute('data-state', 'idle');
  await expect(badgeIn(page.frameLocator('#blank'), 'in-blank')).toHaveAttribute('data-state', 'idle');
  await expect(badgeIn(page.frameLocator('#same'), 'in-same')).toHaveAttribute('data-state', 'idle');
  await expect(badgeIn(page.frameLocator('#same').frameLocator('#nested'), 'in-nested')).toHaveAttribute('data-state', 'idle');
  // The badge is the next tab stop after its link, in the frame's own document.
  await expect(page.frameLocator('#srcdoc').locator('compliance-lens-badge')).toHaveCount(2);

  // A cross-origin frame of a matched site runs its own content script.
  await expect(badgeIn(page.frameLocator('#matched-cross'), 'in-cross')).toHaveAttribute('data-state', 'idle');

  // The cross-origin frame: its site is not matched, so no content script runs there at all.
  const cross = page.frameLocator('#cross');
  await expect(cross.locator('#in-cross')).toBeVisible();
  await waitLongerThanHoverDelay();
  await expect(cross.locator('compliance-lens-badge')).toHaveCount(0);

  for (const deal of Object.values(deals)) expect(await deal.views()).toBe(0);
  expect(requests.worker).toEqual([]);
  await page.screenshot({ path: artifactPath('frames-badges.png'), fullPage: true });
});

test('hover in a frame: one card, in the top document next to the link (nested, scrolled, moved and scaled frames); one view; cached across frames', async ({
  context,
  server,
}) => {
  const { mail, page, deals } = await openFramesPage(context, server.baseUrl);
  const srcdoc = page.frameLocator('#srcdoc');
  await expect(badgeIn(srcdoc, 'in-srcdoc')).toHaveAttribute('data-state', 'idle');

  // srcdoc frame
  await restOn(srcdoc.locator('#in-srcdoc'));
  await expect((await mail.card.opened()).companyName).toHaveText('Sahel Pay');
  await expect(mail.card.host).toHaveCount(1); // in the top document
  await expectCardNextTo(mail, badgeIn(srcdoc, 'in-srcdoc'));
  await expect(badgeIn(srcdoc, 'in-srcdoc')).toHaveAttribute('data-state', 'ready');
  expect(await deals['Sahel Pay'].views()).toBe(1);
  await mail.closeCardByLeaving();

  // Two levels down.
  const nested = page.frameLocator('#same').frameLocator('#nested');
  await restOn(nested.locator('#in-nested'));
  await expect((await mail.card.opened()).companyName).toHaveText('Zed Pay');
  await expectCardNextTo(mail, badgeIn(nested, 'in-nested'));
  await mail.closeCardByLeaving();

  // A frame in a scrolled box, then the box scrolled while the card is open: the card follows.
  await page.locator('#scroller').evaluate((box) => (box.scrollTop = 150));
  const scrolled = page.frameLocator('#scrolled');
  await restOn(scrolled.locator('#in-scrolled'));
  await expect((await mail.card.opened()).companyName).toHaveText('Scrolled Co');
  await expectCardNextTo(mail, badgeIn(scrolled, 'in-scrolled'));
  await page.mouse.move(900, 100); // off the link, within the close delay: scroll the box under it
  await page.locator('#scroller').evaluate((box) => (box.scrollTop = 120));
  await restOn(scrolled.locator('#in-scrolled'));
  await expectCardNextTo(mail, badgeIn(scrolled, 'in-scrolled'));
  await mail.closeCardByLeaving();

  // A moved and scaled frame. Chromium's own visibility check does not vouch for a scaled frame, so
  // the card offers Load instead of fetching (docs/security.md): a click on it is the visible gesture.
  const scaled = page.frameLocator('#transformed');
  await restOn(scaled.locator('#in-transformed'));
  const scaledCard = await mail.card.frame();
  await scaledCard.getByRole('button', { name: 'Load snapshot' }).click();
  await expect((await mail.card.opened()).companyName).toHaveText('Scaled Co');
  await expectCardNextTo(mail, badgeIn(scaled, 'in-transformed'));
  await page.screenshot({ path: artifactPath('frames-card-scaled.png') });
  await mail.closeCardByLeaving();

  // The same link in the top page and in a frame: fetched once, the other hover is served from the
  // cache; the top page's badge of it shows the snapshot as soon as the frame's fetch is done.
  await expect(badgeIn(page, 'top')).toHaveAttribute('data-state', 'idle');
  await restOn(srcdoc.locator('#dup'));
  await expect((await mail.card.opened()).companyName).toHaveText('Kobo Ledger Ltd');
  await expect(badgeIn(page, 'top')).toHaveAttribute('data-state', 'ready');
  await mail.closeCardByLeaving();
  await mail.restOn('top');
  await expect((await mail.card.opened()).companyName).toHaveText('Kobo Ledger Ltd');
  await mail.closeCardByLeaving();

  // A frame of another origin, 60 px tall: the top frame draws its card, next to the link, uncut.
  const matchedCross = page.frameLocator('#matched-cross');
  await restOn(matchedCross.locator('#in-cross'));
  await expect((await mail.card.opened()).companyName).toHaveText('Kobo Ledger Ltd');
  await expect(mail.card.host).toHaveCount(1);
  await expectCardNextTo(mail, badgeIn(matchedCross, 'in-cross'));
  expect((await mail.card.box()).height).toBeGreaterThan(160);
  await page.screenshot({ path: artifactPath('frames-card-cross-origin.png') });
  await mail.closeCardByLeaving();
  expect(await deals['Kobo Ledger Ltd'].views()).toBe(1);
  expect(await deals['Sahel Pay'].views()).toBe(1);
});

test('one card per tab: a card opened from another frame replaces the first', async ({ context, server }) => {
  const { mail, page } = await openFramesPage(context, server.baseUrl);
  const same = page.frameLocator('#same');
  await expect(badgeIn(same, 'in-same')).toHaveAttribute('data-state', 'idle');
  // Opened by keyboard (stays open when the pointer moves on), then a hover in another frame, on a
  // link above it that the card does not cover (a covered link is not seen: no fetch).
  await same.locator('#in-same').focus();
  await page.keyboard.press('Tab'); // to its badge
  await page.keyboard.press('Enter');
  await expect((await mail.card.opened()).companyName).toHaveText('Abuja Remit Ltd');
  await restOn(page.frameLocator('#srcdoc').locator('#in-srcdoc'));
  // The first card's frame may go while it is read: that read counts as "not yet".
  await expect
    .poll(async () => (await mail.card.opened()).companyName.textContent({ timeout: 1_000 }).catch(() => null))
    .toBe('Sahel Pay');
  await expect(mail.card.host).toHaveCount(1);
});

test('keyboard in a frame: Tab to the link, Tab to its badge, Enter opens the card, Escape closes it and focus returns to the badge', async ({
  context,
  server,
}) => {
  const { mail, page, deals } = await openFramesPage(context, server.baseUrl);
  const same = page.frameLocator('#same');
  await expect(badgeIn(same, 'in-same')).toHaveAttribute('data-state', 'idle');
  await same.locator('#in-same').focus();
  await page.keyboard.press('Tab');
  const sameFrame = page.frames().find((frame) => frame.url().endsWith('/frame-child.html'));
  if (!sameFrame) throw new Error('no same-origin frame');
  const focused = (frame: Frame) =>
    frame.evaluate(() => {
      const active = document.activeElement;
      return active?.localName === 'compliance-lens-badge'
        ? `badge-after:${active.previousElementSibling?.id ?? ''}`
        : (active?.id ?? '');
    });
  expect(await focused(sameFrame)).toBe('badge-after:in-same');
  await page.keyboard.press('Enter');
  await expect((await mail.card.opened()).companyName).toHaveText('Abuja Remit Ltd');
  expect(await deals['Abuja Remit Ltd'].views()).toBe(1);
  await page.keyboard.press('Escape');
  await mail.card.expectClosed();
  await expect.poll(() => focused(sameFrame)).toBe('badge-after:in-same');
});

test('the popup lists the links of every frame of the tab, once each, without fetching', async ({
  context,
  server,
  extensionId,
}) => {
  const { page, deals } = await openFramesPage(context, server.baseUrl);
  await expect(badgeIn(page.frameLocator('#blank'), 'in-blank')).toHaveAttribute('data-state', 'idle');
  await expect(badgeIn(page.frameLocator('#same').frameLocator('#nested'), 'in-nested')).toHaveAttribute('data-state', 'idle');
  const popup = await PopupPage.open(context, extensionId);
  // Seven distinct links (the Kobo link is in the top page and in a frame: one row); the cross-origin
  // frame's copy is not seen. The frames still report theirs as the popup opens (polled by the rows'
  // words, so a failure names the rows there are).
  await expect.poll(() => popup.rows.allInnerTexts()).toHaveLength(NAMES.length);
  for (const deal of Object.values(deals)) expect(await deal.views()).toBe(0);
});

test('browser zoom: a card for a link in a frame still sits next to it', async ({ context, server, serviceWorker }) => {
  const { mail, page } = await openFramesPage(context, server.baseUrl);
  const srcdoc = page.frameLocator('#srcdoc');
  await expect(badgeIn(srcdoc, 'in-srcdoc')).toHaveAttribute('data-state', 'idle');
  await serviceWorker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    if (tab?.id !== undefined) await chrome.tabs.setZoom(tab.id, 1.5);
  }, `${PAGES_ORIGIN}/frames.html`);
  await expect.poll(() => page.evaluate(() => window.devicePixelRatio)).toBeGreaterThan(1.4);
  await restOn(srcdoc.locator('#in-srcdoc'));
  await expect((await mail.card.opened()).companyName).toHaveText('Sahel Pay');
  await expectCardNextTo(mail, badgeIn(srcdoc, 'in-srcdoc'));
});

/** The names of the frames of `page` that hold an execution context of the extension (an isolated world). */
async function framesWithExtensionWorld(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const worlds: { origin: string; frameId: unknown }[] = [];
  cdp.on('Runtime.executionContextCreated', ({ context }) => {
    const frameId: unknown = context.auxData?.['frameId'];
    worlds.push({ origin: context.origin, frameId });
  });
  // Enabling reports every context that exists already.
  await cdp.send('Runtime.enable');
  const { frameTree } = await cdp.send('Page.getFrameTree');
  await cdp.detach();
  const names = new Map<string, string>();
  const walk = (tree: typeof frameTree, top: boolean): void => {
    names.set(tree.frame.id, top ? '(top)' : (tree.frame.name ?? '?'));
    for (const child of tree.childFrames ?? []) walk(child, false);
  };
  walk(frameTree, true);
  const named = worlds
    .filter((world) => world.origin.startsWith('chrome-extension://') && typeof world.frameId === 'string')
    .map((world) => names.get(String(world.frameId)) ?? '?');
  return [...new Set(named)].sort();
}

test('a frame of ordinary links (srcdoc or an address of its own) gets no annotator until a share link appears in it (added, or an href changed)', async ({
  context,
  server,
  serviceWorker,
}) => {
  const deals = await createDeals(server.baseUrl, [
    'Kobo Ledger Ltd',
    'Sahel Pay',
    'Zed Pay',
    'Nairobi Rails',
    'Abuja Remit Ltd',
  ]);
  const [first, added, changed, byUrl, addedByUrl] = deals;
  if (!first || !added || !changed || !byUrl || !addedByUrl) throw new Error('deals not created');
  const injections = await countInjections(serviceWorker);
  const ordinary =
    "<a href='https://example.org/news'>news</a> · <a href='/settings'>settings</a> · <a href='https://comply.test/x'>elsewhere</a>";
  const frame = (id: string, body: string) =>
    `<iframe id="${id}" name="${id}" style="width:560px;height:60px" srcdoc="${escapeHtml(`<p>${body}</p>`)}"></iframe>`;
  // The same bodies at addresses of their own, as a CRM's record frames and a mail client's hidden frames have.
  const urlBodies = {
    'url-share': `Status: <a id='share' href='${byUrl.link.shareUrl}'>snapshot</a>`,
    'url-plain': ordinary,
    'url-empty': 'A frame without links.',
  };
  for (const [id, body] of Object.entries(urlBodies))
    await serveHtml(context, `${PAGES_ORIGIN}/${id}.html`, `<!doctype html><title>${id}</title><p>${body}</p>`);
  const urlFrames = Object.keys(urlBodies)
    .map((id) => `<iframe id="${id}" name="${id}" style="width:560px;height:60px" src="/${id}.html"></iframe>`)
    .join('');
  await serveHtml(
    context,
    `${PAGES_ORIGIN}/ordinary-frames.html`,
    `<!doctype html><html lang="en"><title>Ordinary frames</title><body>
        ${frame('with-share', `Status: <a id='share' href='${first.link.shareUrl}'>snapshot</a>`)}
        ${frame('plain', ordinary)}
        ${frame('to-change', `${ordinary} · <a id='later' href='https://example.org/later'>later</a>`)}
        ${frame('empty', 'A frame without links.')}
        ${urlFrames}
      </body></html>`,
  );
  const mail = await AnnotatedPage.open(context, `${PAGES_ORIGIN}/ordinary-frames.html`);
  const { page } = mail;
  // The frames with a share link get the annotator: the count sees injections.
  await expect(badgeIn(page.frameLocator('#with-share'), 'share')).toHaveAttribute('data-state', 'idle');
  await expect(badgeIn(page.frameLocator('#url-share'), 'share')).toHaveAttribute('data-state', 'idle');
  await waitLongerThanHoverDelay();
  expect(await injections()).toBe(2);
  // Only the top frame and those frames hold an isolated world of the extension: the others have just
  // the sentinel, in their own world.
  expect(await framesWithExtensionWorld(page)).toEqual(['(top)', 'url-share', 'with-share']);

  const plain = await (await page.$('#plain'))?.contentFrame();
  const toChange = await (await page.$('#to-change'))?.contentFrame();
  const urlPlain = await (await page.$('#url-plain'))?.contentFrame();
  if (!plain || !toChange || !urlPlain) throw new Error('frames not found');

  await plain.evaluate(
    (url) => document.body.insertAdjacentHTML('beforeend', `<p><a id="added" href="${url}">Sahel Pay</a></p>`),
    added.link.shareUrl,
  );
  await expect(badgeIn(page.frameLocator('#plain'), 'added')).toHaveAttribute('data-state', 'idle');
  expect(await injections()).toBe(3);

  await toChange.evaluate((url) => document.getElementById('later')?.setAttribute('href', url), changed.link.shareUrl);
  await expect(badgeIn(page.frameLocator('#to-change'), 'later')).toHaveAttribute('data-state', 'idle');
  expect(await injections()).toBe(4);

  await urlPlain.evaluate(
    (url) => document.body.insertAdjacentHTML('beforeend', `<p><a id="added" href="${url}">Abuja Remit</a></p>`),
    addedByUrl.link.shareUrl,
  );
  await expect(badgeIn(page.frameLocator('#url-plain'), 'added')).toHaveAttribute('data-state', 'idle');
  expect(await injections()).toBe(5);
  expect(await framesWithExtensionWorld(page)).toEqual(['(top)', 'plain', 'to-change', 'url-plain', 'url-share', 'with-share']);
  for (const deal of deals) expect(await deal.views()).toBe(0);
});

test('a frame of a matched site inside a page the extension does not run on: nothing runs in it, nothing is fetched (the user enables the outer site to have it)', async ({
  context,
  server,
}) => {
  const [deal] = await createDeals(server.baseUrl, ['Kobo Ledger Ltd']);
  if (!deal) throw new Error('deal not created');
  await serveHtml(
    context,
    `${PAGES_ORIGIN}/embedded-status.html`,
    `<!doctype html><title>Embedded</title><p>Status: <a id="share" href="${escapeHtml(deal.link.shareUrl)}">snapshot</a></p>`,
  );
  await serveHtml(
    context,
    `${UNCONFIGURED_ORIGIN}/portal.html`,
    `<!doctype html><title>Portal</title><h1>Portal</h1>
        <iframe id="embedded" name="embedded" src="${PAGES_ORIGIN}/embedded-status.html"></iframe>`,
  );
  const page = await context.newPage();
  await page.goto(`${UNCONFIGURED_ORIGIN}/portal.html`);
  await expect(page.frameLocator('#embedded').locator('#share')).toBeVisible();
  await waitLongerThanHoverDelay();
  await expect(page.frameLocator('#embedded').locator('compliance-lens-badge')).toHaveCount(0);
  expect(await framesWithExtensionWorld(page)).toEqual([]);
  expect(await deal.views()).toBe(0);
});

test('sandboxed mail bodies: frames without scripts (same-origin or not) are badged too, one added after load as well; nothing is fetched', async ({
  context,
  server,
}) => {
  const deals = await createDeals(server.baseUrl, ['Kobo Ledger Ltd', 'Sahel Pay', 'Zed Pay', 'Nairobi Rails']);
  const [sameOrigin, opaque, scripted, later] = deals;
  if (!sameOrigin || !opaque || !scripted || !later) throw new Error('deals not created');
  const body = (url: string) => escapeHtml(`<p>Status: <a id='share' href='${url}'>snapshot</a></p>`);
  await serveHtml(
    context,
    `${PAGES_ORIGIN}/sandboxed-frames.html`,
    `<!doctype html><html lang="en"><title>Sandboxed bodies</title><body>
        <iframe id="same-origin" name="same-origin" sandbox="allow-same-origin allow-popups" srcdoc="${body(sameOrigin.link.shareUrl)}"></iframe>
        <iframe id="opaque" name="opaque" sandbox srcdoc="${body(opaque.link.shareUrl)}"></iframe>
        <iframe id="scripted" name="scripted" sandbox="allow-scripts" srcdoc="${body(scripted.link.shareUrl)}"></iframe>
        <script>
          window.addEventListener('load', () => setTimeout(() => {
            const frame = document.createElement('iframe');
            frame.id = 'later';
            frame.name = 'later';
            frame.sandbox = 'allow-same-origin';
            frame.srcdoc = ${JSON.stringify(`<p>Status: <a id='share' href='${later.link.shareUrl}'>snapshot</a></p>`)};
            document.body.append(frame);
          }, 400));
        </script>
      </body></html>`,
  );
  const mail = await AnnotatedPage.open(context, `${PAGES_ORIGIN}/sandboxed-frames.html`);
  const { page } = mail;
  for (const id of ['same-origin', 'opaque', 'scripted', 'later'])
    await expect(badgeIn(page.frameLocator(`#${id}`), 'share')).toHaveAttribute('data-state', 'idle');
  await waitLongerThanHoverDelay();
  for (const deal of deals) expect(await deal.views()).toBe(0);

  // Resting the pointer on a link in a frame without scripts that keeps its parent's origin: the card
  // opens in the page, next to the link, and costs one view.
  await page.mouse.move(700, 500);
  await restOn(page.frameLocator('#same-origin').locator('#share'));
  await expect((await mail.card.opened()).companyName).toHaveText('Kobo Ledger Ltd');
  await expect(mail.card.host).toHaveCount(1);
  await expectCardNextTo(mail, badgeIn(page.frameLocator('#same-origin'), 'share'));
  expect(await sameOrigin.views()).toBe(1);
});

/**
 * Mail bodies in frames cut off from their parent's origin (`sandbox` without `allow-same-origin`),
 * where a card page cannot run: one without scripts and one with, side by side under a link in the
 * top page. The scripted body is taller than its frame, so it scrolls. Outlined, not bordered:
 * Playwright's box of an element in such a frame leaves out the frame's border (the card's place
 * itself counts it, as the bordered frames of frames.html show).
 */
async function openCutOffBodies(context: BrowserContext, baseUrl: string) {
  const [opaque, scripted, top] = await createDeals(baseUrl, ['Sahel Pay', 'Zed Pay', 'Kobo Ledger Ltd']);
  if (!opaque || !scripted || !top) throw new Error('deals not created');
  const body = (url: string, after = '') =>
    escapeHtml(`<p style='font:15px system-ui;margin:40px 8px'>Status: <a id='share' href='${url}'>snapshot</a></p>${after}`);
  await serveHtml(
    context,
    `${PAGES_ORIGIN}/cut-off-bodies.html`,
    `<!doctype html><html lang="en"><title>Cut-off bodies</title><body style="margin:16px">
        <p>Inbox: <a id="top" href="${escapeHtml(top.link.shareUrl)}">Kobo Ledger snapshot</a></p>
        <iframe id="opaque" title="Message without scripts" sandbox style="width:420px;height:140px;border:0;outline:1px solid #cbd5e1" srcdoc="${body(opaque.link.shareUrl)}"></iframe>
        <iframe id="scripted" title="Message with scripts" sandbox="allow-scripts" style="width:420px;height:140px;margin-left:30px;border:0;outline:1px solid #cbd5e1"
          srcdoc="${body(scripted.link.shareUrl, "<div style='height:600px'></div>")}"></iframe>
      </body></html>`,
  );
  const mail = await AnnotatedPage.open(context, `${PAGES_ORIGIN}/cut-off-bodies.html`, {
    viewport: { width: 1100, height: 800 },
  });
  const { page } = mail;
  const frames = { opaque: page.frameLocator('#opaque'), scripted: page.frameLocator('#scripted') };
  for (const frame of Object.values(frames)) await expect(badgeIn(frame, 'share')).toHaveAttribute('data-state', 'idle');
  return { mail, page, frames, deals: { opaque, scripted, top } };
}

test("a frame cut off from its parent's origin: the top frame draws its card next to the link (with or without scripts in the frame), one view; the pointer on the card keeps it, leaving closes it", async ({
  context,
  server,
}) => {
  const { mail, page, frames, deals } = await openCutOffBodies(context, server.baseUrl);
  await waitLongerThanHoverDelay();
  for (const deal of Object.values(deals)) expect(await deal.views()).toBe(0);

  for (const [name, frame, deal] of [
    ['opaque', frames.opaque, deals.opaque],
    ['scripted', frames.scripted, deals.scripted],
  ] as const) {
    await page.mouse.move(1000, 700);
    await restOn(frame.locator('#share'));
    const card = await mail.card.opened();
    await expect(card.companyName).toHaveText(deal.name);
    await expect(card.disclaimer).toBeVisible();
    await expect(mail.card.host).toHaveCount(1); // in the top document
    await expectCardNextTo(mail, badgeIn(frame, 'share'));
    await expect(badgeIn(frame, 'share')).toHaveAttribute('data-state', 'ready');
    await page.screenshot({ path: artifactPath(`frames-card-cut-off-${name}.png`) });
    expect(await deal.views()).toBe(1);

    // Onto the card (out of the frame, whose document no longer sees the pointer): it stays.
    const box = await mail.card.box();
    await page.mouse.move(box.x + box.width / 2, box.y + 20, { steps: 4 });
    await waitLongerThanHoverDelay();
    await expect(mail.card.host).toHaveCount(1);
    // Back into the frame for a moment (away from the link), then onto the card again: it stays.
    const frameBox = await page.locator(`#${name}`).boundingBox();
    if (!frameBox) throw new Error('frame not laid out');
    await page.mouse.move(frameBox.x + 4, frameBox.y + 4);
    await page.mouse.move(box.x + box.width / 2, box.y + 40, { steps: 2 });
    await waitLongerThanHoverDelay();
    await expect(mail.card.host).toHaveCount(1);
    await mail.closeCardByLeaving();
    expect(await deal.views()).toBe(1);
  }
});

test("keyboard in a frame cut off from its parent's origin: Enter on the badge opens the card in the top document with focus in it; Escape or its Close button closes it and focus returns to the badge", async ({
  context,
  server,
}) => {
  const { mail, page, frames, deals } = await openCutOffBodies(context, server.baseUrl);
  const topFocus = () => page.evaluate(() => document.activeElement?.localName ?? null);
  for (const [frame, deal] of [
    [frames.opaque, deals.opaque],
    [frames.scripted, deals.scripted],
  ] as const) {
    await frame.locator('#share').focus();
    await page.keyboard.press('Tab');
    await expect(badgeIn(frame, 'share')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect((await mail.card.opened()).companyName).toHaveText(deal.name);
    await expect.poll(topFocus).toBe('compliance-lens-card');
    await page.keyboard.press('Escape');
    await mail.card.expectClosed();
    await expect(badgeIn(frame, 'share')).toBeFocused();
    // Again, closed with the card's own button this time: focus returns to the badge too.
    await page.keyboard.press('Enter');
    await (await mail.card.frame()).getByRole('button', { name: 'Close' }).click();
    await mail.card.expectClosed();
    await expect(badgeIn(frame, 'share')).toBeFocused();
    expect(await deal.views()).toBe(1);
  }
});

test("a frame cut off from its parent's origin: its card follows the link as the frame scrolls, gives way to another frame's card, and goes with its frame", async ({
  context,
  server,
}) => {
  const { mail, page, frames, deals } = await openCutOffBodies(context, server.baseUrl);
  // Opened by a click on the badge: it stays while the pointer moves on.
  await badgeIn(frames.scripted, 'share').click();
  await expect((await mail.card.opened()).companyName).toHaveText(deals.scripted.name);
  await expectCardNextTo(mail, badgeIn(frames.scripted, 'share'));
  const before = await mail.card.box();
  const frameBox = await page.locator('#scripted').boundingBox();
  if (!frameBox) throw new Error('frame not laid out');
  await page.mouse.move(frameBox.x + 10, frameBox.y + 120); // over the frame, left of the card
  await page.mouse.wheel(0, 30);
  await expect.poll(async () => (await mail.card.box()).y).toBeLessThan(before.y - 20);
  await expectCardNextTo(mail, badgeIn(frames.scripted, 'share'));

  // One card per tab: the top page's link takes over.
  await mail.restOn('top');
  // The first card's frame may go while it is read: read again.
  await expect.poll(async () => (await mail.card.opened()).companyName.textContent().catch(() => null)).toBe(deals.top.name);
  await expect(mail.card.host).toHaveCount(1);
  await mail.closeCardByLeaving();

  // The frame goes while its card is open: so does the card.
  await badgeIn(frames.opaque, 'share').click();
  await expect((await mail.card.opened()).companyName).toHaveText(deals.opaque.name);
  await page.evaluate(() => document.getElementById('opaque')?.remove());
  await mail.card.expectClosed();
});

test('a sandboxed body inside a frame of another origin: the card opens in the top document next to that outer frame (the top page cannot see inside it), at one view', async ({
  context,
  server,
}) => {
  const [deal] = await createDeals(server.baseUrl, ['Sahel Pay']);
  if (!deal) throw new Error('deal not created');
  const body = escapeHtml(`<p style='margin:30px 8px'>Status: <a id='share' href='${deal.link.shareUrl}'>snapshot</a></p>`);
  await serveHtml(
    context,
    `${DEALS_ORIGIN}/reader.html`,
    `<!doctype html><html lang="en"><title>Reader</title><body style="margin:0">
        <iframe id="sealed" sandbox style="width:380px;height:100px;border:0" srcdoc="${body}"></iframe></body></html>`,
  );
  await serveHtml(
    context,
    `${PAGES_ORIGIN}/outer.html`,
    `<!doctype html><html lang="en"><title>Portal</title><body style="margin:16px">
        <p>Messages from the reader app:</p>
        <iframe id="reader" src="${DEALS_ORIGIN}/reader.html" style="width:400px;height:120px;border:0"></iframe></body></html>`,
  );
  const mail = await AnnotatedPage.open(context, `${PAGES_ORIGIN}/outer.html`, { viewport: { width: 1100, height: 800 } });
  const { page } = mail;
  const sealed = page.frameLocator('#reader').frameLocator('#sealed');
  await expect(badgeIn(sealed, 'share')).toHaveAttribute('data-state', 'idle');
  await restOn(sealed.locator('#share'));
  await expect((await mail.card.opened()).companyName).toHaveText('Sahel Pay');
  await expect(mail.card.host).toHaveCount(1);
  await mail.card.expectRevealed();
  const outer = await page.locator('#reader').boundingBox();
  if (!outer) throw new Error('outer frame not laid out');
  const card = await mail.card.box();
  expect(card.x).toBeLessThanOrEqual(outer.x + 1);
  const below = Math.abs(card.y - (outer.y + outer.height + 6)) <= 3;
  const above = Math.abs(card.y + card.height - (outer.y - 6)) <= 3;
  expect(below || above, JSON.stringify({ card, outer })).toBe(true);
  expect(await deal.views()).toBe(1);
});

test("a page that copies and floods the anchor messages of a frame's card: the card still opens next to the link, for its own link, at one view", async ({
  context,
  server,
}) => {
  const { mail, page, frames, deals } = await openCutOffBodies(context, server.baseUrl);
  await page.evaluate(() => {
    // A frame of the page's own, to post from; a copy of every message the page sees, from there and
    // from the top window; and a stream of made-up keys.
    const decoy = document.createElement('iframe');
    decoy.srcdoc = '<p>decoy</p>';
    document.body.prepend(decoy);
    window.addEventListener('message', (event) => {
      const data: unknown = event.data;
      // Not its own copies (nor the stream below): the frames' messages only.
      if (event.source === window || event.source === decoy.contentWindow) return;
      if (typeof data !== 'object' || data === null || !('key' in data)) return;
      decoy.contentWindow?.postMessage(data, '*');
      decoy.contentWindow?.parent.postMessage(data, '*');
      window.postMessage(data, '*');
    });
    const hex = () => Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
    setInterval(() => window.postMessage({ source: 'compliance-lens-card-anchor', key: hex() }, '*'), 1);
  });
  await restOn(frames.opaque.locator('#share'));
  await expect((await mail.card.opened()).companyName).toHaveText(deals.opaque.name);
  await expectCardNextTo(mail, badgeIn(frames.opaque, 'share'));
  expect(await deals.opaque.views()).toBe(1);
  expect(await deals.scripted.views()).toBe(0);
});

test('a frame of another site (an ad) that floods anchor keys cannot push a card into the corner: the card still opens next to its link (issue #26 item 5)', async ({
  context,
  server,
}) => {
  const { mail, page, frames, deals } = await openCutOffBodies(context, server.baseUrl);
  // 400 keys a second: 25 times what the host keeps (MAX_ANCHORS), so every rest meets a full table.
  // (At 2,000 a second the page's main thread is flooded and the card failed to open in about 1 of 4
  // runs, on this session's build and the previous one alike: an open problem, not what this checks.)
  await serveHtml(
    context,
    `${UNCONFIGURED_ORIGIN}/ad.html`,
    `<!doctype html><p>Ad</p><script>
        const hex = () => Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
        setInterval(() => { for (let i = 0; i < 20; i++) top.postMessage({ source: 'compliance-lens-card-anchor', key: hex() }, '*'); }, 50);
      </script>`,
  );
  await page.evaluate((src) => {
    const ad = document.createElement('iframe');
    ad.src = src;
    ad.style.cssText = 'width:300px;height:60px';
    document.body.append(ad);
  }, `${UNCONFIGURED_ORIGIN}/ad.html`);
  await expect(page.frameLocator('iframe[src$="/ad.html"]').locator('p')).toHaveText('Ad');
  await restOn(frames.opaque.locator('#share'));
  await expect((await mail.card.opened()).companyName).toHaveText(deals.opaque.name);
  await expectCardNextTo(mail, badgeIn(frames.opaque, 'share'));
  expect(await deals.opaque.views()).toBe(1);
});

test('a page that swallows the anchor message and the press, then removes the frame: the card goes with its frame (issue #26 item 6)', async ({
  context,
  server,
}) => {
  await context.addInitScript(() => {
    if (window !== window.top) return;
    const swallow = (event: Event) => {
      const data: unknown = event instanceof MessageEvent ? event.data : null;
      if (event.type === 'pointerdown' || (typeof data === 'object' && data !== null && 'key' in data))
        event.stopImmediatePropagation();
    };
    window.addEventListener('message', swallow, true);
    window.addEventListener('pointerdown', swallow, true);
  });
  const { mail, page, frames, deals } = await openCutOffBodies(context, server.baseUrl);
  await badgeIn(frames.opaque, 'share').click();
  // Without its anchor message the top frame cannot judge the frame: the card offers Load, no view.
  await expect((await mail.card.frame()).getByTestId('not-loaded')).toBeVisible();
  expect(await deals.opaque.views()).toBe(0);
  await page.mouse.click(1000, 700); // swallowed
  await expect(mail.card.host).toHaveCount(1);
  await page.evaluate(() => document.getElementById('opaque')?.remove());
  await mail.card.expectClosed();
});

test('many mail bodies at once, watched by the page from the top document: every frame with a share link is badged, also those added after load; nothing is fetched', async ({
  context,
  server,
}) => {
  const [deal] = await createDeals(server.baseUrl, ['Kobo Ledger Ltd']);
  if (!deal) throw new Error('deal not created');
  // Each body hands its changes to the top page, which reads the new nodes while the body parses (a mail
  // client's read tracking, say). The body's nodes then carry the top page's prototypes in the frame's
  // page world, where \`instanceof\` against the frame's own classes fails.
  const body = (index: number) =>
    escapeHtml(
      `<script>new MutationObserver(parent.noteBody).observe(document, { childList: true, subtree: true });</script><p>Message ${index}: <a id='share' href='${deal.link.shareUrl}'>snapshot</a> · <a href='https://example.org/${index}'>news</a></p>`,
    );
  const frames = (from: number, count: number) =>
    Array.from(
      { length: count },
      (_, offset) => `<iframe style="width:300px;height:40px" srcdoc="${body(from + offset)}"></iframe>`,
    ).join('');
  await serveHtml(
    context,
    `${PAGES_ORIGIN}/many-bodies.html`,
    `<!doctype html><html lang="en"><title>Many bodies</title><script>
          window.seen = 0;
          window.noteBody = (records) => { for (const record of records) for (const node of record.addedNodes) if (node.localName === 'a') window.seen += 1; };
        </script><body><div id="frames">${frames(0, 30)}</div></body></html>`,
  );
  const { page } = await AnnotatedPage.open(context, `${PAGES_ORIGIN}/many-bodies.html`);
  const badged = () =>
    page.evaluate(
      () =>
        [...document.querySelectorAll('iframe')].filter((frame) =>
          frame.contentDocument?.querySelector('#share + compliance-lens-badge'),
        ).length,
    );
  await expect.poll(badged, { timeout: 20_000 }).toBe(30);
  await page.evaluate((more) => document.getElementById('frames')?.insertAdjacentHTML('beforeend', more), frames(30, 20));
  await expect.poll(badged, { timeout: 20_000 }).toBe(50);
  expect(await deal.views()).toBe(0);
});

test('a chip that came after its frame was painted stays over its link when the page restyles the link (a class, a colour transition): the frame’s text does not move', async ({
  context,
  server,
}) => {
  const [deal] = await createDeals(server.baseUrl, ['Restyled Co']);
  if (!deal) throw new Error('deal not created');
  const body = `<style>a{transition:color .15s}a.hot{color:#b91c1c}</style><p style="font:15px/1.5 Georgia,serif;width:520px">Please read our <a id="late" href="${escapeHtml(deal.link.shareUrl)}">compliance snapshot for the committee</a> <span id="next">before</span> you sign the term sheet.</p>`;
  await serveHtml(
    context,
    `${PAGES_ORIGIN}/restyled-frame.html`,
    `<!doctype html><html lang="en"><body><iframe id="mail" style="width:600px;height:120px;border:0" srcdoc="${escapeHtml(body)}"></iframe></body></html>`,
  );
  const page = await context.newPage();
  await page.goto(`${PAGES_ORIGIN}/restyled-frame.html`);
  const frame = page.frameLocator('#mail');
  const badge = badgeIn(frame, 'late');
  await expect(badge).toHaveAttribute('data-scheme', 'light');
  const place = () =>
    frame.locator('#late').evaluate((link) => {
      const next = document.getElementById('next')?.getBoundingClientRect();
      const host = link.nextElementSibling;
      if (!next || !(host instanceof HTMLElement)) throw new Error('not laid out');
      const chip = host.getBoundingClientRect();
      return { next: [next.x, next.y], chip: [chip.x, chip.y], out: host.style.position === 'absolute' };
    });
  // The frame was painted before its annotator came: the chip stands over its link's end, out of the flow.
  const before = await place();
  expect(before.out).toBe(true);
  // The page restyles the link (as it might on hover): a class, and a colour transition that ends.
  await frame.locator('#late').evaluate((link) => link.classList.add('hot'));
  await page.waitForTimeout(400);
  await frame.locator('#late').evaluate((link) => link.classList.remove('hot'));
  await page.waitForTimeout(400);
  expect(await place()).toEqual(before);
});
