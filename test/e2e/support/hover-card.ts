import { expect, type Frame, type Locator, type Page } from '@playwright/test';
import { SnapshotCard } from './snapshot-card';

/**
 * The hover card a content script opens next to a badge: `card.html` in an iframe inside the
 * `<compliance-lens-card>` host's **closed** shadow root, so no selector reaches the iframe: its frame
 * is found among the page's frames (the card page whose element sits in our host, not a copy the page
 * framed itself). The card may be in an ancestor's document when the link is in a frame.
 */
export class HoverCard {
  /** The host element; a closed card is removed from the DOM. */
  readonly host: Locator;

  constructor(readonly page: Page) {
    this.host = page.locator('compliance-lens-card');
  }

  /** The open card's frame, once there is one. */
  async frame(): Promise<Frame> {
    let found: Frame | undefined;
    await expect
      .poll(
        async () => {
          found = await this.findFrame();
          return found !== undefined;
        },
        { message: 'the card frame to open' },
      )
      .toBe(true);
    if (!found) throw new Error('no card frame');
    return found;
  }

  /** Waits for the card to open and returns what it shows (the DESIGN test ids, inside its frame). */
  async opened(): Promise<SnapshotCard> {
    return new SnapshotCard(await this.frame());
  }

  /** The card body that scrolls when the frame is short (`data-card-scroll`). */
  async scroller(): Promise<Locator> {
    return (await this.frame()).locator('[data-card-scroll]');
  }

  /** "Watch" (`aria-pressed`) in the open card. */
  async watchToggle(): Promise<Locator> {
    return (await this.frame()).getByTestId('watch-toggle');
  }

  /**
   * Waits until the frame is revealed at the size the card page reported: until then it waits in
   * place transparent (Playwright counts a transparent element as visible, a reader does not).
   */
  async expectRevealed(): Promise<void> {
    const frame = await this.frame();
    await expect
      .poll(async () => {
        const element = await frame.frameElement();
        return (
          (await element.isVisible()) &&
          (await element.evaluate((node) => (node instanceof Element ? getComputedStyle(node).opacity : ''))) === '1'
        );
      })
      .toBe(true);
  }

  /** No card shows: its frame is gone (the host may keep a hidden card page loaded ahead, `card.html#ahead`). */
  async expectClosed(): Promise<void> {
    await expect.poll(async () => (await this.findFrame()) === undefined, { message: 'the card to close' }).toBe(true);
  }

  /** The card frame's box in the page's viewport. */
  async box(): Promise<{ x: number; y: number; width: number; height: number }> {
    const box = await (await (await this.frame()).frameElement()).boundingBox();
    if (!box) throw new Error('card not laid out');
    return box;
  }

  private async findFrame(): Promise<Frame | undefined> {
    for (const frame of this.page.frames()) {
      // A card page loaded ahead (`card.html#ahead`) drops its hash once it shows a card; the hidden
      // one waiting is told apart by its frame element, not by an address that may lag behind.
      if (!/\/card\.html(#|$)/.test(frame.url()) || frame.isDetached()) continue;
      const element = await frame.frameElement().catch(() => null);
      const ours = await element?.evaluate((iframe) => {
        const root = iframe.getRootNode();
        const shown = iframe instanceof HTMLElement && !iframe.classList.contains('ahead');
        return shown && root instanceof ShadowRoot && root.host.localName === 'compliance-lens-card';
      });
      if (ours) return frame;
    }
    return undefined;
  }
}
