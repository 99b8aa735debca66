import { expect, type Locator, type Page } from '@playwright/test';
import { SnapshotCard } from './snapshot-card';

/**
 * The hover card a content script opens next to a badge: `card.html` in an iframe inside the
 * `<compliance-lens-card>` host's (open) shadow root. Its fields are read inside the frame.
 */
export class HoverCard extends SnapshotCard {
  /** The host element; a closed card is removed from the DOM. */
  readonly host: Locator;
  /** The iframe: hidden (`pending`) until the card page has reported its size. */
  readonly frame: Locator;
  /** The card body that scrolls when the frame is short (`data-card-scroll`). */
  readonly scroller: Locator;
  /** "Watch" (`aria-pressed`), and the line beside it that says what watching costs. */
  readonly watchToggle: Locator;
  readonly watchControl: Locator;

  constructor(page: Page) {
    super(page.frameLocator('compliance-lens-card iframe'));
    this.host = page.locator('compliance-lens-card');
    this.frame = this.host.locator('iframe');
    this.scroller = this.scope.locator('[data-card-scroll]');
    this.watchToggle = this.scope.getByTestId('watch-toggle');
    this.watchControl = this.scope.getByTestId('watch-control');
  }

  /** Waits until the frame is revealed at the size the card page reported (hidden until then). */
  async expectRevealed(): Promise<void> {
    await expect(this.frame).toBeVisible();
  }

  async expectClosed(): Promise<void> {
    await expect(this.host).toHaveCount(0);
  }

  async box(): Promise<{ x: number; y: number; width: number; height: number }> {
    const box = await this.frame.boundingBox();
    if (!box) throw new Error('card not laid out');
    return box;
  }
}
