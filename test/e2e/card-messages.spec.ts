import type { Page, Worker } from '@playwright/test';
import { escapeHtml } from '../support/html';
import { LIST_ORIGIN } from './pages/serve';
import { expect, test } from './support/fixtures';
import { restOn } from './support/pointer';
import { createDeal } from './support/server';
import { AnnotatedPage } from './support/web-page';

/**
 * The messages of a real card (issue #35 item 1), counted one hop per direction, as
 * docs/architecture.md "A card, message by message" counts them. The background's side is recorded in
 * its worker: each request it receives (and so the one answer the protocol gives it), each push it
 * sends and its answer; the page's side in the top window: what the card page posts its host and
 * what a subframe posts the top window. Hops from the card's `openCard` (the first message after
 * intent) to its first `size` are the card's path; the rest came before intent (the card page loaded
 * ahead, the presenter) or tell the badge after it.
 */

test.use({ withTestService: true });

interface Hop {
  hop: string;
  at: number;
}

/** Records, from now on, in the service worker, every message it receives and every push it sends (with the push's answer). */
async function recordWorker(worker: Worker): Promise<void> {
  await worker.evaluate(() => {
    const scope = globalThis as unknown as { cardHops?: { hop: string; at: number }[] };
    const recording = scope.cardHops !== undefined;
    scope.cardHops = [];
    if (recording) return;
    const typeOf = (message: unknown) =>
      typeof message === 'object' && message !== null && 'type' in message ? String(message.type) : '?';
    const where = (frameId: number | undefined, url: string | undefined) =>
      url?.includes('/card.html') ? 'card page' : frameId === 0 ? 'top frame' : 'subframe';
    const note = (hop: string) => scope.cardHops?.push({ hop, at: Date.now() });
    chrome.runtime.onMessage.addListener((message, sender) => {
      const type = typeOf(message);
      note(`${type}: ${where(sender.frameId, sender.url)} → background`);
      return undefined; // only listens: the extension's own listener answers
    });
    const send = chrome.tabs.sendMessage.bind(chrome.tabs) as (...args: unknown[]) => Promise<unknown>;
    (chrome.tabs as unknown as { sendMessage: unknown }).sendMessage = async (...args: unknown[]) => {
      const [, message, options] = args;
      const frameId = typeof options === 'object' && options !== null && 'frameId' in options ? Number(options.frameId) : 0;
      const type = typeOf(message);
      note(`${type}: background → ${where(frameId, undefined)}`);
      const answer = await send(...args);
      note(`${type} answered: ${where(frameId, undefined)} → background`);
      return answer;
    };
  });
}

/** Records, from now on, what is posted to the top window: the card page's size, hover and close, a subframe's anchor key. */
async function recordTopWindow(page: Page): Promise<void> {
  await page.evaluate(() => {
    const scope = window as unknown as { cardHops?: { hop: string; at: number }[] };
    const recording = scope.cardHops !== undefined;
    scope.cardHops = [];
    if (recording) return;
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      const data = event.data;
      if (typeof data !== 'object' || data === null) return;
      const kind = 'kind' in data ? String(data.kind) : 'key' in data ? 'anchor key' : undefined;
      if (!kind) return;
      const from = event.origin.startsWith('chrome-extension:') ? 'card page' : 'subframe';
      scope.cardHops?.push({ hop: `${kind}: ${from} → top frame`, at: Date.now() });
    });
  });
}

/** A snapshot slower than `CARD_AHEAD_CLAIM_WAIT_MS` has the card page wait once more (a loaded machine's fetch can be). */
const SECOND_WAIT = 'awaitCard: card page → background';

/**
 * The card's path: the hops from its first message after intent (`openCard`, or a subframe's anchor
 * key) to its first `size`, in order, without the badges' `badgeChanged`, which go out beside it, not
 * on it (the card does not wait for them), nor the card page's `getWatch`, asked once the card is
 * drawn (for its Watch button); what came before intent; and the badges' pushes.
 */
async function cardPath(worker: Worker, page: Page) {
  const fromWorker = await worker.evaluate(() => (globalThis as unknown as { cardHops?: Hop[] }).cardHops ?? []);
  const fromPage = await page.evaluate(() => (window as unknown as { cardHops?: Hop[] }).cardHops ?? []);
  const all = [...fromWorker, ...fromPage].sort((a, b) => a.at - b.at).map(({ hop }) => hop);
  const start = all.findIndex((hop) => hop.startsWith('openCard:') || hop.startsWith('anchor key:'));
  const end = all.findIndex((hop) => hop.startsWith('size:'));
  expect(start, 'openCard was sent').toBeGreaterThanOrEqual(0);
  expect(end, 'the card posted its size').toBeGreaterThan(start);
  const isBadge = (hop: string) => hop.startsWith('badgeChanged');
  return {
    before: all.slice(0, start),
    path: all.slice(start, end + 1).filter((hop) => !isBadge(hop) && !hop.startsWith('getWatch:')),
    badges: all.filter(isBadge),
  };
}

function framePage(url: string): string {
  const link = `<a id="deal" href="${escapeHtml(url)}">Kobo data room</a>`;
  const inner = `<!doctype html><p style="font:16px sans-serif">See ${link} before Friday.</p>`;
  return `<!doctype html><html><body style="font:16px sans-serif">
    <p>Top: <a id="top" href="${escapeHtml(url)}">Kobo data room</a> before Friday.</p>
    <iframe id="frame" style="width:480px;height:120px;border:0" srcdoc="${escapeHtml(inner)}"></iframe>
  </body></html>`;
}

test('a card takes the hops docs/architecture.md counts, one per direction: 5 on its path in the top frame, 6 in a subframe (card page loaded ahead)', async ({
  context,
  server,
  serviceWorker,
}) => {
  const deal = await createDeal(server.baseUrl, 'Kobo Ledger Ltd');
  await context.route(`${LIST_ORIGIN}/card-messages.html`, (route) =>
    route.fulfill({ contentType: 'text/html', body: framePage(deal.link.shareUrl) }),
  );
  const mail = await AnnotatedPage.open(context, `${LIST_ORIGIN}/card-messages.html`);
  const frame = mail.page.frameLocator('#frame');
  await expect(mail.badgeAfter('top')).toHaveAttribute('data-state', 'idle');
  await expect(frame.locator('#deal + compliance-lens-badge')).toHaveAttribute('data-state', 'idle');

  // The top frame's link, not cached yet.
  await recordWorker(serviceWorker);
  await recordTopWindow(mail.page);
  await restOn(mail.link('top'));
  await expect((await mail.card.opened()).companyName).toHaveText('Kobo Ledger Ltd');
  await expect(mail.badgeAfter('top')).toHaveAttribute('data-state', 'ready');
  const top = await cardPath(serviceWorker, mail.page);
  // The card page loaded ahead waited before intent: the answer to that wait, with the card, is the
  // path's one hop the worker cannot see (every request gets one answer).
  expect(top.before).toContain('awaitCard: card page → background');
  expect(top.path.filter((hop) => hop !== SECOND_WAIT)).toEqual([
    'openCard: top frame → background',
    'showCard: background → top frame',
    'showCard answered: top frame → background',
    'size: card page → top frame',
  ]);
  // Each frame that shows the link hears its badge once.
  await expect
    .poll(async () => (await cardPath(serviceWorker, mail.page)).badges)
    .toEqual(
      expect.arrayContaining([
        'badgeChanged: background → top frame',
        'badgeChanged: background → subframe',
        'badgeChanged answered: top frame → background',
        'badgeChanged answered: subframe → background',
      ]),
    );
  expect((await cardPath(serviceWorker, mail.page)).badges).toHaveLength(4);

  // The same link in a subframe, cached now: nothing for the badges.
  await mail.page.mouse.move(600, 400, { steps: 4 });
  await mail.card.expectClosed();
  await recordWorker(serviceWorker);
  await recordTopWindow(mail.page);
  await restOn(frame.locator('#deal'));
  await expect((await mail.card.opened()).companyName).toHaveText('Kobo Ledger Ltd');
  const sub = await cardPath(serviceWorker, mail.page);
  expect(sub.before).toContain('awaitCard: card page → background');
  // The subframe sends its anchor key and openCard at once, to two processes that note them in
  // milliseconds: either may be noted first. Every hop after them waits for both.
  expect(sub.path.slice(0, 2).sort()).toEqual(['anchor key: subframe → top frame', 'openCard: subframe → background']);
  expect(sub.path.slice(2)).toEqual([
    'showCard: background → top frame',
    'showCard answered: top frame → background',
    'size: card page → top frame',
  ]);
  expect(sub.badges).toEqual([]);
});
