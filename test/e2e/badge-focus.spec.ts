import { PAGES_ORIGIN, servePages } from './pages/serve';
import { readingValues } from './pages/reading-pages';
import { artifactPath } from './support/artifacts';
import { expect, test } from './support/fixtures';

/**
 * Keyboard focus on a badge (issue #32, WCAG 2.4.7 and 2.4.13): the ring is seen on the page it sits
 * on, light or dark. Measured from the pixels a person sees: the badge and its surroundings before and
 * with focus, compared in the page; the pixels the ring changed must differ from what was there by a
 * contrast of at least 3:1, over at least the area of a 2 px line around the badge.
 */

test.use({ withTestService: true });

/** What this test reads of a node of Chromium's accessibility tree (CDP `Accessibility.AXNode`). */
interface AxNode {
  role?: { value?: unknown };
  name?: { value?: unknown };
  properties?: { name: string; value: { value?: unknown } }[];
}

/** In the page: the pixels of two PNG screenshots of one spot, the contrast of each changed pixel between them. */
async function ringContrast(pngs: { before: string; focused: string }) {
  const pixels = async (base64: string) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
  };
  const [before, focused] = await Promise.all([pixels(pngs.before), pixels(pngs.focused)]);
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = (data: Uint8ClampedArray, at: number) =>
    0.2126 * channel(data[at] ?? 0) + 0.7152 * channel(data[at + 1] ?? 0) + 0.0722 * channel(data[at + 2] ?? 0);
  let strong = 0;
  let best = 1;
  for (let at = 0; at < before.length; at += 4) {
    const [a, b] = [luminance(before, at), luminance(focused, at)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    best = Math.max(best, ratio);
    if (ratio >= 3) strong += 1;
  }
  return { strong, best };
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`a badge's focus ring is seen on a ${colorScheme} page: 3:1 against what it covers, all around the badge; its name says Compliance Lens`, async ({
    context,
    serviceOrigin,
  }) => {
    await servePages(context, readingValues(serviceOrigin));
    const page = await context.newPage();
    await page.emulateMedia({ colorScheme });
    await page.goto(`${PAGES_ORIGIN}/shared-doc.html`);
    await expect(page.locator(`compliance-lens-badge[data-scheme="${colorScheme}"]`)).toHaveCount(6);
    const link = page.locator('#d1');
    const badge = page.locator('#d1 + compliance-lens-badge');
    const box = await badge.boundingBox();
    if (!box) throw new Error('the badge is not laid out');
    const clip = { x: box.x - 6, y: box.y - 6, width: box.width + 12, height: box.height + 12 };

    const before = (await page.screenshot({ clip })).toString('base64');
    // The next tab stop after the link is its badge (a DESIGN.md test hook).
    await link.focus();
    await page.keyboard.press('Tab');
    await expect(badge).toBeFocused();
    // Not loaded, it says whose mark it is, to a colleague without the extension too: the browser's
    // accessibility tree (the badge's button is in a closed shadow root, out of Playwright's reach).
    const cdp = await context.newCDPSession(page);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
    const focused = nodes.find(
      (node) =>
        node.role?.value !== 'RootWebArea' && node.properties?.some((p) => p.name === 'focused' && p.value.value === true),
    );
    expect(focused?.role?.value).toBe('button');
    expect(String(focused?.name?.value)).toMatch(/^Compliance Lens: /);
    const shot = await page.screenshot({ clip });
    await page.screenshot({ path: artifactPath(`badge-focus-${colorScheme}.png`), clip });
    const { strong, best } = await page.evaluate(ringContrast, { before, focused: shot.toString('base64') });
    expect(best, 'the strongest change of contrast where the ring is').toBeGreaterThanOrEqual(3);
    // WCAG 2.4.13: at least the area of a 2 px thick perimeter of the badge, a pill (radius 8 px = half its height).
    const perimeter = 2 * (box.width - box.height) + Math.PI * box.height;
    expect(strong, 'pixels changed by at least 3:1').toBeGreaterThanOrEqual(2 * perimeter);
  });
}
