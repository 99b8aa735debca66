// @vitest-environment happy-dom
/**
 * Badges are drawn when their link comes near the viewport, gets keyboard focus or is acted on; until
 * then the host carries its state attributes only (the DESIGN test hooks), so a page with hundreds of
 * share links pays for the few on screen.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VisibilityWatcher, VisibilityWatcherFactory } from '@/lib/content/annotator/visibility';
import { badgeFace } from '@/lib/core/badge-face';
import { fixtureToken } from '@/test/fixtures/snapshot';
import { EN_TEXT, FR_TEXT } from './badge-text';
import { hostStyle } from '@/lib/content/annotator/badge';
import { badges, pointTo, READY, SERVICE, shareUrl, startHarness, type Harness } from './helpers';

/** Stands in for the IntersectionObserver: the test says which links came into view. */
class ManualVisibility implements VisibilityWatcher {
  readonly observed = new Set<Element>();
  disconnected = false;
  constructor(private readonly onVisible: (element: Element) => void) {}
  observe(element: Element): void {
    this.observed.add(element);
  }
  unobserve(element: Element): void {
    this.observed.delete(element);
  }
  disconnect(): void {
    this.disconnected = true;
    this.observed.clear();
  }
  show(element: Element): void {
    if (this.observed.has(element)) this.onVisible(element);
  }
}

let harness: Harness | null = null;
let visibility: ManualVisibility | null = null;
const watchVisibility: VisibilityWatcherFactory = (onVisible) => (visibility = new ManualVisibility(onVisible));

function start(): { h: Harness; watcher: ManualVisibility } {
  harness = startHarness({ watchVisibility });
  harness.scheduler.runAllFrames();
  if (!visibility) throw new Error('the annotator made no visibility watcher');
  return { h: harness, watcher: visibility };
}

const anchorOf = (id: string) => document.getElementById(id)!;
const badgeAfter = (id: string) => anchorOf(id).nextElementSibling as HTMLElement;

beforeEach(() => {
  document.body.innerHTML = Array.from({ length: 5 }, (_, i) => `<p><a id="l${i}" href="${shareUrl(i)}">link ${i}</a></p>`).join(
    '',
  );
});
afterEach(() => {
  harness?.stop();
  harness = null;
  visibility = null;
});

describe('badges are drawn on demand', () => {
  it('every share link gets its host with data-state at once; none is drawn before it comes into view', () => {
    const { h, watcher } = start();
    expect(badges()).toHaveLength(5);
    for (const host of badges()) {
      expect(host.getAttribute('data-state')).toBe('idle');
      expect(h.badgeOf(host).drawn).toBe(false);
    }
    expect(watcher.observed.size).toBe(5);
  });

  it('an undrawn host already has its full size (its room is taken when its link is found); drawing changes only its face', () => {
    const { h, watcher } = start();
    const host = badgeAfter('l1');
    const undrawn = host.getAttribute('style');
    expect(undrawn).toBe(hostStyle('full'));
    expect(h.badgeOf(host).drawn).toBe(false);
    watcher.show(anchorOf('l1'));
    expect(h.badgeOf(host).drawn).toBe(true);
    expect(host.getAttribute('style')).toBe(undrawn);
    expect(h.badgeOf(badgeAfter('l0')).drawn).toBe(false);
  });

  it('badges asked to be drawn before the stylesheet came are drawn when it comes', async () => {
    document.body.innerHTML = `<p><a id="l0" href="${shareUrl(0)}">link</a></p>`;
    harness = startHarness({ watchVisibility, text: { ...EN_TEXT, style: '' } });
    harness.scheduler.runAllFrames();
    await harness.settle();
    visibility!.show(anchorOf('l0'));
    expect(harness.badgeOf(badgeAfter('l0')).drawn).toBe(false);
    harness.annotator.setText(EN_TEXT);
    expect(harness.badgeOf(badgeAfter('l0')).drawn).toBe(true);
  });

  it('draws the badge with the state the host already carries', async () => {
    document.body.innerHTML = `<p><a id="l0" href="${shareUrl(0)}">link</a></p>`;
    harness = startHarness({ watchVisibility });
    harness.peek.mockResolvedValue(READY);
    harness.scheduler.runAllFrames();
    await harness.settle();
    const host = badgeAfter('l0');
    expect(host.getAttribute('data-state')).toBe('ready');
    expect(harness.badgeOf(host).drawn).toBe(false);

    visibility!.show(anchorOf('l0'));
    expect(harness.badgeOf(host).drawn).toBe(true);
    expect(visibility!.observed.has(anchorOf('l0'))).toBe(false);
    expect(harness.badgeOf(host).button.getAttribute('aria-label')).toMatch(/readiness 76\/100/);
  });

  it('only the links that came into view are drawn', () => {
    const { h, watcher } = start();
    watcher.show(anchorOf('l1'));
    watcher.show(anchorOf('l3'));
    expect(badges().map((host) => h.badgeOf(host).drawn)).toEqual([false, true, false, true, false]);
  });

  it('keyboard focus on a link draws its badge first, so the badge is the next tab stop', () => {
    const { h } = start();
    anchorOf('l4').dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(h.badgeOf(badgeAfter('l4')).drawn).toBe(true);
    expect(h.badgeOf(badgeAfter('l0')).drawn).toBe(false);
  });

  it('resting on a link that was never drawn draws its badge (the card is placed at it)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { h } = start();
      pointTo(anchorOf('l2'));
      vi.advanceTimersByTime(400);
      await h.settle();
      expect(h.openCard).toHaveBeenCalledTimes(1);
      expect(h.badgeOf(badgeAfter('l2')).drawn).toBe(true);
      expect(h.card().opened[0]?.anchors).toEqual([anchorOf('l2'), badgeAfter('l2')]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a removed link is no longer watched; stopping disconnects the watcher', async () => {
    const { h, watcher } = start();
    anchorOf('l0').remove();
    await h.settle();
    h.scheduler.runAllFrames();
    expect(watcher.observed.size).toBe(4);
    h.stop();
    expect(watcher.disconnected).toBe(true);
  });

  it('a new language rewords the drawn badges and the ones drawn later', () => {
    const { h, watcher } = start();
    watcher.show(anchorOf('l0'));
    const drawnLabel = () => h.badgeOf(badgeAfter('l0')).button.getAttribute('aria-label');
    expect(drawnLabel()).toMatch(/^Compliance Lens: compliance snapshot not loaded/);
    h.annotator.setText(FR_TEXT);
    expect(drawnLabel()).toMatch(/^Compliance Lens : instantané de conformité non chargé/);
    watcher.show(anchorOf('l1'));
    expect(h.badgeOf(badgeAfter('l1')).button.getAttribute('aria-label')).toMatch(
      /^Compliance Lens : instantané de conformité non chargé/,
    );
  });

  it('a new language has the background word the loaded badges again (their faces come from it)', async () => {
    const { h, watcher } = start();
    const ready = { state: 'ready', score: 76, label: 'Good Standing', band: 'medium' } as const;
    h.peek.mockImplementation(async (request) => (request.token === fixtureToken(0) ? badgeFace(ready, EN_TEXT) : null));
    await h.settle();
    watcher.show(anchorOf('l0'));
    const label = () => h.badgeOf(badgeAfter('l0')).button.getAttribute('aria-label');
    expect(label()).toMatch(/^Compliance snapshot: readiness 76\/100/);
    const asked = h.peek.mock.calls.length;
    h.peek.mockImplementation(async (request) => (request.token === fixtureToken(0) ? badgeFace(ready, FR_TEXT) : null));
    h.annotator.setText(FR_TEXT);
    await h.settle();
    // Only the loaded link is asked about again; its badge now speaks French.
    expect(h.peek.mock.calls.slice(asked).map(([request]) => request.token)).toEqual([fixtureToken(0)]);
    expect(label()).toMatch(/^Instantané de conformité : préparation 76\/100/);
  });

  it('a link fetched again elsewhere (badgeChanged) shows its new face on every badge of it; other links and unknown keys are left alone', async () => {
    document.body.innerHTML = `<p><a id="l0" href="${shareUrl(0)}">one</a> <a id="l1" href="${shareUrl(0)}">same</a> <a id="l2" href="${shareUrl(2)}">other</a></p>`;
    const { h } = start();
    await h.settle();
    const stateOf = (id: string) => badgeAfter(id).dataset.state;
    expect([stateOf('l0'), stateOf('l1'), stateOf('l2')]).toEqual(['idle', 'idle', 'idle']);
    const face = badgeFace({ state: 'ready', score: 93, label: 'Regulator Ready', band: 'investor_ready' }, EN_TEXT);
    h.badgeChanged(`${SERVICE.origin}|${fixtureToken(0)}`, face);
    h.badgeChanged(`${SERVICE.origin}|${fixtureToken(4)}`, face); // not on this page
    expect([stateOf('l0'), stateOf('l1'), stateOf('l2')]).toEqual(['ready', 'ready', 'idle']);
  });

  it('without a watcher (no IntersectionObserver) every badge is drawn at once', () => {
    harness = startHarness({ watchVisibility: null });
    harness.scheduler.runAllFrames();
    const h = harness;
    expect(badges().every((host) => h.badgeOf(host).drawn)).toBe(true);
  });
});
