// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLinkRecognizer } from '@/lib/core/links';
import { MAX_PEEK_BATCH } from '@/lib/core/limits';
import { fixtureToken } from '@/test/fixtures/snapshot';
import { apiUrl, badges, face, link, ManualScheduler, shareUrl, startHarness, SERVICE, type Harness } from './helpers';

let harness: Harness | null = null;
const start = (...args: Parameters<typeof startHarness>) => (harness = startHarness(...args));

beforeEach(() => {
  document.body.innerHTML = '';
});
afterEach(() => {
  harness?.stop();
  harness = null;
});

function ordinaryLinks(count: number): string {
  return Array.from({ length: count }, (_, i) => `<a href="https://example.org/page/${i}">page ${i}</a>`).join(' ');
}

describe('initial scan', () => {
  it('puts one badge right after each share link, and none after ordinary or look-alike links', async () => {
    document.body.innerHTML = `
      <p><a id="share" href="${shareUrl(1)}">share</a> text</p>
      <p><a id="api" href="${apiUrl(2)}">api</a></p>
      <p><a id="plain" href="https://example.org/">plain</a></p>
      <p><a id="lookalike" href="https://comply.example.evil.com/share/${fixtureToken(3)}">evil</a></p>
      <p><a id="pathlike" href="https://evil.com/comply.example/share/${fixtureToken(4)}">evil</a></p>
      <p><a id="gmail" href="${shareUrl(5)}" data-saferedirecturl="https://www.google.com/url?q=${encodeURIComponent(shareUrl(5))}&amp;source=gmail">gmail</a></p>`;
    const h = start();
    h.scheduler.runAllFrames();

    expect(badges()).toHaveLength(3);
    for (const id of ['share', 'api', 'gmail']) {
      const next = document.getElementById(id)?.nextSibling as HTMLElement | null;
      expect(next?.localName).toBe('compliance-lens-badge');
      expect(next?.getAttribute('data-state')).toBe('idle');
    }
    for (const id of ['plain', 'lookalike', 'pathlike']) {
      expect((document.getElementById(id)?.nextSibling as Element | null)?.localName).not.toBe('compliance-lens-badge');
    }
    await h.settle();
    expect(h.openCard).not.toHaveBeenCalled(); // detection never fetches
  });

  it('peeks once per distinct link, shows cached results without fetching', async () => {
    document.body.innerHTML = `<a href="${shareUrl(1)}">a</a><a href="${apiUrl(1)}">same token</a><a href="${shareUrl(2)}">b</a>`;
    const h = start();
    h.peek.mockImplementation(async (request) =>
      request.token === fixtureToken(1)
        ? face({ state: 'ready', score: 92, label: 'Regulator Ready', band: 'investor_ready' })
        : null,
    );
    h.scheduler.runAllFrames();
    await h.settle();

    expect(h.peek).toHaveBeenCalledTimes(2);
    expect(h.peekMany).toHaveBeenCalledTimes(1); // one message for the batch
    expect(badges().map((badge) => badge.dataset.state)).toEqual(['ready', 'ready', 'idle']);
    expect(h.openCard).not.toHaveBeenCalled();
  });

  it('batches peeks for 1,200 new links into one message per MAX_PEEK_BATCH', async () => {
    document.body.innerHTML = Array.from({ length: 1200 }, (_, i) => `<a href="${shareUrl(i)}">${i}</a>`).join('');
    const h = start();
    h.scheduler.runAllFrames();
    for (let i = 0; i < 10; i += 1) await h.settle();
    expect(h.peek).toHaveBeenCalledTimes(1200);
    expect(h.peekMany.mock.calls.map(([batch]) => batch.length)).toEqual([
      MAX_PEEK_BATCH,
      MAX_PEEK_BATCH,
      1200 - 2 * MAX_PEEK_BATCH,
    ]);
  }, 30_000); // 1,200 links in happy-dom, several seconds on a busy machine

  it('does not annotate links inside editable content (a draft would carry the badge)', () => {
    document.body.innerHTML = `<div contenteditable="true"><a href="${shareUrl(1)}">draft</a></div>`;
    const h = start();
    h.scheduler.runAllFrames();
    expect(badges()).toHaveLength(0);
  });

  it('takes the room of what it can before the next paint, and slices what a huge page leaves over into idle periods, losing no link', () => {
    document.body.innerHTML = Array.from({ length: 400 }, (_, i) => `<a href="${shareUrl(i)}">${i}</a>`).join('');
    let clock = 0;
    const scheduler = new ManualScheduler();
    scheduler.now = () => (clock += 10); // every clock read costs 10 ms
    start({ sliceBudgetMs: 25, scheduler });
    // The first look, in the task that made the annotator: its 40 ms budget, 32 anchors per clock read.
    const atOnce = badges().length;
    expect(atOnce).toBeGreaterThan(0);
    expect(atOnce).toBeLessThan(400);
    const slices = scheduler.runAllFrames();
    expect(slices).toBeGreaterThan(1);
    expect(badges()).toHaveLength(400);
  }, 30_000);
});

describe('mutations', () => {
  it('annotates an added subtree in the mutation callback itself (the badge takes its room before the next paint), with no idle work left', async () => {
    document.body.innerHTML = `<table><tbody id="rows"></tbody></table>`;
    const h = start();
    h.scheduler.runAllFrames();
    const framesBefore = h.scheduler.framesRequested;

    const tbody = document.getElementById('rows')!;
    for (let i = 0; i < 50; i += 1) {
      const row = document.createElement('tr');
      const cell = document.createElement('td');
      cell.append(link(shareUrl(i)));
      row.append(cell);
      tbody.append(row);
      await Promise.resolve(); // separate mutation-observer deliveries
      // Its badge is there when the callback of its insertion ends: no frame, no idle period needed.
      expect(badges()).toHaveLength(i + 1);
    }
    await h.settle();
    expect(h.scheduler.framesRequested - framesBefore).toBe(0);
    expect(h.annotator.pendingWork).toBe(0);
  });

  it('leaves ordinary links to the browser’s selector engine: script reads only candidate anchors', async () => {
    document.body.innerHTML = `<div id="list">${ordinaryLinks(990)}${Array.from({ length: 10 }, (_, i) => `<a href="${shareUrl(i)}">s</a>`).join('')}</div>`;
    const h = start();
    h.scheduler.runAllFrames();
    expect(h.recognize).toHaveBeenCalledTimes(10);
    expect(badges()).toHaveLength(10);
  });

  it('without a candidate selector every link is read once, and only once', async () => {
    document.body.innerHTML = `<div id="list">${ordinaryLinks(990)}${Array.from({ length: 10 }, (_, i) => `<a href="${shareUrl(i)}">s</a>`).join('')}</div>`;
    const recognizer = createLinkRecognizer([SERVICE]);
    const recognize = vi.fn((anchor: HTMLAnchorElement, rawHref?: string | null) => recognizer.recognizeAnchor(anchor, rawHref));
    const h = start({ recognizer: { recognizeAnchor: recognize } });
    h.scheduler.runAllFrames();
    expect(recognize).toHaveBeenCalledTimes(1000);
    expect(badges()).toHaveLength(10);
    h.annotator.rescan();
    h.scheduler.runAllFrames();
    expect(recognize).toHaveBeenCalledTimes(1000);
  });

  it('costs work proportional to the added nodes, not to the page', async () => {
    document.body.innerHTML = `<div id="list">${ordinaryLinks(990)}${Array.from({ length: 10 }, (_, i) => `<a href="${shareUrl(i)}">s</a>`).join('')}</div>`;
    // Without the candidate selector, so that every anchor's cost shows in the count.
    const recognizer = createLinkRecognizer([SERVICE]);
    const recognize = vi.fn((anchor: HTMLAnchorElement, href?: string | null) => recognizer.recognizeAnchor(anchor, href));
    const h = start({ recognizer: { recognizeAnchor: recognize } });
    h.scheduler.runAllFrames();
    expect(recognize).toHaveBeenCalledTimes(1000);
    recognize.mockClear();

    const list = document.getElementById('list')!;
    for (let i = 0; i < 10; i += 1) {
      const row = document.createElement('div');
      row.append(link(shareUrl(100 + i)), document.createTextNode(' '), link(`https://example.org/x/${i}`));
      list.append(row);
    }
    await h.settle();
    h.scheduler.runAllFrames();

    expect(recognize).toHaveBeenCalledTimes(20);
    expect(badges()).toHaveLength(20);
  });

  it('as a parser adds them (a row, then its link, then the link’s words, each a record), looks at each link once, through its row', async () => {
    document.body.innerHTML = `<ul id="list"></ul>`;
    const recognizer = createLinkRecognizer([SERVICE]);
    const recognize = vi.fn((anchor: HTMLAnchorElement, href?: string | null) => recognizer.recognizeAnchor(anchor, href));
    const h = start({ recognizer: { recognizeAnchor: recognize } });
    h.scheduler.runAllFrames();
    const list = document.getElementById('list')!;
    for (let i = 0; i < 20; i += 1) {
      const row = document.createElement('li');
      list.append(row);
      const anchor = document.createElement('a');
      row.append(anchor);
      anchor.href = i % 2 === 0 ? shareUrl(i) : `https://example.org/x/${i}`;
      anchor.append(`link ${i}`);
    }
    // An element added into a link that was itself added: the link's look does not search inside it.
    const wrapper = document.createElement('a');
    list.append(wrapper);
    const inner = document.createElement('span');
    wrapper.append(inner);
    inner.append(link(shareUrl(99)));
    await Promise.resolve();

    // The rows' 20 links, the wrapper and the link inside it.
    expect(recognize).toHaveBeenCalledTimes(22);
    expect(badges()).toHaveLength(11);
    expect(document.querySelectorAll('li > a + compliance-lens-badge')).toHaveLength(10);
  });

  it('reacts to href changes: share → other share rebinds, share → ordinary removes the badge', async () => {
    document.body.innerHTML = `<a id="a" href="${shareUrl(1)}">a</a> <a id="b" href="https://example.org/">b</a>`;
    const h = start();
    h.scheduler.runAllFrames();
    await h.settle();
    const a = document.getElementById('a') as HTMLAnchorElement;
    const b = document.getElementById('b') as HTMLAnchorElement;
    expect(badges()).toHaveLength(1);

    b.setAttribute('href', shareUrl(2));
    await h.settle();
    h.scheduler.runAllFrames();
    expect(badges()).toHaveLength(2);
    expect(b.nextSibling).toBe(badges()[1]);

    a.setAttribute('href', 'https://example.org/elsewhere');
    await h.settle();
    h.scheduler.runAllFrames();
    expect(badges()).toHaveLength(1);
    expect((a.nextSibling as Element | null)?.localName).not.toBe('compliance-lens-badge');
  });

  it('reacts to data-saferedirecturl changes (a forged redirect target unannotates)', async () => {
    document.body.innerHTML = `<a id="g" href="${shareUrl(1)}">g</a>`;
    const h = start();
    h.scheduler.runAllFrames();
    expect(badges()).toHaveLength(1);
    document
      .getElementById('g')!
      .setAttribute('data-saferedirecturl', `https://www.google.com/url?q=${encodeURIComponent(shareUrl(9))}`);
    await h.settle();
    h.scheduler.runAllFrames();
    expect(badges()).toHaveLength(0);
  });

  it('annotates each link once: re-adding or re-scanning does not duplicate badges', async () => {
    document.body.innerHTML = `<div id="box"><a id="a" href="${shareUrl(1)}">a</a></div>`;
    const h = start();
    h.scheduler.runAllFrames();
    const box = document.getElementById('box')!;
    const a = document.getElementById('a')!;
    box.append(a); // moved without its badge
    await h.settle();
    h.scheduler.runAllFrames();
    h.annotator.rescan();
    h.scheduler.runAllFrames();
    expect(badges()).toHaveLength(1);
    expect(a.nextSibling).toBe(badges()[0]);
    expect(h.recognize).toHaveBeenCalledTimes(1);
  });

  it('forgets links that leave the page and removes stray copies of badges', async () => {
    document.body.innerHTML = `<div id="msg"><a href="${shareUrl(1)}">a</a></div>`;
    const h = start();
    h.scheduler.runAllFrames();
    const msg = document.getElementById('msg')!;
    const clone = msg.cloneNode(true) as HTMLElement; // e.g. a quoted reply: copies the empty host
    msg.remove();
    document.body.append(clone);
    await h.settle();
    h.scheduler.runAllFrames();
    const all = badges();
    expect(all).toHaveLength(1);
    expect(all[0]?.previousSibling).toBe(clone.querySelector('a'));
  });

  it('does not react to its own badge insertions', async () => {
    document.body.innerHTML = `<a href="${shareUrl(1)}">a</a>`;
    const h = start();
    h.scheduler.runAllFrames();
    await h.settle();
    expect(h.scheduler.pendingFrames).toBe(0);
  });
});

describe('teardown', () => {
  it('stop() removes badges, disconnects the observer and ignores later changes', async () => {
    document.body.innerHTML = `<a href="${shareUrl(1)}">a</a>`;
    const h = start();
    h.scheduler.runAllFrames();
    expect(badges()).toHaveLength(1);
    h.stop();
    expect(badges()).toHaveLength(0);
    document.body.append(link(shareUrl(2)));
    await h.settle();
    h.scheduler.runAllFrames();
    expect(badges()).toHaveLength(0);
  });

  it('a rescan with new services annotates links of a newly configured origin', () => {
    document.body.innerHTML = `<a href="https://other.example/share/${fixtureToken(1)}">x</a>`;
    const h = start();
    h.scheduler.runAllFrames();
    expect(badges()).toHaveLength(0);
    return import('@/lib/core/links').then(({ createLinkRecognizer }) => {
      h.annotator.rescan({
        recognizer: createLinkRecognizer([SERVICE, { ...SERVICE, id: 'other', origin: 'https://other.example' }]),
      });
      h.scheduler.runAllFrames();
      expect(badges()).toHaveLength(1);
    });
  });

  it('watchLinks reports annotated, retargeted and dropped links (the popup list follows), not other DOM churn', async () => {
    document.body.innerHTML = `<a id="x" href="${shareUrl(0)}">x</a>`;
    const h = start();
    const reports = vi.fn();
    const unwatch = h.annotator.watchLinks(reports);
    h.scheduler.runAllFrames();
    await h.settle();
    expect(reports).toHaveBeenCalledTimes(1);

    document.body.append(document.createElement('div'));
    await h.settle();
    h.scheduler.runAllFrames();
    expect(reports).toHaveBeenCalledTimes(1);

    document.getElementById('x')!.setAttribute('href', shareUrl(1));
    await h.settle();
    h.scheduler.runAllFrames();
    expect(reports).toHaveBeenCalledTimes(2);

    document.getElementById('x')!.setAttribute('href', 'https://example.org/');
    await h.settle();
    h.scheduler.runAllFrames();
    expect(reports).toHaveBeenCalledTimes(3);
    expect(h.annotator.links()).toEqual([]);

    unwatch();
    document.body.append(link(shareUrl(2)));
    await h.settle();
    h.scheduler.runAllFrames();
    expect(reports).toHaveBeenCalledTimes(3);
  });

  it('watchLinks hears once per slice of DOM work, however many links it annotated', async () => {
    document.body.innerHTML = [0, 1, 2, 3, 4].map((i) => `<a href="${shareUrl(i)}">x</a>`).join(' ');
    const h = start();
    const reports = vi.fn();
    h.annotator.watchLinks(reports);
    h.scheduler.runAllFrames();
    await h.settle();
    expect(h.annotator.links()).toHaveLength(5);
    expect(reports).toHaveBeenCalledTimes(1);
  });

  it('a rescan with a service removed takes the badges off its links (they are no longer even candidates)', async () => {
    document.body.innerHTML = `<a id="ours" href="${shareUrl(0)}">x</a> <a id="other" href="https://other.example/share/${fixtureToken(1)}">y</a>`;
    const { createLinkRecognizer } = await import('@/lib/core/links');
    const other = { ...SERVICE, id: 'other', origin: 'https://other.example' };
    const h = start({ recognizer: createLinkRecognizer([SERVICE, other]) });
    h.scheduler.runAllFrames();
    expect(badges().map((badge) => badge.previousElementSibling?.id)).toEqual(['ours', 'other']);
    h.annotator.rescan({ recognizer: createLinkRecognizer([other]) });
    h.scheduler.runAllFrames();
    expect(badges().map((badge) => badge.previousElementSibling?.id)).toEqual(['other']);
    expect(h.annotator.links().map((found) => found.origin)).toEqual(['https://other.example']);
  });
});

describe('a rescan with new services (the settings replacing the share-shaped guess)', () => {
  it('looks again at the annotated links at once, and at the rest of the page only in idle slices', async () => {
    document.body.innerHTML = `${ordinaryLinks(990)} <a id="ours" href="${shareUrl(0)}">x</a> <a id="other" href="https://other.example/share/${fixtureToken(1)}">y</a>`;
    const other = { ...SERVICE, id: 'other', origin: 'https://other.example' };
    const h = start({ recognizer: createLinkRecognizer([SERVICE, other]) });
    h.scheduler.runAllFrames();
    const configured = createLinkRecognizer([SERVICE]);
    const recognize = vi.fn((anchor: HTMLAnchorElement, href?: string | null) => configured.recognizeAnchor(anchor, href));
    h.annotator.rescan({ recognizer: { recognizeAnchor: recognize } });
    // Before any idle period: the link of the service no longer configured has lost its badge (and room).
    expect(recognize).toHaveBeenCalledTimes(2);
    expect(badges().map((badge) => badge.previousElementSibling?.id)).toEqual(['ours']);
    expect(h.scheduler.pendingFrames).toBeGreaterThan(0);
    h.scheduler.runAllFrames();
    // Every anchor looked at once more (no candidate selector), the annotated ones not twice.
    expect(recognize).toHaveBeenCalledTimes(992);
    expect(badges().map((badge) => badge.previousElementSibling?.id)).toEqual(['ours']);
  });
});

describe('the links the annotator lists for the popup and side panel', () => {
  it("names each by the first link's own words, whitespace collapsed and cut short; a link without words has none", async () => {
    document.body.innerHTML = `
      <p><a href="${shareUrl(1)}">  Series A
        data room </a> <a href="${shareUrl(1)}">again</a></p>
      <p><a href="${shareUrl(2)}"><img alt=""></a></p>
      <p><a href="${shareUrl(3)}">${'long '.repeat(40)}</a></p>`;
    const h = start();
    h.scheduler.runAllFrames();
    await h.settle();
    const texts = h.annotator.links().map((found) => found.text);
    expect(texts[0]).toBe('Series A data room');
    expect(texts[1]).toBe('');
    expect(texts[2]?.length).toBe(120);
    expect(h.annotator.links()).toHaveLength(3);
  });
});
