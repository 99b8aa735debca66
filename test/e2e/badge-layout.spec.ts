import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { BADGE_GAP } from '@/lib/core/badge-look';
import { serveHtml } from './pages/serve';
import { expect, test } from './support/fixtures';
import { clippedBadges, coveredCharacters } from './support/reading';
import { createDeal, type TestServer } from './support/server';

/**
 * Every kind of place a link sits (issue #32): running text in a narrow column, a link ending a full
 * line, a block link, a block image, a narrow table cell, a cell that does not wrap, a flex row, a
 * grid. The badge takes its own room beside its link and covers no word of the page, none is cut
 * off, and each keeps its size through every state. (Pages written like mail, CRMs and documents:
 * badge-reading.spec.ts.)
 */

test.use({ withTestService: true });

/** A matched origin (the content script runs on localhost), served by the test's route. */
const ORIGIN = 'http://localhost:5995';
const screenshots = path.resolve(import.meta.dirname, '../../test-results/glance');

function layoutPage(share: (index: number) => string): string {
  const a = (index: number, text: string, attributes = '') => `<a id="l${index}" href="${share(index)}"${attributes}>${text}</a>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Layout</title>
<style>body{font:15px/1.45 Georgia,serif;margin:16px;width:760px} td{border:1px solid #ccc;padding:4px;vertical-align:top}</style></head><body>
<h1>Badges take no room</h1>
<p id="running" style="width:230px">Ahead of Thursday, the founders sent ${a(0, 'their snapshot')} and a second one ${a(1, 'here')}, plus the
long one ${a(2, 'Series A data room for the investment committee')} which wraps across lines, then more words after it.</p>
<p id="full" style="width:200px">Exactly filling this line: ${a(3, 'snapshotsnapshot')}</p>
${a(4, '<div id="block-title" style="padding:6px;border:1px solid #999">A card: Kobo Ledger Ltd compliance</div>')}
<p id="after-block">The paragraph after a block link.</p>
${a(5, 'A link set as a block', ' style="display:block"')}
<p id="after-display-block">The paragraph after a display:block link.</p>
${a(6, '<img alt="Logo" width="120" height="40" style="display:block;background:#ddd">')}
<p id="after-image">The paragraph after a block image link.</p>
<table><tr><td style="width:90px">${a(7, 'Data room')}</td><td style="width:90px;white-space:nowrap">${a(8, 'Data room')}</td><td>Next cell</td></tr></table>
<div id="flex" style="display:flex;gap:12px">${a(9, 'Flex item')}<span id="flex-next">Next item</span></div>
<div id="grid" style="display:grid;grid-template-columns:repeat(3,100px)">${a(10, 'Grid item')}<span id="grid-2">Two</span><span id="grid-3">Three</span></div>
<p id="end">End.</p></body></html>`;
}

async function openLayoutPage(page: Page, server: TestServer, count: number): Promise<void> {
  const deal = await createDeal(server.baseUrl, 'Kobo Ledger Ltd');
  const html = layoutPage((index) => (index === 0 ? deal.link.shareUrl : `${server.baseUrl}/share/${'L'.repeat(40)}${index}`));
  await serveHtml(page.context(), `${ORIGIN}/**`, html);
  await page.goto(`${ORIGIN}/layout.html`);
  await expect(page.locator('compliance-lens-badge')).toHaveCount(count);
  // Every badge drawn (they are drawn as they come near the viewport; drawing chooses the page's scheme).
  await expect(page.locator('compliance-lens-badge[data-scheme]')).toHaveCount(count);
}

test('no word of the page under a badge and no badge cut off: running text, a full line, block links, a block image, narrow cells, flex, grid', async ({
  context,
  server,
}) => {
  const page = await context.newPage();
  await openLayoutPage(page, server, 11);
  mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, 'badge-layout.png'), fullPage: true });
  expect(await coveredCharacters(page)).toEqual([]);
  expect(await clippedBadges(page)).toEqual([]);
});

test('a badge keeps its size in every state, and stays next to its link', async ({ context, server }) => {
  const page = await context.newPage();
  await openLayoutPage(page, server, 11);
  const badges = page.locator('compliance-lens-badge');
  const sizes = async () =>
    (await badges.evaluateAll((hosts) => hosts.map((host) => host.getBoundingClientRect()))).map(
      (box) => `${Math.round(box.width)}×${Math.round(box.height)}`,
    );
  const before = await sizes();
  // Loaded (ready) and not found (an unknown token): the same size.
  await page.locator('#l0 + compliance-lens-badge').click();
  await expect(page.locator('#l0 + compliance-lens-badge')).toHaveAttribute('data-state', 'ready');
  await page.keyboard.press('Escape');
  await page.locator('#l1 + compliance-lens-badge').click();
  await expect(page.locator('#l1 + compliance-lens-badge')).toHaveAttribute('data-error-code', 'NOT_FOUND');
  expect(await sizes()).toEqual(before);
  // Next to its link: the running-text badge starts where its link's last line ends (the link may
  // wrap: "their" ending one line, "snapshot" starting the next, with fonts of other widths).
  const { lastLine, badge } = await page.locator('#l0').evaluate((link) => {
    const line = [...link.getClientRects()].at(-1);
    const host = link.nextElementSibling;
    if (!host) throw new Error('no badge after the link');
    const box = host.getBoundingClientRect();
    return {
      lastLine: line && { right: line.right, top: line.top, bottom: line.bottom },
      badge: { x: box.x, middle: box.y + box.height / 2 },
    };
  });
  if (!lastLine) throw new Error('not laid out');
  expect(badge.x).toBeGreaterThanOrEqual(lastLine.right + BADGE_GAP - 1);
  expect(badge.x).toBeLessThan(lastLine.right + BADGE_GAP + 1);
  // On that line, not on the next one.
  expect(badge.middle).toBeGreaterThan(lastLine.top);
  expect(badge.middle).toBeLessThan(lastLine.bottom);
});

test('a block link, a logo, a card, a grid cell and a flex item: the chip stands just after what the link shows, centred on it', async ({
  context,
  server,
}) => {
  const page = await context.newPage();
  await openLayoutPage(page, server, 11);
  // The last painted box of the link's content (its words or its image) against its chip.
  const places = await page.evaluate(
    (ids) => {
      return ids.map((id) => {
        const link = document.getElementById(id);
        const host = link?.nextElementSibling;
        if (!link || !host) throw new Error(`no badge after #${id}`);
        const range = document.createRange();
        range.selectNodeContents(link);
        const content = [...range.getClientRects()].filter((box) => box.width > 0 && box.height > 0).at(-1);
        if (!content) throw new Error(`#${id} shows nothing`);
        const chip = host.getBoundingClientRect();
        return {
          id,
          after: Math.round(chip.left - content.right),
          // Within a pixel (a flex row centres on whole pixels).
          centred: Math.abs((chip.top + chip.bottom) / 2 - (content.top + content.bottom) / 2) <= 1,
        };
      });
    },
    ['l4', 'l5', 'l6', 'l9', 'l10'],
  );
  // Beside it (at the usual gap: the flex row adds its own gap), not at the far end of the block,
  // and on its middle, not above or below it.
  expect(places).toEqual([
    { id: 'l4', after: BADGE_GAP, centred: true },
    { id: 'l5', after: BADGE_GAP, centred: true },
    { id: 'l6', after: BADGE_GAP, centred: true },
    { id: 'l9', after: BADGE_GAP + 12, centred: true },
    { id: 'l10', after: BADGE_GAP, centred: true },
  ]);
});

test('a positioned link the page moves with a transition or an animation: its chip follows it to where it stops, over no word', async ({
  context,
  server,
}) => {
  const share = (index: number) => `${server.baseUrl}/share/${'M'.repeat(40)}${index}`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Moving links</title>
<style>body{font:15px/1.45 Georgia,serif;margin:16px;width:760px}
@keyframes down{to{transform:translateY(160px)}}
.animated{animation:down .2s ease-out 1 forwards paused}</style></head><body>
<p id="words-top">Words that stay where the links start: the deal team reads them before the meeting on Thursday.</p>
<a id="slid" href="${share(1)}" style="position:absolute;left:40px;top:20px;transition:top .2s ease-out;background:#fff">Slide-in snapshot</a>
<a id="animated" class="animated" href="${share(2)}" style="position:absolute;left:360px;top:20px;background:#fff">Animated snapshot</a>
<p id="words-below" style="margin-top:160px">Words where the links stop: the notes from the first call and the open questions.</p>
</body></html>`;
  await serveHtml(context, `${ORIGIN}/**`, html);
  const page = await context.newPage();
  await page.goto(`${ORIGIN}/moving.html`);
  await expect(page.locator('compliance-lens-badge[data-scheme]')).toHaveCount(2);
  // Where each chip stands against its link's words (over their end: a positioned link is out of the flow).
  const places = () =>
    page.evaluate(() =>
      ['slid', 'animated'].map((id) => {
        const link = document.getElementById(id);
        const chip = link?.nextElementSibling?.getBoundingClientRect();
        const words = link?.getBoundingClientRect();
        if (!chip || !words) throw new Error(`no badge after #${id}`);
        return { id, x: Math.round(chip.left - words.right), y: Math.round(chip.top - words.top), top: Math.round(words.top) };
      }),
    );
  const before = await places();
  // The page moves both links once they are annotated: one by a transition of `top`, one by a CSS animation.
  await page.evaluate(() => {
    document.getElementById('slid')?.style.setProperty('top', '180px');
    document.getElementById('animated')?.style.setProperty('animation-play-state', 'running');
  });
  await page.waitForTimeout(600);
  const after = await places();
  // Both moved 160 px down, and each chip stands where it stood against its link.
  expect(
    after.map(({ id, x, y, top }) => ({ id, x, y, moved: top - (before.find((place) => place.id === id)?.top ?? 0) })),
  ).toEqual(before.map(({ id, x, y }) => ({ id, x, y, moved: 160 })));
  expect(await coveredCharacters(page)).toEqual([]);
});
