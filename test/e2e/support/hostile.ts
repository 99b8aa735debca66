import type { BrowserContext } from '@playwright/test';
import { escapeHtml } from '../../support/html';
import { PAGES_ORIGIN, servePages } from '../pages/serve';
import { AnnotatedPage } from './web-page';

/**
 * A hostile page (`test/e2e/pages/hostile.html`) and what it may cost: every snapshot request the
 * extension's service worker sends is a view for some founder, so the attack tests count them.
 */

/** Snapshot requests the extension's service worker sends to `origin`. */
export function recordSnapshotRequests(context: BrowserContext, origin: string): string[] {
  const fetched: string[] = [];
  context.on('request', (request) => {
    if (request.serviceWorker() && request.url().startsWith(`${origin}/api/v1/compliance-status/`)) fetched.push(request.url());
  });
  return fetched;
}

/** A page-chosen share link (a well-formed token the page made up: `n` makes it new). */
export const pageToken = (origin: string, n: number) => `${origin}/share/${'P'.repeat(37)}${String(n).padStart(6, '0')}`;

/** Opens the hostile page with `shareUrl` as its first link (`#share`), in a 1000 × 800 window. */
export async function openHostilePage(
  context: BrowserContext,
  shareUrl: string,
  more: { second?: string; third?: string } = {},
): Promise<AnnotatedPage> {
  await servePages(context, {
    SHARE_URL: escapeHtml(shareUrl),
    SECOND_URL: escapeHtml(more.second ?? 'https://example.org/a'),
    THIRD_URL: escapeHtml(more.third ?? 'https://example.org/b'),
  });
  return AnnotatedPage.open(context, `${PAGES_ORIGIN}/hostile.html`, { viewport: { width: 1000, height: 800 } });
}
