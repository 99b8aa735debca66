import { readFileSync } from 'node:fs';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { openExtensionPage, type Language } from './extension';
import { PageLinksView } from './page-links-view';
import { WatchlistView } from './watchlist-view';

export type SortColumn = 'company' | 'readiness' | 'band' | 'expiry';

/** Chrome's side panel at its usual width. */
export const SIDE_PANEL_WIDTH = 360;
/** A side panel widened enough for the links' table. */
export const WIDE_SIDE_PANEL_WIDTH = 640;

/**
 * The side panel (entrypoints/sidepanel) opened as a page: a sortable table of the last web tab's
 * share links that follows the page, with CSV export.
 */
export class SidePanelPage extends PageLinksView {
  /** The company cell of each row, in display order. */
  readonly companyColumn: Locator;
  /** The page the panel is showing (its title). */
  readonly pageTitle: Locator;
  /** The Watchlist view (its `watchlist-tab` shows it). */
  readonly watchlist: WatchlistView;

  private constructor(page: Page, language: Language) {
    super(page, language, 'panel-row');
    this.companyColumn = this.rows.getByTestId('row-company');
    this.pageTitle = page.getByTestId('panel-page');
    this.watchlist = new WatchlistView(page);
  }

  /** `view: 'watchlist'` opens `sidepanel.html#watchlist`, as a notification click does. */
  static async open(
    context: BrowserContext,
    extensionId: string,
    language: Language = 'en',
    options: { view?: 'page' | 'watchlist'; colorScheme?: 'light' | 'dark'; width?: number } = {},
  ): Promise<SidePanelPage> {
    const hash = options.view === 'watchlist' ? '#watchlist' : '';
    const page = await openExtensionPage(context, extensionId, `sidepanel.html${hash}`, {
      language,
      // A side panel's usual width (its links stacked); a wider one shows them as a table.
      viewport: { width: options.width ?? SIDE_PANEL_WIDTH, height: 900 },
      ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
    });
    return new SidePanelPage(page, language);
  }

  /** The column's sort button (Enter/Space or a click cycles its direction). */
  sortButton(column: SortColumn): Locator {
    return this.page.getByTestId(`sort-${column}`);
  }

  /** The header cell carrying `aria-sort`. */
  columnHeader(name: RegExp): Locator {
    return this.page.getByRole('columnheader', { name });
  }

  /** The button that opens a row's details. */
  detailsButton(company: string): Locator {
    return this.page.getByRole('button', { name: `Show details for ${company}` });
  }

  /** Clicks "Export CSV" and reads the download. */
  async exportCsv(): Promise<{ filename: string; csv: string }> {
    const downloadPromise = this.page.waitForEvent('download');
    await this.page.getByTestId('export-csv').click();
    const download = await downloadPromise;
    return { filename: download.suggestedFilename(), csv: readFileSync(await download.path(), 'utf8') };
  }
}
