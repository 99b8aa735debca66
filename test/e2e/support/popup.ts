import type { BrowserContext, Locator, Page } from '@playwright/test';
import { openExtensionPage, type Language } from './extension';
import { PageLinksView } from './page-links-view';
import { WatchlistView } from './watchlist-view';
import { SnapshotCard } from './snapshot-card';

const LABELS = {
  en: {
    previewTab: 'Preview my link',
    previewField: 'Share link or token',
    previewSubmit: 'Preview (counts 1 view)',
    previewService: 'Service that issued this token',
  },
  fr: {
    previewTab: 'Mon lien',
    previewField: 'Lien de partage ou jeton',
    previewSubmit: 'Prévisualiser (compte 1 vue)',
    previewService: 'Service qui a émis ce jeton',
  },
} as const;

/**
 * The popup (entrypoints/popup), opened as a tab at the popup's size: it then lists the most recently
 * used web tab (components/page-links/api.ts `resolveTargetTab`). Two tabs: the page's links, and the
 * founder preview.
 */
export class PopupPage extends PageLinksView {
  /** Shown instead of the list on a tab the extension cannot read. */
  readonly noAccess: Locator;
  readonly previewField: Locator;
  readonly previewSubmit: Locator;
  /** "Recognised: …" under the field, as the input is typed. */
  readonly previewDetected: Locator;
  readonly previewCost: Locator;
  readonly previewServiceSelect: Locator;
  /** The region showing the preview's outcome (absent until a preview ran). */
  readonly previewOutcome: Locator;
  readonly previewResult: SnapshotCard;
  /** The preview form's error (role alert). */
  readonly alert: Locator;
  /** The compact watchlist (its `watchlist-tab` shows it). */
  readonly watchlist: WatchlistView;

  private constructor(page: Page, language: Language) {
    super(page, language, 'page-link-row');
    this.noAccess = page.getByTestId('page-no-access');
    this.previewField = page.getByRole('textbox', { name: LABELS[language].previewField });
    this.previewSubmit = page.getByRole('button', { name: LABELS[language].previewSubmit });
    this.previewDetected = page.getByTestId('preview-detected');
    this.previewCost = page.getByTestId('preview-cost');
    this.previewServiceSelect = page.getByRole('combobox', { name: LABELS[language].previewService });
    this.previewOutcome = page.getByTestId('preview-result');
    this.previewResult = new SnapshotCard(this.previewOutcome);
    this.alert = page.getByRole('alert');
    this.watchlist = new WatchlistView(page);
  }

  static async open(
    context: BrowserContext,
    extensionId: string,
    language: Language = 'en',
    options: { colorScheme?: 'light' | 'dark' } = {},
  ): Promise<PopupPage> {
    const page = await openExtensionPage(context, extensionId, 'popup.html', {
      language,
      viewport: { width: 400, height: 600 },
      ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
    });
    return new PopupPage(page, language);
  }

  /** Back from a link's details to the list ("All links"). */
  async backToList(): Promise<void> {
    await this.page.getByRole('button', { name: 'All links' }).click();
  }

  async openPreviewTab(): Promise<void> {
    await this.page.getByRole('tab', { name: LABELS[this.language].previewTab }).click();
  }

  /** Clicks Settings; resolves to the options page it opens. */
  async openSettings(): Promise<Page> {
    const opened = this.page.context().waitForEvent('page');
    await this.page.getByRole('button', { name: 'Settings', exact: true }).click();
    return opened;
  }
}
