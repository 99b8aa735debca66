import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The watchlist as the side panel and the popup show it (components/watchlist), found by the test
 * ids DESIGN promises: one `watch-row` per watched link holding `company-name`, `readiness-score`,
 * `risk-band`, `watch-change` and `sparkline`; `watch-refresh-all`; `watch-export-csv` and
 * `watch-export-json` (side panel only).
 */
export class WatchlistView {
  /** The control that shows the watchlist (`watchlist-tab`). */
  readonly tab: Locator;
  readonly rows: Locator;
  readonly refreshAll: Locator;
  readonly empty: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByTestId('watchlist-tab');
    this.rows = page.getByTestId('watch-row');
    this.refreshAll = page.getByTestId('watch-refresh-all');
    this.empty = page.getByTestId('watchlist-empty');
  }

  /** The row whose company name is exactly `company`. */
  row(company: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('company-name').getByText(company, { exact: true }) });
  }

  /** Clicks "Refresh all now" after checking it states `views` views, and waits for it to finish. */
  async refreshAllNow(views: number): Promise<void> {
    await expect(this.refreshAll).toHaveText(`Refresh all now (counts ${views} view${views === 1 ? '' : 's'})`);
    await this.refreshAll.click();
    // "2 links refreshed." or, with some ended or failed, "1 link refreshed · 1 watch ended (…)."
    await expect(this.page.getByRole('status').filter({ hasText: /(refreshed|ended \(.*\)|failed)\.$/ })).toBeVisible();
  }

  /** Opens a row's details (the changes and the history with its view counts). */
  async openDetails(company: string): Promise<Locator> {
    await this.page.getByRole('button', { name: `Details for ${company}` }).click();
    return this.row(company).getByTestId('watch-history');
  }

  /** Clicks an export button and reads the download. */
  async export(kind: 'csv' | 'json'): Promise<{ filename: string; text: string }> {
    const downloadPromise = this.page.waitForEvent('download');
    await this.page.getByTestId(`watch-export-${kind}`).click();
    const download = await downloadPromise;
    return { filename: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
  }
}
