import type { BrowserContext, Locator, Page } from '@playwright/test';
import { openExtensionPage, type ExtensionPageOptions, type Language } from './extension';

const LABELS = {
  en: {
    services: 'Compliance services',
    openAddForm: 'Add a service',
    submitService: 'Add service',
    clearCache: 'Clear cache',
  },
  fr: {
    services: 'Services de conformité',
    openAddForm: 'Ajouter un service',
    submitService: 'Ajouter le service',
    clearCache: 'Vider le cache',
  },
} as const;

/** The options page (entrypoints/options). Its labels follow the language it shows (`switchLanguage`). */
export class OptionsPage {
  readonly heading: Locator;
  readonly languageSelect: Locator;
  /** Every configured service's row. */
  readonly serviceRows: Locator;

  private constructor(
    readonly page: Page,
    private language: Language,
  ) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.languageSelect = page.getByRole('combobox', { name: 'Display language' });
    this.serviceRows = page.getByTestId('service-row');
  }

  static async open(
    context: BrowserContext,
    extensionId: string,
    options: ExtensionPageOptions & { language?: Language } = {},
  ): Promise<OptionsPage> {
    const language = options.language ?? 'en';
    const page = await openExtensionPage(context, extensionId, 'options.html', { ...options, language });
    return new OptionsPage(page, language);
  }

  /** The "Compliance services" section. */
  get services(): Locator {
    return this.page.getByRole('region', { name: LABELS[this.language].services });
  }

  get nameField(): Locator {
    return this.services.getByRole('textbox', { name: 'Name' });
  }

  get originField(): Locator {
    return this.services.getByRole('textbox', { name: 'Origin' });
  }

  serviceRow(text: string): Locator {
    return this.services.getByTestId('service-row').filter({ hasText: text });
  }

  async openAddForm(): Promise<void> {
    await this.services.getByRole('button', { name: LABELS[this.language].openAddForm }).click();
  }

  async submitService(): Promise<void> {
    await this.services.getByRole('button', { name: LABELS[this.language].submitService }).click();
  }

  /** Opens the form, fills it and submits. */
  async addService(name: string, origin: string): Promise<void> {
    await this.openAddForm();
    await this.nameField.fill(name);
    await this.originField.fill(origin);
    await this.submitService();
  }

  async clearCache(): Promise<void> {
    await this.page.getByRole('button', { name: LABELS[this.language].clearCache }).click();
  }

  /** Chooses the display language in the page itself (the page re-renders in it, without a reload). */
  async switchLanguage(language: Language): Promise<void> {
    await this.languageSelect.selectOption(language);
    this.language = language;
  }

  /** Answers every host-permission prompt with "Block" (headless Chromium cannot answer one). */
  async denyPermissionRequests(): Promise<void> {
    await this.page.evaluate(() => {
      chrome.permissions.request = () => Promise.resolve(false);
    });
  }

  /** `storage.local` `settings` as JSON text. */
  async storedSettingsJson(): Promise<string> {
    return JSON.stringify(await this.page.evaluate(() => chrome.storage.local.get('settings')));
  }
}
