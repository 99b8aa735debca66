import { readFileSync } from 'node:fs';
import path from 'node:path';
import { escapeHtml } from '../../support/html';
import { fillPlaceholders } from './serve';

/**
 * The reading pages of issue #32 (test/e2e/pages): where investors meet share links. `badges`: how many
 * share links each holds; `opened`: the selector that says a page finished what it does after load.
 */
export const READING_PAGES = [
  { name: 'mail-thread', badges: 6, opened: 'body[data-opened="true"]' },
  { name: 'reading-pane', badges: 4 },
  { name: 'crm-table', badges: 8 },
  { name: 'shared-doc', badges: 6 },
] as const;

/** The placeholders of the reading pages: share links of the service at `serviceOrigin` (never fetched there). */
export function readingValues(serviceOrigin: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (let index = 1; index <= 8; index += 1) {
    const link = `${serviceOrigin}/share/${String.fromCharCode(64 + index).repeat(40)}rd${index}`;
    values[`LINK_${index}`] = escapeHtml(link);
    values[`SAFELINK_${index}`] = escapeHtml(
      `https://eur01.safelinks.protection.outlook.com/?url=${encodeURIComponent(link)}&data=05%7C01%7C&reserved=0`,
    );
  }
  return values;
}

/** A reading page's HTML with its placeholders filled, for a server other than Playwright's router. */
export function readingPageHtml(name: string, values: Record<string, string>): string {
  return fillPlaceholders(readFileSync(path.join(import.meta.dirname, `${name}.html`), 'utf8'), values);
}
