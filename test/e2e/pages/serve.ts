import type { BrowserContext } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { escapeHtml } from '../../support/html';

/** Fixture pages are served from here: a loopback origin the content script runs on (any port). */
export const PAGES_ORIGIN = 'http://localhost:5999';
/** The generated deal-flow page (`serveDealPage`): another loopback origin, so both can be served at once. */
export const DEALS_ORIGIN = 'http://localhost:5996';

const pagesDir = import.meta.dirname;

/** An origin the content script does not run on (neither a loopback name nor a matched site). */
export const UNCONFIGURED_ORIGIN = 'http://unconfigured.test:5995';

/**
 * Serves `test/e2e/pages/*.html` at `<origin>/<name>.html` (`PAGES_ORIGIN` unless given) through the
 * browser context's router, replacing `{{KEY}}` placeholders. Values are inserted as given: callers
 * encode them for their spot.
 */
export async function servePages(context: BrowserContext, values: Record<string, string>, origin = PAGES_ORIGIN): Promise<void> {
  await context.route(`${origin}/**`, async (route) => {
    const name = path.basename(new URL(route.request().url()).pathname);
    if (!/^[a-z0-9-]+\.html$/.test(name)) return route.fulfill({ status: 404, body: 'not found' });
    let html: string;
    try {
      html = await readFile(path.join(pagesDir, name), 'utf8');
    } catch {
      return route.fulfill({ status: 404, body: 'not found' });
    }
    const body = html.replace(/\{\{([A-Z0-9_]+)\}\}/g, (match, key: string) => values[key] ?? match);
    return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
  });
}

/** Placeholder values for the mail fixture pages, for one share link. */
export function mailPageValues(link: { shareUrl: string; apiUrl: string; token: string }, serviceOrigin: string) {
  const service = new URL(serviceOrigin);
  const other = `${serviceOrigin}/share/${'Z'.repeat(43)}`;
  return {
    SHARE_URL: escapeHtml(link.shareUrl),
    API_URL: escapeHtml(link.apiUrl),
    SHARE_URL_ENC: encodeURIComponent(link.shareUrl),
    API_URL_ENC: encodeURIComponent(link.apiUrl),
    OTHER_URL_ENC: encodeURIComponent(other),
    LOOKALIKE_HOST: escapeHtml(`http://${service.hostname}.evil.localhost:${service.port}/share/${link.token}`),
    LOOKALIKE_PATH: escapeHtml(`http://evil.localhost:${service.port}/${service.host}/share/${link.token}`),
    PROOFPOINT_URL: escapeHtml(`https://urldefense.com/v3/__${link.apiUrl}__;!!K-Hz7m0Vt54!lqpl1Sy9GIEK$`),
    SERVICE_ORIGIN_JSON: JSON.stringify(serviceOrigin),
  };
}

/** A link of the deal-flow page with the words the page shows for it ("snapshot" when only an href is given). */
export interface DealLink {
  href: string;
  text: string;
}

/**
 * A CRM-like deal-flow list of the given links at `DEALS_ORIGIN/<any path>`; `window.addDeal(href)`
 * appends a row later, as a CRM's list does.
 */
export async function serveDealPage(context: BrowserContext, links: readonly (string | DealLink)[]): Promise<void> {
  const rows = links
    .map((link, index) => {
      const { href, text } = typeof link === 'string' ? { href: link, text: 'snapshot' } : link;
      return `<li>Deal ${index + 1}: <a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`;
    })
    .join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Deal flow</title></head><body><h1>Deal flow</h1><ul id="deals">${rows}</ul>
<script>window.addDeal = (href) => { const li = document.createElement('li'); const a = document.createElement('a'); a.href = href; a.textContent = 'snapshot'; li.append('New deal: ', a); document.getElementById('deals').append(li); };</script></body></html>`;
  await context.route(`${DEALS_ORIGIN}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
  );
}
