import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { configureTestService } from './support/extension';
import { expect, test } from './support/fixtures';
import { FounderClient, resetRateLimits, startTestServer } from './support/server';
import { mailPageValues, PAGES_ORIGIN, servePages } from './pages/serve';

/**
 * The annotator end to end: the built extension in Chromium, the bundled server on a random port
 * (added to the extension's services through settings storage), fixture pages on a loopback origin.
 */

const artifacts = path.resolve(import.meta.dirname, '../artifacts');
mkdirSync(artifacts, { recursive: true });

const badgeAfter = (page: Page, anchorId: string) => page.locator(`#${anchorId} + compliance-lens-badge`);
const cardFrame = (page: Page) => page.frameLocator('compliance-lens-card iframe');
const cardHost = (page: Page) => page.locator('compliance-lens-card');

async function founderWithLink(baseUrl: string, name = 'Kobo Ledger Ltd') {
  const founder = await FounderClient.signUp(baseUrl, name);
  const link = await founder.createShareLink();
  return { founder, link };
}

async function openMailPage(page: Page, name: 'gmail-thread' | 'outlook-message') {
  await page.goto(`${PAGES_ORIGIN}/${name}.html`);
}

/** Waits long enough for any (wrong) background fetch to have reached the server. */
const settle = (page: Page, ms = 800) => page.waitForTimeout(ms);

test.beforeEach(async ({ serviceWorker, server }) => {
  await configureTestService(serviceWorker, server.baseUrl);
  await resetRateLimits(server.baseUrl);
});

test('Gmail-like thread: share links (with data-saferedirecturl) get idle badges, look-alikes none, and loading costs no view', async ({
  context,
  server,
}) => {
  const { founder, link } = await founderWithLink(server.baseUrl);
  await servePages(context, mailPageValues(link, new URL(server.baseUrl).origin));
  const page = await context.newPage();
  await openMailPage(page, 'gmail-thread');

  await expect(badgeAfter(page, 'gmail-share')).toHaveAttribute('data-state', /idle|ready/);
  await expect(badgeAfter(page, 'gmail-api')).toHaveAttribute('data-state', /idle|ready/);
  for (const id of ['plain', 'lookalike-host', 'lookalike-path', 'lookalike-redirect']) {
    await expect(badgeAfter(page, id)).toHaveCount(0);
  }
  await expect(page.locator('compliance-lens-badge')).toHaveCount(2);
  await settle(page);
  expect(await founder.viewCount(link.id)).toBe(0);
});

test('Outlook-like message: Safe Links and Proofpoint-wrapped links are annotated', async ({ context, server }) => {
  const { link } = await founderWithLink(server.baseUrl);
  await servePages(context, mailPageValues(link, new URL(server.baseUrl).origin));
  const page = await context.newPage();
  await openMailPage(page, 'outlook-message');

  await expect(badgeAfter(page, 'safelinks')).toHaveCount(1);
  await expect(badgeAfter(page, 'proofpoint')).toHaveCount(1);
  await expect(badgeAfter(page, 'plain')).toHaveCount(0);
});

test('deal-flow table: 300 rows arriving in batches after load all get badges', async ({ context, server }) => {
  await servePages(context, mailPageValues({ shareUrl: '', apiUrl: '', token: '' }, new URL(server.baseUrl).origin));
  const page = await context.newPage();
  await page.goto(`${PAGES_ORIGIN}/deal-flow.html`);
  await expect(page.locator('body[data-loaded="true"]')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.locator('a.share + compliance-lens-badge')).toHaveCount(300);
  await expect(page.locator('compliance-lens-badge')).toHaveCount(300);
});

test('a page of 5,000 anchors with 500 share links: all annotated, no long task after parsing, no view', async ({
  context,
  server,
}) => {
  const { founder, link } = await founderWithLink(server.baseUrl);
  const origin = new URL(server.baseUrl).origin;
  const items = Array.from({ length: 5000 }, (_, i) =>
    i % 10 === 0
      ? `<li><a href="${i === 0 ? link.shareUrl : `${origin}/share/tok_${String(i).padStart(6, '0')}_${'x'.repeat(32)}`}">deal ${i}</a></li>`
      : `<li><a href="https://example.org/item/${i}">item ${i}</a></li>`,
  );
  await servePages(context, { ANCHORS: items.join('') });
  const page = await context.newPage();
  await page.goto(`${PAGES_ORIGIN}/big-page.html`);
  await expect(page.locator('compliance-lens-badge')).toHaveCount(500);
  // The last link is far below the fold: its badge is not drawn yet and takes no box.
  expect(
    await page
      .locator('compliance-lens-badge')
      .last()
      .evaluate((host) => getComputedStyle(host).display),
  ).toBe('none');
  const { longTasks, parsedAt } = await page.evaluate(() => ({
    longTasks: (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks,
    parsedAt:
      performance.getEntriesByType('navigation').find((entry) => entry instanceof PerformanceNavigationTiming)
        ?.domContentLoadedEventEnd ?? 0,
  }));
  const afterParsing = longTasks.filter((task) => task.start >= parsedAt);
  expect(afterParsing, JSON.stringify({ parsedAt, longTasks })).toEqual([]);
  await settle(page);
  expect(await founder.viewCount(link.id)).toBe(0);
});

test('a drawn badge makes no line taller: each paragraph is as tall as its twin with an ordinary link', async ({
  context,
  server,
}) => {
  const { link } = await founderWithLink(server.baseUrl);
  await servePages(context, mailPageValues(link, new URL(server.baseUrl).origin));
  const page = await context.newPage();
  await page.goto(`${PAGES_ORIGIN}/line-heights.html`);
  const badges = page.locator('compliance-lens-badge');
  await expect(badges).toHaveCount(5);
  // Drawn (in view): each badge is a visible box of its own, 16 px tall.
  for (const badge of await badges.all()) {
    await expect(badge).toBeVisible();
    expect((await badge.boundingBox())?.height).toBeCloseTo(16, 0);
  }
  const heights = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('p[data-pair]')].map((p) => ({
      pair: p.dataset.pair,
      share: p.hasAttribute('data-share'),
      height: p.getBoundingClientRect().height,
    })),
  );
  for (const pair of ['serif', 'small', 'mail', 'tight', 'large']) {
    const [withBadge, twin] = [heights.find((h) => h.pair === pair && h.share), heights.find((h) => h.pair === pair && !h.share)];
    expect(withBadge?.height, `${pair}: ${JSON.stringify(heights)}`).toBe(twin?.height);
  }
});

test('hover intent: a pass-over costs nothing; resting opens the card with the disclaimer (one view); a second hover costs none', async ({
  context,
  server,
}) => {
  const { founder, link } = await founderWithLink(server.baseUrl);
  await servePages(context, mailPageValues(link, new URL(server.baseUrl).origin));
  const page = await context.newPage();
  await openMailPage(page, 'gmail-thread');
  const anchor = page.locator('#gmail-share');
  await expect(badgeAfter(page, 'gmail-share')).toHaveAttribute('data-state', 'idle');

  // Pass over the link on the way somewhere else.
  const box = await anchor.boundingBox();
  if (!box) throw new Error('link not laid out');
  await page.mouse.move(box.x - 40, box.y + box.height / 2);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 2 });
  await page.mouse.move(box.x + box.width / 2, box.y + 200, { steps: 2 });
  await settle(page);
  expect(await founder.viewCount(link.id)).toBe(0);
  await expect(cardHost(page)).toHaveCount(0);

  // Rest on it.
  await anchor.hover();
  await expect(badgeAfter(page, 'gmail-share')).toHaveAttribute('data-state', 'ready');
  const card = cardFrame(page);
  await expect(card.getByTestId('snapshot-card')).toBeVisible();
  await expect(card.getByTestId('disclaimer')).toBeVisible();
  await expect(card.getByTestId('disclaimer')).toContainText('due diligence');
  await expect(card.getByTestId('company-name')).toHaveText('Kobo Ledger Ltd');
  await expect(card.getByTestId('readiness-score')).toHaveText('76');
  expect(await founder.viewCount(link.id)).toBe(1);

  // Move onto the card: it stays. Then leave both: it closes (removed from the DOM).
  const cardBox = await cardHost(page).locator('iframe').boundingBox();
  if (!cardBox) throw new Error('card not laid out');
  await page.mouse.move(cardBox.x + 40, cardBox.y + 40, { steps: 4 });
  await page.waitForTimeout(600);
  await expect(cardHost(page)).toHaveCount(1);
  await page.mouse.move(5, 5);
  await expect(cardHost(page)).toHaveCount(0);

  // Hover again within the TTL (the API link of the same token too): served from the cache.
  await anchor.hover();
  await expect(cardFrame(page).getByTestId('disclaimer')).toBeVisible();
  await page.mouse.move(5, 5);
  await expect(cardHost(page)).toHaveCount(0);
  await page.locator('#gmail-api').hover();
  await expect(cardFrame(page).getByTestId('disclaimer')).toBeVisible();
  await settle(page);
  expect(await founder.viewCount(link.id)).toBe(1);

  // A page reload peeks at the cache: the badge is ready at once, still without a view.
  await page.reload();
  await expect(badgeAfter(page, 'gmail-share')).toHaveAttribute('data-state', 'ready');
  await settle(page);
  expect(await founder.viewCount(link.id)).toBe(1);
});

test('little room around the link: the card fits its frame, only its body scrolls, the disclaimer stays wholly in view', async ({
  context,
  server,
}) => {
  const { link } = await founderWithLink(server.baseUrl);
  await servePages(context, mailPageValues(link, new URL(server.baseUrl).origin));
  const page = await context.newPage();
  await page.setViewportSize({ width: 1000, height: 380 });
  await openMailPage(page, 'gmail-thread');
  await expect(badgeAfter(page, 'gmail-share')).toHaveAttribute('data-state', 'idle');
  await page.locator('#gmail-share').hover();
  const card = cardFrame(page);
  await expect(card.getByTestId('disclaimer')).toContainText('due diligence');

  const frame = await cardHost(page).locator('iframe').boundingBox();
  if (!frame) throw new Error('card not laid out');
  expect(frame.y).toBeGreaterThanOrEqual(0);
  expect(frame.y + frame.height).toBeLessThanOrEqual(380);
  // The whole disclaimer inside the frame's visible box, not cut off below it.
  await expect(async () => {
    const disclaimer = await card.getByTestId('disclaimer').boundingBox();
    if (!disclaimer) throw new Error('disclaimer not laid out');
    expect(disclaimer.y).toBeGreaterThanOrEqual(frame.y);
    expect(disclaimer.y + disclaimer.height).toBeLessThanOrEqual(frame.y + frame.height + 0.5);
  }).toPass({ timeout: 5_000 });
  // The rest is reachable by scrolling the card's body.
  const scroll = card.locator('[data-card-scroll]');
  const overflow = await scroll.evaluate((element) => element.scrollHeight - element.clientHeight);
  expect(overflow).toBeGreaterThan(0);
  await page.screenshot({ path: path.join(artifacts, 'card-little-room.png') });
});

test('keyboard only: Tab to the link, Tab to its badge, Enter opens the card, Escape closes it and focus returns', async ({
  context,
  server,
}) => {
  const { founder, link } = await founderWithLink(server.baseUrl);
  await servePages(context, mailPageValues(link, new URL(server.baseUrl).origin));
  const page = await context.newPage();
  await openMailPage(page, 'outlook-message');
  await expect(badgeAfter(page, 'safelinks')).toHaveAttribute('data-state', 'idle');

  const activeElementId = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      if (!active) return null;
      if (active.localName === 'compliance-lens-badge') return `badge-after:${active.previousElementSibling?.id ?? ''}`;
      return active.localName === 'compliance-lens-card' ? 'card' : active.id || active.localName;
    });

  await page.keyboard.press('Tab');
  expect(await activeElementId()).toBe('safelinks');
  await page.keyboard.press('Tab');
  expect(await activeElementId()).toBe('badge-after:safelinks');

  await page.keyboard.press('Enter');
  await expect(cardFrame(page).getByTestId('disclaimer')).toBeVisible();
  await expect.poll(activeElementId).toBe('card');
  expect(await founder.viewCount(link.id)).toBe(1);

  await page.keyboard.press('Escape');
  await expect(cardHost(page)).toHaveCount(0);
  expect(await activeElementId()).toBe('badge-after:safelinks');

  // Enter again from the badge, Escape while focus stays on the badge.
  await page.keyboard.press('Enter');
  await expect(cardHost(page)).toHaveCount(1);
  await expect.poll(activeElementId).toBe('card');
  await page.keyboard.press('Escape');
  await expect(cardHost(page)).toHaveCount(0);
  expect(await activeElementId()).toBe('badge-after:safelinks');
  expect(await founder.viewCount(link.id)).toBe(1);
});

test('clicking the link itself still follows it', async ({ context, server }) => {
  const { link } = await founderWithLink(server.baseUrl);
  await servePages(context, mailPageValues(link, new URL(server.baseUrl).origin));
  const page = await context.newPage();
  await openMailPage(page, 'outlook-message');
  await expect(badgeAfter(page, 'plain')).toHaveCount(0);
  await expect(badgeAfter(page, 'safelinks')).toHaveCount(1);
  // The Safe Links wrapper points at an outside host; intercept the navigation and check it happened.
  let navigatedTo = '';
  await context.route('https://eur01.safelinks.protection.outlook.com/**', (route) => {
    navigatedTo = route.request().url();
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<p>followed</p>' });
  });
  await page.locator('#safelinks').click();
  await expect.poll(() => navigatedTo).toContain('safelinks.protection.outlook.com');
});

test('revoked and expired links show their error states', async ({ context, server, serviceWorker }) => {
  const { founder, link: revoked } = await founderWithLink(server.baseUrl, 'Revoked Co');
  const response = await fetch(`${server.baseUrl}/api/founder/share-links/${revoked.id}/revoke`, {
    method: 'POST',
    headers: { authorization: `Bearer ${founder.founderKey}` },
  });
  expect(response.status).toBe(200);
  await servePages(context, mailPageValues(revoked, new URL(server.baseUrl).origin));
  const page = await context.newPage();
  await openMailPage(page, 'gmail-thread');
  await expect(badgeAfter(page, 'gmail-share')).toHaveAttribute('data-state', 'idle');
  await page.locator('#gmail-share').hover();
  await expect(badgeAfter(page, 'gmail-share')).toHaveAttribute('data-state', 'error');
  await expect(badgeAfter(page, 'gmail-share')).toHaveAttribute('data-error-code', 'NOT_FOUND');
  await expect(cardFrame(page).getByTestId('error-message')).toContainText(/revoked/);
  // The same token through its API link shares the (terminal) result.
  await expect(badgeAfter(page, 'gmail-api')).toHaveAttribute('data-error-code', 'NOT_FOUND');
  await page.close();

  // Expired: move a server's clock past the 7-day lifetime. Its own server, so the clock of the one
  // the other tests share stays real.
  const clockServer = await startTestServer();
  try {
    await configureTestService(serviceWorker, clockServer.baseUrl);
    const expiring = await founderWithLink(clockServer.baseUrl, 'Expired Co');
    await context.unrouteAll();
    await servePages(context, mailPageValues(expiring.link, new URL(clockServer.baseUrl).origin));
    await fetch(`${clockServer.baseUrl}/api/dev/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 8 * 24 * 3600_000 }),
    });
    const second = await context.newPage();
    await openMailPage(second, 'outlook-message');
    await expect(badgeAfter(second, 'safelinks')).toHaveAttribute('data-state', 'idle');
    await second.locator('#safelinks').hover();
    await expect(badgeAfter(second, 'safelinks')).toHaveAttribute('data-error-code', 'EXPIRED');
    await expect(cardFrame(second).getByTestId('error-message')).toContainText(/expired/);
    await second.screenshot({
      path: path.join(artifacts, 'badge-expired-light.png'),
      clip: { x: 0, y: 0, width: 760, height: 260 },
    });
  } finally {
    await clockServer.stop();
  }
});

/** Accessible names of the badge buttons (inside closed shadow roots: read from the accessibility tree). */
async function badgeNames(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    return nodes
      .filter((node) => node.role?.value === 'button')
      .map((node) => String(node.name?.value ?? ''))
      .filter((name) => /snapshot|Instantané/i.test(name));
  } finally {
    await cdp.detach();
  }
}

test('badges speak the language chosen in the options, and follow a change without a reload', async ({
  context,
  server,
  serviceWorker,
}) => {
  const { link } = await founderWithLink(server.baseUrl);
  await servePages(context, mailPageValues(link, new URL(server.baseUrl).origin));
  const page = await context.newPage();
  await openMailPage(page, 'gmail-thread');
  await expect(badgeAfter(page, 'gmail-share')).toHaveAttribute('data-state', 'idle');
  await expect.poll(() => badgeNames(page)).toContain('Compliance snapshot — hover or press Enter to load (counts as a view)');
  try {
    await serviceWorker.evaluate(() => chrome.storage.local.set({ language: 'fr' }));
    await expect
      .poll(() => badgeNames(page))
      .toContain('Instantané de conformité — survolez ou appuyez sur Entrée pour le charger (compte comme une consultation)');
    expect((await badgeNames(page)).some((name) => name.startsWith('Compliance snapshot'))).toBe(false);
  } finally {
    await serviceWorker.evaluate(() => chrome.storage.local.remove('language'));
  }
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`screenshots of badges and the card (${colorScheme})`, async ({ context, server }) => {
    const { link } = await founderWithLink(server.baseUrl);
    await servePages(context, mailPageValues(link, new URL(server.baseUrl).origin));
    const page = await context.newPage();
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 900, height: 720 });
    await openMailPage(page, 'gmail-thread');
    await expect(page.locator('compliance-lens-badge[data-state="idle"]')).toHaveCount(2);
    await page.screenshot({
      path: path.join(artifacts, `badges-idle-${colorScheme}.png`),
      clip: { x: 0, y: 0, width: 900, height: 220 },
    });

    await page.locator('#gmail-share').hover();
    await expect(cardFrame(page).getByTestId('disclaimer')).toBeVisible();
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(artifacts, `card-${colorScheme}.png`) });
    await page.mouse.move(5, 5);
    await expect(cardHost(page)).toHaveCount(0);
    await page.screenshot({
      path: path.join(artifacts, `badges-ready-${colorScheme}.png`),
      clip: { x: 0, y: 0, width: 900, height: 220 },
    });
  });
}
