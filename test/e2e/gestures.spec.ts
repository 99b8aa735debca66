import type { BrowserContext, Page } from '@playwright/test';
import { escapeHtml } from '../support/html';
import { waitLongerThanHoverDelay } from '../support/timing';
import { PAGES_ORIGIN, serveHtml } from './pages/serve';
import { expect, test } from './support/fixtures';
import { openHostilePage, pageToken, recordSnapshotRequests } from './support/hostile';
import type { AnnotatedPage } from './support/web-page';
import { restOn } from './support/pointer';

/**
 * No fetch of a snapshot unless a person made a gesture they could see, on a link they could see
 * (DESIGN decision 1; issue #26 items 1 and 2, docs/security.md "No fetch without a visible, intended
 * gesture"). A hostile page makes the link, its badge or the frame around it invisible or covers them,
 * puts a decoy where the user will click or rest, and changes the link to a token of its choosing
 * after each gesture. Each page-chosen token fetched would be a view for some founder: the tests count
 * the service worker's snapshot requests.
 */

test.use({ withTestService: true });

const openPage = (context: BrowserContext, shareUrl: string): Promise<AnnotatedPage> => openHostilePage(context, shareUrl);

/** The centre of an element's box in the page's viewport. */
async function centreOf(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} not laid out`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * The click-jacking page (issue #26 item 1): a share link `#jack` with its badge, shown the way `mode`
 * says, and a decoy "Continue" button where the badge is. After each press the page points the link at
 * a new token of its own and removes the card.
 */
async function plantClickJack(page: Page, origin: string, mode: 'transparent' | 'popover' | 'shadow'): Promise<void> {
  await page.evaluate(
    ({ first, mode }) => {
      const wrap = document.createElement('div');
      wrap.id = 'jack-wrap';
      wrap.style.cssText = `position:absolute;left:200px;top:400px;z-index:10;font:16px system-ui${mode === 'popover' ? '' : ';opacity:0.01'}`;
      const anchor = document.createElement('a');
      anchor.id = 'jack';
      anchor.href = first;
      anchor.textContent = 'offer';
      // In a web component: the styles that hide it are its shadow host's.
      (mode === 'shadow' ? wrap.attachShadow({ mode: 'open' }) : wrap).append(anchor);
      Object.assign(window, { __jack: anchor });
      document.body.append(wrap);
    },
    { first: pageToken(origin, 0), mode },
  );
  await expect(page.locator('#jack + compliance-lens-badge')).toHaveAttribute('data-state', 'idle');
  await page.locator('#jack + compliance-lens-badge').scrollIntoViewIfNeeded();
  const badge = await page.locator('#jack + compliance-lens-badge').boundingBox();
  if (!badge) throw new Error('badge not laid out');
  await page.evaluate(
    ({ badge, mode, origin }) => {
      const decoy = document.createElement(mode === 'popover' ? 'div' : 'button');
      decoy.textContent = 'Continue';
      const place = `left:${badge.x - 40}px;top:${badge.y - 12}px;width:${badge.width + 80}px;height:${badge.height + 24}px`;
      if (mode === 'popover') {
        // The top layer, above everything, letting clicks through to the badge below.
        decoy.setAttribute('popover', 'manual');
        decoy.style.cssText = `position:fixed;margin:0;inset:auto;${place};pointer-events:none;background:#2563eb;color:#fff;border:0`;
        document.body.append(decoy);
        decoy.showPopover();
      } else {
        // Below the transparent link and badge, which take the click.
        decoy.style.cssText = `position:fixed;${place};z-index:1;background:#2563eb;color:#fff;border:0`;
        document.body.append(decoy);
      }
      let n = 0;
      const attack = new AbortController();
      window.addEventListener('stop-attack', () => attack.abort());
      window.addEventListener(
        'pointerup',
        () =>
          setTimeout(() => {
            n += 1;
            const anchor: unknown = Reflect.get(window, '__jack');
            if (anchor instanceof HTMLAnchorElement)
              anchor.href = `${origin}/share/${'P'.repeat(37)}${String(n).padStart(6, '0')}`;
            document.querySelector('compliance-lens-card')?.remove();
          }, 300),
        { capture: true, signal: attack.signal },
      );
    },
    { badge, mode, origin },
  );
}

for (const { mode, presses, name } of [
  {
    mode: 'transparent',
    presses: 8,
    name: 'click-jacking the badge (transparent link and badge under a decoy) costs no view; a click on a visible badge costs exactly one (issue #26 item 1)',
  },
  {
    mode: 'shadow',
    presses: 4,
    name: 'click-jacking the badge (a link in a web component whose host is nearly transparent) costs no view; a click on a visible badge costs exactly one (issue #26 item 1)',
  },
  {
    mode: 'popover',
    presses: 12,
    name: 'click-jacking the badge (popover link and badge under a decoy) costs no view; a click on a visible badge costs exactly one (issue #26 item 1)',
  },
] as const) {
  test(name, async ({ context, serviceOrigin, deal }) => {
    const fetched = recordSnapshotRequests(context, serviceOrigin);
    const hostile = await openPage(context, deal.link.shareUrl);
    const { page } = hostile;
    await plantClickJack(page, serviceOrigin, mode);
    const decoy = await centreOf(page, '#jack + compliance-lens-badge');
    for (let i = 0; i < presses; i++) {
      await page.mouse.click(decoy.x, decoy.y);
      // The page swaps the link and removes the card 300 ms after the press.
      await waitLongerThanHoverDelay();
    }
    // The keyboard too: the page focuses its link, the user presses Tab (onto the badge) and Enter.
    await page.locator('#jack').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await waitLongerThanHoverDelay();
    expect(fetched).toEqual([]);

    // A click on a visible badge, nothing over it: one view, the card shows the snapshot.
    await page.evaluate(() => {
      window.dispatchEvent(new Event('stop-attack'));
      document.querySelectorAll('[popover]').forEach((element) => element.remove());
    });
    await page.mouse.move(5, 5);
    await hostile.badgeAfter('share').click();
    await expect((await hostile.card.opened()).companyName).toHaveText(deal.name);
    expect(await deal.views()).toBe(1);
    expect(fetched).toEqual([`${serviceOrigin}/api/v1/compliance-status/${deal.link.token}`]);
  });
}

test('an invisible frame under the pointer with a link the page keeps changing costs no view; a link in a visible mail body costs one (issue #26 item 2)', async ({
  context,
  serviceOrigin,
  deal,
}) => {
  const fetched = recordSnapshotRequests(context, serviceOrigin);
  const hostile = await openPage(context, 'https://example.org/none');
  const { page } = hostile;
  const bodyOf = (href: string, id: string) =>
    `<a id='${id}' href='${href}' style='display:block;width:150px;height:150px;font:16px system-ui'>offer</a>`;
  await page.evaluate(
    ({ trap, body }) => {
      // A transparent 150 × 150 frame where the pointer will rest, filled with one share link.
      const frame = document.createElement('iframe');
      frame.id = 'trap';
      frame.srcdoc = `<body style='margin:0'>${trap}</body>`;
      frame.style.cssText = 'position:absolute;left:300px;top:300px;width:150px;height:150px;border:0;opacity:0';
      // A visible mail body with a real link.
      const mail = document.createElement('iframe');
      mail.id = 'mail';
      mail.srcdoc = `<body style='margin:8px'><p>Our status: ${body}</p></body>`;
      mail.style.cssText = 'position:absolute;left:20px;top:520px;width:400px;height:80px;border:1px solid #ccc';
      document.body.append(frame, mail);
    },
    {
      trap: bodyOf(pageToken(serviceOrigin, 0), 'offer'),
      body: `<a id='share' href='${escapeHtml(deal.link.shareUrl)}'>snapshot</a>`,
    },
  );
  const trap = page.frameLocator('#trap');
  await expect(trap.locator('#offer + compliance-lens-badge')).toHaveAttribute('data-state', 'idle');
  for (let i = 0; i < 14; i++) {
    await page.mouse.move(5, 5);
    await hostile.card.expectClosed();
    await page.mouse.move(360 + (i % 3), 340);
    await waitLongerThanHoverDelay();
    // The page points its link at a new token after each pause.
    await trap.locator('#offer').evaluate((anchor, href) => anchor.setAttribute('href', href), pageToken(serviceOrigin, i + 1));
  }
  expect(fetched).toEqual([]);
  // Each rest drew a card that offers Load instead (a real click on it would be a visible gesture).
  await expect((await hostile.card.frame()).getByTestId('not-loaded')).toBeVisible();

  await page.mouse.move(5, 5);
  await hostile.card.expectClosed();
  await restOn(page.frameLocator('#mail').locator('#share'));
  await expect((await hostile.card.opened()).companyName).toHaveText(deal.name);
  expect(await deal.views()).toBe(1);
  expect(fetched).toHaveLength(1);
});

test('a badge follows its link’s visibility: a hidden ancestor, the link’s own visibility or display, content-visibility, also when they change after it is drawn (issue #27 item 11)', async ({
  context,
  deal,
}) => {
  const hostile = await openPage(context, deal.link.shareUrl);
  const { page } = hostile;
  await page.evaluate((href) => {
    const cases = ['ancestor', 'own', 'display', 'content', 'later-ancestor', 'later-own', 'later-display'];
    for (const name of cases) {
      const box = document.createElement('div');
      box.id = `box-${name}`;
      box.style.cssText = name === 'content' ? 'content-visibility:hidden' : name === 'ancestor' ? 'visibility:hidden' : '';
      const anchor = document.createElement('a');
      anchor.id = name;
      anchor.href = href;
      anchor.textContent = `link ${name}`;
      if (name === 'own') anchor.style.visibility = 'hidden';
      if (name === 'display') anchor.style.display = 'none';
      box.append('Snapshot: ', anchor);
      document.body.append(box);
    }
  }, deal.link.shareUrl);
  // Drawn while visible, then hidden by the page.
  for (const name of ['later-ancestor', 'later-own', 'later-display']) {
    await expect(hostile.badgeAfter(name)).toBeVisible();
  }
  await expect(hostile.badgeAfter('share')).toBeVisible();
  await page.evaluate(() => {
    document.getElementById('box-later-ancestor')?.style.setProperty('visibility', 'hidden');
    document.getElementById('later-own')?.style.setProperty('visibility', 'hidden');
    document.getElementById('later-display')?.classList.add('gone');
    const style = document.createElement('style');
    style.textContent = '.gone { display: none }';
    document.head.append(style);
  });
  for (const name of ['ancestor', 'own', 'display', 'content', 'later-ancestor', 'later-own', 'later-display']) {
    await expect(hostile.badgeAfter(name), name).toHaveCount(1);
    await expect(hostile.badgeAfter(name), name).toBeHidden();
  }
  // Shown again when the page shows the link again.
  await page.evaluate(() => document.getElementById('later-own')?.style.removeProperty('visibility'));
  await expect(hostile.badgeAfter('later-own')).toBeVisible();
  await expect(hostile.badgeAfter('share')).toBeVisible();
  expect(await deal.views()).toBe(0);
});

test('resting on the badge opens the card however the pointer got there: across a link too large to rest on (issue #27 item 11)', async ({
  context,
  deal,
}) => {
  const hostile = await openPage(context, 'https://example.org/none');
  const { page } = hostile;
  await page.evaluate((href) => {
    const anchor = document.createElement('a');
    anchor.id = 'big';
    anchor.href = href;
    anchor.textContent = 'Open the data room';
    anchor.style.cssText = 'display:inline-block;width:700px;height:400px;background:#eef';
    document.body.append(anchor);
  }, deal.link.shareUrl);
  const badge = hostile.badgeAfter('big');
  await expect(badge).toHaveAttribute('data-state', 'idle');
  const link = await page.locator('#big').boundingBox();
  const at = await badge.boundingBox();
  if (!link || !at) throw new Error('not laid out');
  // Into the link, rest there (too large: no card), then along it onto its badge, and rest.
  await page.mouse.move(link.x + 20, link.y + link.height - 10);
  await waitLongerThanHoverDelay();
  await hostile.card.expectClosed();
  await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2, { steps: 4 });
  await expect((await hostile.card.opened()).companyName).toHaveText(deal.name);
  expect(await deal.views()).toBe(1);
});

test('a page that learns the card’s window from its messages cannot put a look-alike in the card’s place, nor read its name (issue #26 item 4)', async ({
  context,
  deal,
}) => {
  const hostile = await openPage(context, deal.link.shareUrl);
  const { page } = hostile;
  await serveHtml(
    context,
    `${PAGES_ORIGIN}/look-alike.html`,
    `<!doctype html><title>Look-alike</title><h1 id="fake">Kobo Ledger Ltd · 99 · Regulator Ready</h1>
        <script>parent.postMessage({ lookAlike: window.name }, '*');</script>`,
  );
  await page.evaluate((target) => {
    const seen = { names: [] as string[], navigated: false };
    Object.assign(window, { __lookAlike: seen });
    window.addEventListener('message', (event) => {
      const data: unknown = event.data;
      if (typeof data !== 'object' || data === null) return;
      if ('lookAlike' in data) seen.names.push(String(data.lookAlike));
      // The card page's messages hand the page the card's window: load a look-alike into it.
      if ('source' in data && data.source === 'compliance-lens-card' && !seen.navigated && event.source) {
        seen.navigated = true;
        if ('location' in event.source) event.source.location.href = target;
      }
    });
  }, `${PAGES_ORIGIN}/look-alike.html`);
  await hostile.restOn('share');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __lookAlike: { names: string[] } }).__lookAlike.names.length))
    .toBe(1);
  // The card had cleared its name: the look-alike read nothing.
  expect(await page.evaluate(() => (window as unknown as { __lookAlike: { names: string[] } }).__lookAlike.names)).toEqual(['']);
  // The look-alike loaded where the card was: the card is gone, with its frame.
  await hostile.card.expectClosed();
  const inCardHost = async () => {
    for (const frame of page.frames()) {
      if (!frame.url().endsWith('/look-alike.html') || frame.isDetached()) continue;
      const element = await frame.frameElement().catch(() => null);
      const ours = await element?.evaluate((iframe) => {
        const root = iframe.getRootNode();
        return root instanceof ShadowRoot && root.host.localName === 'compliance-lens-card';
      });
      if (ours) return true;
    }
    return false;
  };
  expect(await inCardHost()).toBe(false);
});

test('no window message the page can hear carries the extension’s id, during load and hover, in the top document and in a frame (issue #26 item 7)', async ({
  context,
  extensionId,
  deal,
}) => {
  await context.addInitScript(() => {
    const heard: { origin: string; data: string }[] = [];
    Object.assign(window, { __heard: heard });
    window.addEventListener('message', (event) => heard.push({ origin: event.origin, data: JSON.stringify(event.data) }), true);
  });
  const hostile = await openPage(context, deal.link.shareUrl);
  const { page } = hostile;
  await page.evaluate((href) => {
    const mail = document.createElement('iframe');
    mail.id = 'mail';
    mail.srcdoc = `<p>Status: <a id="in-frame" href="${href}">snapshot</a></p>`;
    document.body.append(mail);
  }, deal.link.shareUrl);
  const frame = page.frameLocator('#mail');
  await expect(frame.locator('#in-frame + compliance-lens-badge')).toHaveAttribute('data-state', 'idle');
  await hostile.restOn('share');
  await expect((await hostile.card.opened()).companyName).toHaveText(deal.name);
  await hostile.closeCardByLeaving();
  await restOn(frame.locator('#in-frame'));
  await expect((await hostile.card.opened()).companyName).toHaveText(deal.name);
  const heard: { origin: string; data: string }[] = [];
  for (const each of page.frames()) {
    if (each.url().startsWith('chrome-extension:')) continue;
    heard.push(
      ...(await each.evaluate(() => (window as unknown as { __heard?: { origin: string; data: string }[] }).__heard ?? [])),
    );
  }
  // The page heard the card's own messages (size, hover) and the frames' signals: none says the
  // extension's id (WXT's "content-script-started" did, before lib/content/shared/lifetime.ts).
  expect(heard.length).toBeGreaterThan(0);
  expect(heard.filter(({ data }) => data.includes(extensionId))).toEqual([]);
  // Known and written down (docs/security.md): the card page's own messages come from the extension's
  // origin, which names the id; nothing else the page hears does.
  const fromExtension = heard.filter(({ origin }) => origin.includes(extensionId));
  expect(fromExtension.every(({ data }) => data.includes('"source":"compliance-lens-card"'))).toBe(true);
});
