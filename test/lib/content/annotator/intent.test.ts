// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureToken } from '@/test/fixtures/snapshot';
import type { BadgeResult } from '@/lib/content/annotator/badge-view';
import { badges, face, pointTo, SERVICE, shareUrl, startHarness, type Harness } from './helpers';

let h: Harness;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  document.body.innerHTML = `<p><a id="a" href="${shareUrl(1)}"><span id="inner">share</span></a> and <a id="b" href="${shareUrl(2)}">other</a> <span id="elsewhere">text</span></p>`;
  h = startHarness({ hoverDelayMs: 400 });
  h.scheduler.runAllFrames();
  await h.settle();
});
afterEach(() => {
  h.stop();
  vi.useRealTimers();
});

const over = pointTo;
const byId = (id: string) => document.getElementById(id)!;
const badgeOf = (id: string) => h.badgeOf(byId(id).nextElementSibling!);

/** Rests on link `a` until its card opens, then moves into the card's frame (the page sees the pointer leave the window; the card says so); the card stays. */
async function restThenEnterCard() {
  over(byId('a'));
  vi.advanceTimersByTime(400);
  await h.settle();
  const card = h.card();
  document.dispatchEvent(new PointerEvent('pointerout', { bubbles: true, relatedTarget: null }));
  card.events.onCardHover(true);
  vi.advanceTimersByTime(1000);
  expect(card.isOpen).toBe(true);
  return card;
}

describe('hover intent', () => {
  it('the pointer coming to rest, or focus on a badge, has a card page loaded ahead, before any intent and without a fetch (issue #27 point 12)', async () => {
    over(byId('a'));
    expect(h.card().warmed).toBe(1);
    over(byId('elsewhere'));
    vi.advanceTimersByTime(1000);
    await h.settle();
    expect(h.openCard).not.toHaveBeenCalled();
    badgeOf('b').host.dispatchEvent(new FocusEvent('focusin', { bubbles: true, composed: true }));
    expect(h.card().warmed).toBe(2);
    expect(h.openCard).not.toHaveBeenCalled();
  });

  it('a pass-over fetches nothing', async () => {
    over(byId('inner'));
    vi.advanceTimersByTime(150);
    over(byId('elsewhere'));
    vi.advanceTimersByTime(1000);
    await h.settle();
    expect(h.openCard).not.toHaveBeenCalled();
  });

  it('resting for the delay fetches once and opens the card; moving within the link does not restart', async () => {
    over(byId('a'));
    vi.advanceTimersByTime(200);
    over(byId('inner')); // child of the same link
    vi.advanceTimersByTime(199);
    expect(h.openCard).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    await h.settle();
    expect(h.openCard).toHaveBeenCalledTimes(1);
    expect(h.openCard).toHaveBeenCalledWith({ origin: 'https://comply.example', token: fixtureToken(1) });
    expect(h.card().opened).toHaveLength(1);
    expect(h.card().opened[0]?.focus).toBe(false);
    expect(byId('a').nextElementSibling?.getAttribute('data-state')).toBe('ready');

    // Still resting, and moving onto its badge: no second request.
    over(byId('a').nextElementSibling!);
    vi.advanceTimersByTime(2000);
    await h.settle();
    expect(h.openCard).toHaveBeenCalledTimes(1);
  });

  it('the rest counts from when the pointer moved, not from when the browser handed the move over (with the next frame)', async () => {
    /** Cards asked for once the clock moved on by `ms`. */
    const openedAfter = async (ms: number) => {
      vi.advanceTimersByTime(ms);
      await h.settle();
      return h.openCard.mock.calls.length;
    };
    h.scheduler.clock = 10_000;
    over(byId('a'), null, 10_000 - 12);
    expect(await openedAfter(387)).toBe(0);
    expect(await openedAfter(1)).toBe(1);

    // A move stamped in the future (another clock) waits the whole delay.
    over(byId('elsewhere'), null, 10_000);
    vi.advanceTimersByTime(1000);
    over(byId('b'), null, 20_000);
    expect(await openedAfter(399)).toBe(1);
    expect(await openedAfter(1)).toBe(2);

    // A move handed over later than the delay (a busy page) is a rest already over.
    over(byId('elsewhere'), null, 10_000);
    vi.advanceTimersByTime(1000);
    over(byId('a'), null, 10_000 - 5_000);
    expect(await openedAfter(0)).toBe(3);
  });

  it('moving from the link to its badge starts the rest again: the badge opens the card even when the link could not (issue #27 item 11)', async () => {
    over(byId('a'));
    vi.advanceTimersByTime(300);
    over(byId('a').nextElementSibling!); // its badge, before the link's rest is over
    vi.advanceTimersByTime(399);
    await h.settle();
    expect(h.openCard).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    await h.settle();
    expect(h.openCard).toHaveBeenCalledTimes(1);
  });

  it('moving from link to card keeps it open; leaving both for 300 ms closes it', async () => {
    over(byId('a'));
    vi.advanceTimersByTime(400);
    await h.settle();
    const card = h.card();
    over(card.element);
    vi.advanceTimersByTime(1000);
    expect(card.isOpen).toBe(true);

    over(byId('elsewhere'));
    vi.advanceTimersByTime(299);
    expect(card.isOpen).toBe(true);
    over(card.element); // came back in time
    vi.advanceTimersByTime(1000);
    expect(card.isOpen).toBe(true);

    over(byId('elsewhere'));
    vi.advanceTimersByTime(300);
    expect(card.isOpen).toBe(false);
    expect(card.closed).toEqual(['pointer-left']);
  });

  it('the card page reporting the pointer inside keeps it open; a late "left" message after reaching the link does not close it', async () => {
    const card = await restThenEnterCard();

    // Back to the link: the page event comes first, the card's "left" message after it.
    over(byId('a'));
    card.events.onCardHover(false);
    vi.advanceTimersByTime(1000);
    expect(card.isOpen).toBe(true);

    // Leaving to elsewhere closes after the grace period.
    card.events.onCardHover(true);
    card.events.onCardHover(false);
    over(byId('elsewhere'));
    vi.advanceTimersByTime(300);
    expect(card.isOpen).toBe(false);
  });

  it('a card in another document: the pointer on it is off the link, even when this document never saw it leave', async () => {
    over(byId('a'));
    vi.advanceTimersByTime(400);
    await h.settle();
    const card = h.card();
    // The pointer crosses the badge on its way out of a frame into the card the top frame draws, and
    // the frame is told nothing when it leaves (no pointerout): only the card says where it is.
    over(byId('a').nextElementSibling!);
    card.events.onCardHover(true);
    vi.advanceTimersByTime(1000);
    expect(card.isOpen).toBe(true);
    card.events.onCardHover(false);
    vi.advanceTimersByTime(300);
    expect(card.isOpen).toBe(false);
    expect(card.closed).toEqual(['pointer-left']);
  });

  it('a card whose page never says the pointer left: a move of the pointer on the page, off link, badge and card, closes it', async () => {
    const card = await restThenEnterCard();
    // Straight out of the card's frame onto the page: Chromium sends no pointerover there, and the card
    // page's "left" message does not come.
    byId('elsewhere').dispatchEvent(new PointerEvent('pointermove', { bubbles: true, clientX: 5, clientY: 5 }));
    vi.advanceTimersByTime(300);
    expect(card.isOpen).toBe(false);
    expect(card.closed).toEqual(['pointer-left']);
  });

  it('shows a loading state while fetching, then the result on every badge of that link', async () => {
    let resolve!: (value: BadgeResult) => void;
    h.openCard.mockImplementationOnce(() => new Promise((r) => (resolve = r)));
    const twin = document.createElement('a');
    twin.href = shareUrl(1);
    document.body.append(twin);
    await h.settle();
    h.scheduler.runAllFrames();

    over(byId('a'));
    vi.advanceTimersByTime(400);
    await h.settle(); // the background's answer to openCard (may this link be fetched?) comes first
    expect(badges().filter((b) => b.dataset.state === 'loading')).toHaveLength(2);
    resolve(face({ state: 'error', code: 'NOT_FOUND' }));
    await h.settle();
    const states = badges().map((b) => [b.dataset.state, b.dataset.errorCode]);
    expect(states.filter(([state, code]) => state === 'error' && code === 'NOT_FOUND')).toHaveLength(2);
  });

  it('a badge learns what its card fetched only from badgeChanged: the latest change shows, and the answer after it changes nothing (issue #35 item 1)', async () => {
    let resolve!: (value: BadgeResult | null) => void;
    h.openCard.mockImplementationOnce(() => new Promise((r) => (resolve = r)));
    over(byId('a'));
    vi.advanceTimersByTime(400);
    await h.settle();
    const badge = byId('a').nextElementSibling as HTMLElement;
    expect(badge.dataset.state).toBe('loading');
    // Fetched elsewhere meanwhile (the popup): shown at once.
    h.badgeChanged(`${SERVICE.origin}|${fixtureToken(1)}`, face({ state: 'error', code: 'RATE_LIMITED' }));
    expect(badge.dataset.state).toBe('error');
    // The card's own fetch: its change, then the answer.
    resolve(face({ state: 'ready', score: 70, label: 'Good Standing', band: 'low' }));
    await h.settle();
    expect(badge.dataset.state).toBe('ready');
  });

  it('a card whose fetch told the badge nothing (not fetched: Load) puts the badge back as it was', async () => {
    h.openCard.mockResolvedValueOnce(null);
    over(byId('a'));
    vi.advanceTimersByTime(400);
    await h.settle();
    expect((byId('a').nextElementSibling as HTMLElement).dataset.state).toBe('idle');
  });
});

describe('keyboard', () => {
  it('Enter on the badge fetches at once and opens the card with focus', async () => {
    const badge = badgeOf('a');
    badge.focus();
    badge.button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await h.settle();
    expect(h.openCard).toHaveBeenCalledTimes(1);
    expect(h.card().opened[0]?.focus).toBe(true);
  });

  it('Escape on the badge closes the card and keeps focus on the badge', async () => {
    const badge = badgeOf('a');
    badge.button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await h.settle();
    expect(h.card().isOpen).toBe(true);
    const focus = vi.spyOn(badge, 'focus');
    badge.button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(h.card().isOpen).toBe(false);
    expect(focus).toHaveBeenCalled();
  });

  it('Escape inside the card (reported by the card page) closes it and returns focus to the badge', async () => {
    const badge = badgeOf('b');
    badge.button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await h.settle();
    const focus = vi.spyOn(badge, 'focus');
    h.card().events.onCloseRequested('escape');
    expect(h.card().isOpen).toBe(false);
    expect(focus).toHaveBeenCalledTimes(1);
  });

  it('a keyboard-opened card is persistent: pointer movement does not close it, a click outside does', async () => {
    badgeOf('a').button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await h.settle();
    over(byId('elsewhere'));
    vi.advanceTimersByTime(5000);
    expect(h.card().isOpen).toBe(true);
    byId('elsewhere').dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    expect(h.card().isOpen).toBe(false);
  });

  it('Escape anywhere on the page dismisses a hover card without moving the pointer', async () => {
    over(byId('a'));
    vi.advanceTimersByTime(400);
    await h.settle();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(h.card().isOpen).toBe(false);
  });
});

describe('click', () => {
  it('a click on the badge fetches and opens the card; a click on the link is left alone', async () => {
    badgeOf('a').button.click();
    await h.settle();
    expect(h.openCard).toHaveBeenCalledTimes(1);
    expect(h.card().isOpen).toBe(true);

    // Last: following the link moves the document (happy-dom does it in place).
    const event = new MouseEvent('click', { bubbles: true, cancelable: true });
    byId('a').dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(h.openCard).toHaveBeenCalledTimes(1);
  });

  it('the document moving on (a single-page app) closes the card and looks at every link again, at its next change', async () => {
    badgeOf('a').button.click();
    await h.settle();
    history.pushState(null, '', '#elsewhere');
    expect(h.card().isOpen).toBe(true);
    byId('elsewhere').append(document.createElement('span'));
    await h.settle();
    expect(h.card().closed).toEqual(['navigation']);
    history.pushState(null, '', location.pathname);
  });
});

describe('rate limiting', () => {
  it('shows when to retry and goes back to idle once the pause is over', async () => {
    h.openCard.mockResolvedValueOnce(
      face({ state: 'error', code: 'RATE_LIMITED', retryAt: Date.parse('2026-11-22T08:01:00.000Z') }),
    );
    badgeOf('a').button.click();
    await h.settle();
    const host = byId('a').nextElementSibling!;
    expect(host.getAttribute('data-error-code')).toBe('RATE_LIMITED');
    vi.advanceTimersByTime(60_000);
    expect(host.getAttribute('data-state')).toBe('idle');
  });
});
