import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { DEALS_ORIGIN, mailPageValues, PAGES_ORIGIN, serveDealPage, servePages, type DealLink } from '../pages/serve';
import { HoverCard } from './hover-card';
import type { ShareLink } from './server';
import { restOn } from './pointer';

export interface PageOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
}

/** A new tab with the given viewport and colour scheme, at `url`. */
async function newTab(context: BrowserContext, url: string, options: PageOptions): Promise<Page> {
  const page = await context.newPage();
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  if (options.viewport) await page.setViewportSize(options.viewport);
  await page.goto(url);
  return page;
}

/**
 * A web page the content script annotates: its badges (`<compliance-lens-badge>` right after each
 * share link, `data-state` idle | loading | ready | error) and the hover card. Links are named by
 * their element id.
 */
export class AnnotatedPage {
  readonly badges: Locator;
  readonly card: HoverCard;

  constructor(readonly page: Page) {
    this.badges = page.locator('compliance-lens-badge');
    this.card = new HoverCard(page);
  }

  static async open(context: BrowserContext, url: string, options: PageOptions = {}): Promise<AnnotatedPage> {
    return new AnnotatedPage(await newTab(context, url, options));
  }

  link(id: string): Locator {
    return this.page.locator(`#${id}`);
  }

  /** The badge drawn right after the link `#id` (count 0: the link is not annotated). */
  badgeAfter(id: string): Locator {
    return this.page.locator(`#${id} + compliance-lens-badge`);
  }

  /** The badges' accessible names, in page order (inside closed shadow roots: read from Chromium's accessibility tree). */
  async badgeNames(): Promise<string[]> {
    const cdp = await this.page.context().newCDPSession(this.page);
    try {
      const { nodes } = await cdp.send('Accessibility.getFullAXTree');
      return nodes
        .filter((node) => node.role?.value === 'button')
        .map((node) => String(node.name?.value ?? ''))
        .filter((name) => /snapshot|Instantané/i.test(name));
    } finally {
      await cdp.detach();
    }
  }

  /** Moves the pointer onto the link and leaves it there: hover intent once the hover delay is over. */
  async restOn(id: string): Promise<void> {
    await restOn(this.link(id));
  }

  /** Crosses the link on the way somewhere else, without resting on it. */
  async passOver(id: string): Promise<void> {
    const box = await this.link(id).boundingBox();
    if (!box) throw new Error(`#${id} not laid out`);
    await this.page.mouse.move(box.x - 40, box.y + box.height / 2);
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 2 });
    await this.page.mouse.move(box.x + box.width / 2, box.y + 200, { steps: 2 });
  }

  /** Moves the pointer to the top-left corner, off every link and card. */
  async moveAway(): Promise<void> {
    await this.page.mouse.move(5, 5);
  }

  /** Leaves link and card: the card closes (removed from the DOM). */
  async closeCardByLeaving(): Promise<void> {
    await this.moveAway();
    await this.card.expectClosed();
  }
}

/** The mail fixture pages of `test/e2e/pages/` (Gmail-like thread, Outlook-like message). */
export type MailPageName = 'gmail-thread' | 'outlook-message';

export const MailPage = {
  /** Serves the fixture pages for `link` (of the service at `serviceOrigin`) and opens `name`. */
  async open(
    context: BrowserContext,
    name: MailPageName,
    link: ShareLink,
    serviceOrigin: string,
    options: PageOptions = {},
  ): Promise<AnnotatedPage> {
    await servePages(context, mailPageValues(link, serviceOrigin));
    return AnnotatedPage.open(context, `${PAGES_ORIGIN}/${name}.html`, options);
  },
};

/** A CRM-like deal-flow list (`serveDealPage`): links by position, rows added later with `addDeal`. */
export class DealFlowPage extends AnnotatedPage {
  readonly links: Locator;

  constructor(page: Page) {
    super(page);
    this.links = page.locator('a');
  }

  /** Serves a list of links (an href, or an href with its text) and opens it; waits for `expectedBadges` (default: one per link). */
  static async openWith(
    context: BrowserContext,
    hrefs: readonly (string | DealLink)[],
    expectedBadges = hrefs.length,
  ): Promise<DealFlowPage> {
    await serveDealPage(context, hrefs);
    const page = await context.newPage();
    await page.goto(`${DEALS_ORIGIN}/deals.html`);
    const deals = new DealFlowPage(page);
    await expect(deals.badges).toHaveCount(expectedBadges);
    return deals;
  }

  /** Loads the link at `index` the way an investor would (rest on it: one view) and moves away. */
  async warmCache(index: number): Promise<void> {
    await restOn(this.links.nth(index));
    await expect(this.badges.nth(index)).toHaveAttribute('data-state', 'ready');
    // Its card may lie over the next link: gone before anything else is rested on.
    await this.closeCardByLeaving();
  }

  /** The page appends a row with `href`, as a CRM list does when more deals arrive. */
  async addDeal(href: string): Promise<void> {
    await this.page.evaluate((value) => (window as unknown as { addDeal(href: string): void }).addDeal(value), href);
  }
}
