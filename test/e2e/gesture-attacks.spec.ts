import type { Page } from '@playwright/test';
import { waitLongerThanHoverDelay } from '../support/timing';
import { expect, test } from './support/fixtures';
import { openHostilePage, pageToken, recordSnapshotRequests } from './support/hostile';
import { restOn } from './support/pointer';
import { createDeal, type Deal } from './support/server';

/**
 * A gesture counts only on the extension's own mark, seen, with a pointer that moved (issue #32 part
 * 2; docs/security.md sections 1 and 10). Each attack an outside red team ran against 3bd47d1 costs
 * no view here; a plain rest, click and key on a visible badge still cost exactly one each. The page
 * points its link at a new token of its own after every gesture: each fetch would be a view on a
 * token it chose.
 */

test.use({ withTestService: true });

/** The page's own rules that try to hide the extension's badges and card (they must not take). */
const HIDE_OUR_MARKS = `compliance-lens-badge{opacity:0!important;mask-image:linear-gradient(transparent,transparent)!important;filter:opacity(0)!important;transform:scale(.01)!important}
compliance-lens-card{opacity:0!important}`;

/** Adds a style element with `css` to the page. */
const addStyle = (page: Page, css: string) =>
  page.evaluate((text) => {
    const style = document.createElement('style');
    style.textContent = text;
    document.head.append(style);
  }, css);

/** The visible gesture that ends each attack: the link's card opens, at exactly one view and one request. */
async function expectCardAtOneView(
  hostile: Awaited<ReturnType<typeof openHostilePage>>,
  deal: Deal,
  fetched: ReturnType<typeof recordSnapshotRequests>,
): Promise<void> {
  await expect((await hostile.card.opened()).companyName).toHaveText(deal.name);
  expect(await deal.views()).toBe(1);
  expect(fetched).toHaveLength(1);
}

/** The page's link `#ghost` points at a new token of its own. */
const retarget = (page: Page, href: string) =>
  page.evaluate((value) => document.getElementById('ghost')?.setAttribute('href', value), href);

for (const { mode, paint } of [
  { mode: 'color: transparent', paint: 'color:transparent' },
  { mode: '-webkit-text-fill-color: transparent', paint: '-webkit-text-fill-color:transparent' },
  { mode: 'a fully transparent mask-image', paint: 'mask-image:linear-gradient(transparent,transparent)' },
] as const) {
  test(`a link whose paint is invisible (${mode}), its badge and card hidden by page CSS: 12 rests cost no view; a rest on a visible link costs one`, async ({
    context,
    serviceOrigin,
    deal,
  }) => {
    const fetched = recordSnapshotRequests(context, serviceOrigin);
    const hostile = await openHostilePage(context, deal.link.shareUrl);
    const { page } = hostile;
    await addStyle(page, HIDE_OUR_MARKS);
    await page.evaluate(
      ({ href, paint }) => {
        const anchor = document.createElement('a');
        anchor.id = 'ghost';
        anchor.href = href;
        anchor.textContent = 'Continue reading';
        anchor.style.cssText = `position:absolute;left:300px;top:300px;font:28px system-ui;${paint}`;
        document.body.append(anchor);
      },
      { href: pageToken(serviceOrigin, 0), paint },
    );
    const badge = hostile.badgeAfter('ghost');
    await expect(badge).toHaveAttribute('data-state', 'idle');
    // The page's rules do not reach the badge's paint.
    expect(
      await badge.evaluate((host) => {
        const style = getComputedStyle(host);
        return [style.opacity, style.maskImage, style.filter, style.transform];
      }),
    ).toEqual(['1', 'none', 'none', 'none']);
    for (let i = 0; i < 12; i++) {
      await restOn(page.locator('#ghost'));
      await waitLongerThanHoverDelay();
      await page.mouse.move(5, 5);
      // The card that offered Load closes once the pointer has left (else the next card is looked for in it).
      await hostile.card.expectClosed();
      await retarget(page, pageToken(serviceOrigin, i + 1));
    }
    expect(fetched).toEqual([]);

    await restOn(hostile.link('share'));
    await expectCardAtOneView(hostile, deal, fetched);
  });
}

test('a still pointer: links slid under it by a transition, inserted under it, or scrolled under it cost no view, visible or not; a key on a visible badge costs one', async ({
  context,
  serviceOrigin,
  deal,
}) => {
  const fetched = recordSnapshotRequests(context, serviceOrigin);
  const hostile = await openHostilePage(context, deal.link.shareUrl);
  const { page } = hostile;
  // The reader moves the pointer to a quiet spot and leaves it there.
  await page.mouse.move(380, 420, { steps: 4 });
  for (let i = 0; i < 6; i++) {
    const invisible = i % 2 === 1;
    await page.evaluate(
      ({ href, invisible, n }) => {
        document.getElementById('slider')?.remove();
        const anchor = document.createElement('a');
        anchor.id = 'slider';
        anchor.href = href;
        anchor.textContent = `Offer ${n}`;
        anchor.style.cssText = `position:absolute;left:-400px;top:400px;display:inline-block;width:220px;font:24px system-ui;transition:left .3s linear${invisible ? ';color:transparent' : ''}`;
        document.body.append(anchor);
        requestAnimationFrame(() => requestAnimationFrame(() => (anchor.style.left = '300px')));
      },
      { href: pageToken(serviceOrigin, i), invisible, n: i },
    );
    await waitLongerThanHoverDelay();
    await waitLongerThanHoverDelay();
  }
  // Scrolled under the still pointer: a tall page, a link at the pointer's height below the fold.
  await page.evaluate(
    (href) => {
      document.getElementById('slider')?.remove();
      const spacer = document.createElement('div');
      spacer.style.height = '1200px';
      const anchor = document.createElement('a');
      anchor.id = 'scrolled';
      anchor.href = href;
      anchor.textContent = 'Scrolled offer';
      anchor.style.cssText = 'display:block;width:600px;font:24px system-ui';
      document.body.append(spacer, anchor);
    },
    pageToken(serviceOrigin, 99),
  );
  await page.evaluate(() => {
    const anchor = document.getElementById('scrolled');
    if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - 410);
  });
  await waitLongerThanHoverDelay();
  await waitLongerThanHoverDelay();
  expect(fetched).toEqual([]);
  await hostile.card.expectClosed();

  // A key on a visible badge: one view.
  await page.evaluate(() => window.scrollTo(0, 0));
  await hostile.link('share').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expectCardAtOneView(hostile, deal, fetched);
});

test('click-jacking the badge: transparent link text and a transparent mask on compliance-lens-badge over a decoy cost no view in 6 clicks and a key; a click on a visible badge costs one', async ({
  context,
  server,
  serviceOrigin,
}) => {
  const deal = await createDeal(server.baseUrl, 'Sahel Pay SA');
  const fetched = recordSnapshotRequests(context, serviceOrigin);
  const hostile = await openHostilePage(context, deal.link.shareUrl);
  const { page } = hostile;
  await addStyle(page, 'compliance-lens-badge{mask-image:linear-gradient(transparent,transparent)!important}');
  await page.evaluate(
    (href) => {
      const anchor = document.createElement('a');
      anchor.id = 'ghost';
      anchor.href = href;
      anchor.textContent = 'offer';
      anchor.style.cssText = 'position:absolute;left:200px;top:400px;z-index:10;font:16px system-ui;color:transparent';
      document.body.append(anchor);
    },
    pageToken(serviceOrigin, 0),
  );
  const badge = hostile.badgeAfter('ghost');
  await expect(badge).toHaveAttribute('data-state', 'idle');
  const box = await badge.boundingBox();
  if (!box) throw new Error('badge not laid out');
  await page.evaluate((at) => {
    const decoy = document.createElement('button');
    decoy.textContent = 'Continue';
    decoy.style.cssText = `position:absolute;left:${at.x - 40}px;top:${at.y - 12}px;width:${at.width + 80}px;height:${at.height + 24}px;z-index:1;background:#2563eb;color:#fff;border:0`;
    document.body.append(decoy);
  }, box);
  for (let i = 0; i < 6; i++) {
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await waitLongerThanHoverDelay();
    await page.evaluate(() => document.querySelector('compliance-lens-card')?.remove());
    await retarget(page, pageToken(serviceOrigin, i + 1));
  }
  await page.locator('#ghost').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await waitLongerThanHoverDelay();
  expect(fetched).toEqual([]);

  await page.keyboard.press('Escape');
  await page.mouse.move(5, 5);
  await hostile.badgeAfter('share').click();
  await expectCardAtOneView(hostile, deal, fetched);
});

test('a page that rewrites a badge’s style or adds attributes to hide it gets them put back', async ({ context, deal }) => {
  const hostile = await openHostilePage(context, deal.link.shareUrl);
  const badge = hostile.badgeAfter('share');
  await expect(badge).toHaveAttribute('data-state', 'idle');
  const style = await badge.getAttribute('style');
  await badge.evaluate((host) => {
    host.setAttribute('style', 'opacity:0');
    host.setAttribute('inert', '');
    if (host instanceof HTMLElement) host.style.setProperty('display', 'none', 'important');
  });
  await expect(badge).toHaveAttribute('style', style ?? '');
  await expect(badge).not.toHaveAttribute('inert');
  await expect(badge).toBeVisible();
});

test('a full-width link is a link too: a rest on it opens its card with the snapshot (one view)', async ({ context, deal }) => {
  const hostile = await openHostilePage(context, 'https://example.org/none');
  const { page } = hostile;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate((href) => {
    const anchor = document.createElement('a');
    anchor.id = 'wide';
    anchor.href = href;
    anchor.textContent = 'Kobo Ledger – compliance snapshot for the investment committee';
    anchor.style.cssText = 'display:block;width:100%;font:13px/17px Arial';
    document.body.prepend(anchor);
  }, deal.link.shareUrl);
  await expect(hostile.badgeAfter('wide')).toHaveAttribute('data-state', 'idle');
  const width = await page.locator('#wide').evaluate((anchor) => anchor.getBoundingClientRect().width);
  expect(width).toBeGreaterThan(1200);
  await restOn(page.locator('#wide'));
  await expect((await hostile.card.opened()).companyName).toHaveText(deal.name);
  expect(await deal.views()).toBe(1);
});
