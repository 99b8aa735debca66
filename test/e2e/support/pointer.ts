import type { Locator } from '@playwright/test';

/**
 * A person's pointer comes to rest on `target` (at the middle of its first line, or at `at` in the
 * page's viewport): it moves there from a little to the left, in steps, as a hand does. A rest counts
 * only once the pointer itself moved onto a link or its badge (docs/security.md section 1):
 * Playwright's `hover()` jumps there in one move, which a document that saw no move before cannot tell
 * from content moved under a still pointer. The middle of a wrapped link's box may be off the link.
 */
export async function restOn(target: Locator, at?: { x: number; y: number }): Promise<void> {
  // Into view first without Playwright's stability wait: a cross-origin frame off screen gets no
  // animation frames in Chromium, so that wait would never end; then waited for as usual.
  await target.evaluate((element) => element.scrollIntoView({ block: 'nearest', inline: 'nearest' }));
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('restOn: the target is not laid out');
  // The first line's box, from the element's own frame (boundingBox is in the page's viewport).
  const line = await target.evaluate((element) => {
    const all = element.getBoundingClientRect();
    const first = element.getClientRects()[0] ?? all;
    return { dx: first.left - all.left, dy: first.top - all.top, width: first.width, height: first.height };
  });
  const x = at?.x ?? box.x + line.dx + line.width / 2;
  const y = at?.y ?? box.y + line.dy + line.height / 2;
  const page = target.page();
  await page.mouse.move(x - 10, y);
  // A frame apart: the browser hands a page the moves of one frame as one (coalesced) event.
  await page.waitForTimeout(40);
  await page.mouse.move(x, y, { steps: 3 });
}
