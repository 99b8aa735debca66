// The first pages after the browser starts: how long until their badges appear. The browser's first
// read of the administrator policy (storage.managed) took 2.6-3.3 s here; content scripts must not
// wait for it (lib/extension/settings.ts createManagedPolicyReader). Reported, never asserted.
import type { BrowserContext } from '@playwright/test';
import { launch } from '../support/chromium';

const PAGES_ORIGIN = 'http://localhost:5999';
const SHARE_LINK = `http://127.0.0.1:8787/share/tok_0000001_${'x'.repeat(32)}`;

/** The page notes, itself, when its badge appears (ms since its navigation start). */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cold start</title><script>
window.__badgeAt = null;
new MutationObserver(() => {
  if (window.__badgeAt === null && document.querySelector('compliance-lens-badge')) window.__badgeAt = performance.now();
}).observe(document, { childList: true, subtree: true });
</script></head><body><p>Our status: <a href="${SHARE_LINK}">compliance snapshot</a></p></body></html>`;

export interface ColdStartRow {
  launch: number;
  'first page: badge after (ms)': number | null;
  'second page: badge after (ms)': number | null;
}

async function badgeAfter(context: BrowserContext, name: string): Promise<number | null> {
  const page = await context.newPage();
  try {
    await page.goto(`${PAGES_ORIGIN}/${name}.html`);
    const at = await page
      .waitForFunction(() => (window as unknown as { __badgeAt: number | null }).__badgeAt, null, {
        timeout: 20_000,
        polling: 100,
      })
      .then((handle) => handle.jsonValue())
      .catch(() => null);
    return typeof at === 'number' ? Math.round(at) : null;
  } finally {
    await page.close();
  }
}

export async function benchColdStart(launches: number): Promise<{ rows: ColdStartRow[]; notes: string[] }> {
  const rows: ColdStartRow[] = [];
  for (let i = 1; i <= launches; i++) {
    const browser = await launch(true);
    try {
      await browser.context.route(`${PAGES_ORIGIN}/**`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: PAGE }),
      );
      const first = await badgeAfter(browser.context, 'first');
      const second = await badgeAfter(browser.context, 'second');
      rows.push({ launch: i, 'first page: badge after (ms)': first, 'second page: badge after (ms)': second });
    } finally {
      await browser.close();
    }
  }
  return {
    rows,
    notes: [
      "A new browser profile per launch; the first page opens as soon as the extension's service worker is up, the second right after. Times are from the page's navigation start; null = no badge within 20 s.",
    ],
  };
}
