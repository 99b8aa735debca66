// Draws the extension's icons (toolbar, extensions page, store: 16, 32, 48, 128 px, and the
// notification icon) from the one product mark (lib/core/brand.ts) into public/icon/, by rendering
// the SVG in Debian's Chromium (test/support/chromium.ts) with a transparent background.
// Usage: npx tsx scripts/icons.ts   (run again after changing the mark or the palette; commit the PNGs)
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { brandMarkSvg } from '../lib/core/brand';
import { chromiumPath } from '../test/support/chromium';

const ICON_SIZES = [16, 32, 48, 128] as const;
const outDir = path.resolve(import.meta.dirname, '../public/icon');

const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  mkdirSync(outDir, { recursive: true });
  for (const size of ICON_SIZES) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent">${brandMarkSvg({ size, attributes: 'style="display:block"' })}</body></html>`,
    );
    await page.screenshot({ path: path.join(outDir, `${size}.png`), omitBackground: true });
    await page.close();
    console.log(`wrote public/icon/${size}.png`);
  }
  // The watchlist's notifications show the same mark (the background names this file).
  copyFileSync(path.join(outDir, '128.png'), path.resolve(outDir, '../notification-icon.png'));
  console.log('wrote public/notification-icon.png');
} finally {
  await browser.close();
}
