// @vitest-environment happy-dom
/**
 * Links inside open shadow roots (web-component apps such as Salesforce Lightning): found, badged next
 * to the link in the same root, kept up to date as the roots change, at a cost proportional to what
 * changed. Closed roots are out of reach by design.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureToken } from '@/test/fixtures/snapshot';
import { pointTo, shareUrl, startHarness, type Harness } from './helpers';

let h: Harness | null = null;
const start = (...args: Parameters<typeof startHarness>) => (h = startHarness(...args));

beforeEach(() => {
  document.body.innerHTML = '';
});
afterEach(() => {
  h?.stop();
  h = null;
  vi.useRealTimers();
});

/** A host element with an open shadow root holding `html`. */
function host(html: string, parent: ParentNode = document.body, mode: ShadowRootMode = 'open'): ShadowRoot {
  const element = document.createElement('div');
  parent.append(element);
  const root = element.attachShadow({ mode });
  root.innerHTML = html;
  return root;
}

const badgesIn = (root: ParentNode) => [...root.querySelectorAll('compliance-lens-badge')];
const shareLink = (index: number, id = `s${index}`) => `<a id="${id}" href="${shareUrl(index)}">share ${index}</a>`;

describe('open shadow roots', () => {
  it('a rescan with new services finds their links in the roots already known (nested too), without walking the page for roots', async () => {
    const { createLinkRecognizer } = await import('@/lib/core/links');
    const { SERVICE } = await import('./helpers');
    const other = { ...SERVICE, id: 'other', origin: 'https://other.example' };
    const otherLink = `<a href="https://other.example/share/${fixtureToken(7)}">other</a>`;
    const outer = host(`<p>${otherLink}</p><div id="inner-host"></div>`);
    const innerHost = outer.querySelector('#inner-host')!;
    const inner = innerHost.attachShadow({ mode: 'open' });
    inner.innerHTML = otherLink;
    const harness = start();
    harness.scheduler.runAllFrames();
    expect(badgesIn(outer)).toHaveLength(0);
    const walked = vi.spyOn(document, 'querySelectorAll');
    harness.annotator.rescan({ recognizer: createLinkRecognizer([SERVICE, other]) });
    harness.scheduler.runAllFrames();
    expect(badgesIn(outer)).toHaveLength(1);
    expect(badgesIn(inner)).toHaveLength(1);
    // The document was asked for its candidates only, not for every element that may host a root.
    expect(walked.mock.calls.map(([selector]) => selector).some((selector) => selector.startsWith('*'))).toBe(false);
  });

  it('badges a share link inside a shadow root right after the link, in the same root', () => {
    const root = host(`<p>${shareLink(1)} and <a href="https://example.org/">plain</a></p>`);
    const harness = start();
    harness.scheduler.runAllFrames();
    expect(badgesIn(root)).toHaveLength(1);
    expect(root.getElementById('s1')?.nextSibling).toBe(badgesIn(root)[0]);
    expect(document.querySelectorAll('compliance-lens-badge')).toHaveLength(0); // not in the light DOM
    expect(harness.annotator.links().map((link) => link.token)).toEqual([fixtureToken(1)]);
  });

  it('lists links in page order when asked, a shadow root’s where its host is (issue #33 item 12)', () => {
    document.body.insertAdjacentHTML('beforeend', shareLink(1));
    const middle = host(shareLink(2));
    document.body.insertAdjacentHTML('beforeend', shareLink(3));
    host(shareLink(5), host(shareLink(4)));
    const harness = start();
    harness.scheduler.runAllFrames();
    expect(badgesIn(middle)).toHaveLength(1);
    expect(harness.annotator.links(true).map((link) => link.token)).toEqual([1, 2, 3, 4, 5].map(fixtureToken));
  });

  it('finds links in nested shadow roots', () => {
    const outer = host(`<section>${shareLink(1)}</section>`);
    const inner = host(shareLink(2), outer);
    const innermost = host(shareLink(3), inner);
    const harness = start();
    harness.scheduler.runAllFrames();
    expect([badgesIn(outer), badgesIn(inner), badgesIn(innermost)].map((list) => list.length)).toEqual([1, 1, 1]);
    expect(harness.annotator.links()).toHaveLength(3);
  });

  it('a shadow root filled after load gets its badges', async () => {
    const root = host('<div id="slot"></div>');
    const harness = start();
    harness.scheduler.runAllFrames();
    expect(badgesIn(root)).toHaveLength(0);
    root.getElementById('slot')?.insertAdjacentHTML('beforeend', shareLink(4));
    await harness.settle();
    harness.scheduler.runAllFrames();
    expect(badgesIn(root)).toHaveLength(1);
  });

  it('a host added after load (a component rendering later) gets its badges, nested roots included', async () => {
    const harness = start();
    harness.scheduler.runAllFrames();
    const container = document.createElement('div');
    const root = host(shareLink(5), container);
    const nested = host(shareLink(6), root);
    document.body.append(container);
    await harness.settle();
    harness.scheduler.runAllFrames();
    expect(badgesIn(root)).toHaveLength(1);
    expect(badgesIn(nested)).toHaveLength(1);
  });

  it('a link changed or removed inside a shadow root updates its badge; removing the host drops its links', async () => {
    const root = host(`<p>${shareLink(7)}</p><p id="keep">${shareLink(8)}</p>`);
    const harness = start();
    harness.scheduler.runAllFrames();
    root.getElementById('s7')?.setAttribute('href', 'https://example.org/');
    await harness.settle();
    harness.scheduler.runAllFrames();
    expect(badgesIn(root)).toHaveLength(1);
    expect(harness.annotator.links().map((link) => link.token)).toEqual([fixtureToken(8)]);

    root.host.remove();
    await harness.settle();
    harness.scheduler.runAllFrames();
    expect(harness.annotator.links()).toEqual([]);
  });

  it('costs work proportional to what changed inside a root, not a rescan of the page', async () => {
    const roots = Array.from({ length: 20 }, (_, index) => host(shareLink(100 + index)));
    const harness = start();
    harness.scheduler.runAllFrames();
    harness.recognize.mockClear();
    roots[3]?.append(document.createRange().createContextualFragment(shareLink(200)));
    await harness.settle();
    harness.scheduler.runAllFrames();
    expect(harness.recognize).toHaveBeenCalledTimes(1);
    expect(badgesIn(roots[3]!)).toHaveLength(2);
  });

  it('hover intent works on a link inside a shadow root (the event is read where it happened, not at the host)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const root = host(`<a id="s9" href="${shareUrl(9)}"><span id="inner">share</span></a>`);
    const harness = start({ hoverDelayMs: 400 });
    harness.scheduler.runAllFrames();
    await harness.settle();
    pointTo(root.getElementById('inner')!);
    vi.advanceTimersByTime(400);
    await harness.settle();
    expect(harness.openCard).toHaveBeenCalledWith({ origin: 'https://comply.example', token: fixtureToken(9) });
    expect(harness.card().opened).toHaveLength(1);
  });

  describe('a custom element defined after it was scanned (tags in the HTML, definitions in a later script)', () => {
    let tag = 0;
    /** A tag, not yet defined, whose definition fills an open shadow root with `html`. */
    function laterComponent(html: string): { element: HTMLElement; define: () => void } {
      const name = `deal-card-${(tag += 1)}`;
      const element = document.createElement(name);
      document.body.append(element);
      const define = () =>
        customElements.define(
          name,
          class extends HTMLElement {
            constructor() {
              super();
              this.attachShadow({ mode: 'open' }).innerHTML = html;
            }
          },
        );
      return { element, define };
    }

    it('its links are badged when the document is parsed (the definitions ran by then)', async () => {
      const { element, define } = laterComponent(shareLink(11));
      const harness = start();
      harness.scheduler.runAllFrames();
      expect(harness.annotator.links()).toEqual([]);
      define();
      expect(element.shadowRoot).not.toBeNull();
      document.dispatchEvent(new Event('DOMContentLoaded'));
      await harness.settle();
      harness.scheduler.runAllFrames();
      expect(badgesIn(element.shadowRoot!)).toHaveLength(1);
      expect(harness.annotator.links().map((link) => link.token)).toEqual([fixtureToken(11)]);
    });

    it('its links are badged when the page changes nothing else (a definition loaded late)', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { element, define } = laterComponent(shareLink(12));
      const harness = start();
      harness.scheduler.runAllFrames();
      define();
      await harness.settle();
      expect(harness.annotator.links()).toEqual([]);
      vi.advanceTimersByTime(1_000);
      harness.scheduler.runAllFrames();
      expect(badgesIn(element.shadowRoot!)).toHaveLength(1);
    });

    it('stops looking once nothing waits for a definition', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { define } = laterComponent('<p>no link here</p>');
      const harness = start();
      harness.scheduler.runAllFrames();
      const whileWaiting = vi.getTimerCount();
      define();
      vi.advanceTimersByTime(1_000);
      await harness.settle();
      expect(vi.getTimerCount()).toBe(whileWaiting - 1);
    });
  });

  it('never reaches into a closed shadow root', () => {
    host(shareLink(10), document.body, 'closed');
    const harness = start();
    harness.scheduler.runAllFrames();
    expect(harness.annotator.links()).toEqual([]);
  });
});
