// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pointTo, shareUrl, startHarness, type Harness } from './helpers';

/**
 * Page scripts can dispatch pointer and key events on links and badges. By default the engine only
 * acts on real user gestures (`event.isTrusted`), so a hostile page cannot forge hover intent (a view
 * and a request from the user's budget) or dismiss the card. happy-dom events are all synthetic
 * (isTrusted false), which makes them stand in for a page's forged events here; the real-browser
 * check is test/e2e/hostile.spec.ts.
 */

let h: Harness;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  document.body.innerHTML = `<p><a id="a" href="${shareUrl(1)}">share</a> <span id="elsewhere">text</span></p>`;
  // The engine's default (the helper opts in to synthetic events for the other unit tests).
  h = startHarness({ isUserEvent: undefined });
  h.scheduler.runAllFrames();
  await h.settle();
});
afterEach(() => {
  h.stop();
  vi.useRealTimers();
});

const anchor = () => {
  const element = document.getElementById('a');
  if (!element) throw new Error('fixture missing');
  return element;
};

describe('forged (untrusted) page events', () => {
  it('a dispatched pointerover and pointermove on the link or its badge never start hover intent', async () => {
    const badgeHost = anchor().nextElementSibling;
    expect(badgeHost?.localName).toBe('compliance-lens-badge');
    for (const target of [anchor(), badgeHost]) {
      if (target) pointTo(target);
      vi.advanceTimersByTime(2_000);
    }
    await h.settle();
    expect(h.openCard).not.toHaveBeenCalled();
    expect(badgeHost?.getAttribute('data-state')).toBe('idle');
  });

  it('forged Escape, pointerdown and pointerout do not dismiss a card the user opened', async () => {
    const badgeHost = anchor().nextElementSibling;
    if (!badgeHost) throw new Error('no badge');
    // The user's own gesture (the badge button's handlers are only reachable from inside the closed shadow root).
    h.badgeOf(badgeHost).button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await h.settle();
    expect(h.openCard).toHaveBeenCalledTimes(1);
    expect(h.card().isOpen).toBe(true);

    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    document.getElementById('elsewhere')?.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    document.dispatchEvent(new PointerEvent('pointerout', { bubbles: true, relatedTarget: null }));
    vi.advanceTimersByTime(2_000);
    expect(h.card().isOpen).toBe(true);
  });

  it('the same events count when the embedder says they are user gestures', async () => {
    h.stop();
    h = startHarness({ isUserEvent: () => true });
    h.scheduler.runAllFrames();
    await h.settle();
    pointTo(anchor());
    vi.advanceTimersByTime(400);
    await h.settle();
    expect(h.openCard).toHaveBeenCalledTimes(1);
  });
});
