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

/** Serves `html` at `url` (a URL pattern of the browser context's router, e.g. `${PAGES_ORIGIN}/page.html`). */
export async function serveHtml(context: BrowserContext, url: string, html: string): Promise<void> {
  await context.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
}

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
    const body = fillPlaceholders(html, values);
    return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
  });
}

/** A fixture page with its `{{KEY}}` placeholders replaced (those without a value are left as they are). */
export function fillPlaceholders(html: string, values: Record<string, string>): string {
  return html.replace(/\{\{([A-Z0-9_]+)\}\}/g, (match, key: string) => values[key] ?? match);
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
  await serveHtml(context, `${DEALS_ORIGIN}/**`, html);
}

/** The page of `servePlacedLinks`: another loopback origin. */
export const PLACED_ORIGIN = 'http://localhost:5994';

/** A link placed at a point of the viewport (CSS pixels from its top left corner). */
export interface PlacedLink extends DealLink {
  x: number;
  y: number;
}

/**
 * A page of links each fixed at a point of the page (the card's room depends on where its link sits),
 * at `PLACED_ORIGIN/<any path>`; `wide` makes the page wider than any window, so it has a horizontal
 * scrollbar.
 */
export async function servePlacedLinks(
  context: BrowserContext,
  links: readonly PlacedLink[],
  options: { wide?: boolean } = {},
): Promise<void> {
  const anchors = links
    .map(
      ({ href, text, x, y }) =>
        `<p style="position:absolute;margin:0;left:${x}px;top:${y}px"><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></p>`,
    )
    .join('');
  const wide = options.wide ? '<div style="width:900px;height:1px"></div>' : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Placed links</title></head><body style="margin:0;font:14px sans-serif">${wide}${anchors}</body></html>`;
  await serveHtml(context, `${PLACED_ORIGIN}/**`, html);
}

/** The page of `serveLinkList`: another loopback origin. */
export const LIST_ORIGIN = 'http://localhost:5993';

/**
 * A mail-like list of links at `LIST_ORIGIN/<any path>`, in order; the last one inside a web
 * component's open shadow root (a link there is listed where its host is on the page).
 */
export async function serveLinkList(context: BrowserContext, links: readonly DealLink[]): Promise<void> {
  const items = links.map(({ href, text }) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`);
  const last = items.pop() ?? '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Deal mail</title></head><body style="font:14px sans-serif">
<h1>Deal mail</h1><ul>${items.join('')}</ul><deal-card></deal-card>
<template id="last"><ul>${last}</ul></template>
<script>customElements.define('deal-card', class extends HTMLElement { connectedCallback() { this.attachShadow({ mode: 'open' }).append(document.getElementById('last').content.cloneNode(true)); } });</script>
</body></html>`;
  await serveHtml(context, `${LIST_ORIGIN}/**`, html);
}
