import type { Locator, Page } from '@playwright/test';
import type { Language } from './extension';
import { SnapshotCard } from './snapshot-card';

/**
 * What the popup's list and the side panel's table share (components/page-links): the share links of
 * the last web tab, one row per link (`data-state` ready when a snapshot is known), "load all", the
 * disclaimers of the snapshots shown, and the details of one link.
 */
export abstract class PageLinksView {
  readonly rows: Locator;
  /** Rows whose snapshot is loaded (from the cache or an explicit load). */
  readonly readyRows: Locator;
  readonly summary: Locator;
  /** "Load N snapshots (counts N views)": fetches every row that has nothing cached. */
  readonly loadAll: Locator;
  /** The disclaimer shown under the list, once per distinct disclaimer. */
  readonly listDisclaimer: Locator;
  /** The details of the selected link (absent while the list shows). */
  readonly detailRegion: Locator;
  readonly detail: SnapshotCard;

  protected constructor(
    readonly page: Page,
    readonly language: Language,
    rowTestId: string,
  ) {
    this.rows = page.getByTestId(rowTestId);
    this.readyRows = page.locator(`[data-testid="${rowTestId}"][data-state="ready"]`);
    this.summary = page.getByTestId('page-links-summary');
    this.loadAll = page.getByTestId('load-all');
    this.listDisclaimer = page.getByTestId('list-disclaimers').getByTestId('disclaimer');
    this.detailRegion = page.getByTestId('link-detail');
    this.detail = new SnapshotCard(this.detailRegion);
  }

  /** The row of `company` (once its snapshot is known: before that a row has no company name). */
  row(company: string): Locator {
    return this.rows.filter({ hasText: company });
  }
}
