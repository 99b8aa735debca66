// @vitest-environment happy-dom
/**
 * What the background runs in the page world of every frame: the report of a sentinel's frame, and
 * the mark once the annotator runs there. `scripting.executeScript` sends a function's source, so
 * these tests run each from its source alone: a reference to anything outside it would fail here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FRAME_ANNOTATED_MARK, FRAME_CHANGED_MARK, FRAME_SENTINEL_STOP } from '@/lib/protocol/guarded/frame-signals';
import { markFrameAnnotated, reportFrameLinks } from '@/lib/page-world/link-report';
import type { FrameLinkReportOptions } from '@/lib/protocol/guarded/link-report';
import { withForeignPrototype } from '../../support/realms';

/** The function rebuilt from its source, as the browser does. */
function fromSource<F extends (...args: never[]) => unknown>(fn: F): F {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- rebuilding a function from its source is the point
  const rebuild = new Function(`return (${fn.toString()})`) as () => F;
  return rebuild();
}

const OPTIONS: FrameLinkReportOptions = {
  changedMark: FRAME_CHANGED_MARK,
  annotatedMark: FRAME_ANNOTATED_MARK,
  maxHrefs: 3,
  maxHrefLength: 60,
};
const report = fromSource(reportFrameLinks);

/** Runs the report as if this test window were a subframe (its own `top` is some other window). */
function reportAsSubframe() {
  const top = Object.getOwnPropertyDescriptor(window, 'top');
  Object.defineProperty(window, 'top', { configurable: true, get: () => ({}) });
  try {
    return report(OPTIONS);
  } finally {
    if (top) Object.defineProperty(window, 'top', top);
  }
}

afterEach(() => {
  document.body.innerHTML = '';
  Reflect.deleteProperty(document, Symbol.for(FRAME_CHANGED_MARK));
  Reflect.deleteProperty(document, Symbol.for(FRAME_ANNOTATED_MARK));
});

describe('reportFrameLinks (from its source)', () => {
  it('lists the resolved links of a sentinel frame, skipping overlong ones', () => {
    Reflect.set(document, Symbol.for(FRAME_CHANGED_MARK), true);
    document.body.innerHTML = `<a href="/share/abc">rel</a><a href="https://b.test/x">b</a><a href="https://c.test/${'y'.repeat(80)}">long</a>`;
    expect(reportAsSubframe()).toEqual({
      hrefs: [new URL('/share/abc', document.baseURI).href, 'https://b.test/x'],
      more: false,
      shadowRoots: false,
    });
  });

  it('says when there are more links than it lists, and when an open shadow root is present', () => {
    Reflect.set(document, Symbol.for(FRAME_CHANGED_MARK), true);
    document.body.innerHTML = [1, 2, 3, 4].map((n) => `<a href="https://a.test/${n}">${n}</a>`).join('');
    document.body.append(document.createElement('deal-card'));
    document.querySelector('deal-card')?.attachShadow({ mode: 'open' });
    expect(reportAsSubframe()).toEqual({
      hrefs: ['https://a.test/1', 'https://a.test/2', 'https://a.test/3'],
      more: true,
      shadowRoots: true,
    });
  });

  it("lists links whose nodes carry another realm's prototypes (the page read them from its top window first), and no SVG link", () => {
    Reflect.set(document, Symbol.for(FRAME_CHANGED_MARK), true);
    const foreign = document.createElement('a');
    foreign.setAttribute('href', 'https://a.test/foreign');
    withForeignPrototype(foreign, HTMLAnchorElement);
    document.body.append(foreign);
    document.body.insertAdjacentHTML(
      'beforeend',
      '<svg><a href="https://a.test/svg"><text>svg</text></a></svg><a href="https://a.test/own">own</a>',
    );
    expect(foreign instanceof HTMLAnchorElement).toBe(false);
    expect(reportAsSubframe()).toEqual({
      hrefs: ['https://a.test/foreign', 'https://a.test/own'],
      more: false,
      shadowRoots: false,
    });
  });

  it('reads a frame once per change: the mark is cleared, and the next report is false until the sentinel marks it again', () => {
    Reflect.set(document, Symbol.for(FRAME_CHANGED_MARK), true);
    document.body.innerHTML = '<a href="https://a.test/1">1</a>';
    expect(reportAsSubframe()).toEqual({ hrefs: ['https://a.test/1'], more: false, shadowRoots: false });
    expect(reportAsSubframe()).toBe(false);
    Reflect.set(document, Symbol.for(FRAME_CHANGED_MARK), true);
    expect(reportAsSubframe()).not.toBe(false);
  });

  it('is false (not null, which the browser gives where it could not run) without news, once annotated, and in the top frame', () => {
    document.body.innerHTML = '<a href="https://a.test/1">1</a>';
    expect(reportAsSubframe()).toBe(false);
    Reflect.set(document, Symbol.for(FRAME_CHANGED_MARK), true);
    expect(report(OPTIONS)).toBe(false); // the test window is its own top
    fromSource(markFrameAnnotated)(FRAME_ANNOTATED_MARK, FRAME_SENTINEL_STOP);
    expect(reportAsSubframe()).toBe(false);
    expect(Reflect.get(document, Symbol.for(FRAME_CHANGED_MARK))).toBe(true); // an annotated frame's news is not read
  });

  it('without a sentinel mark to look for (the isolated world of a frame without scripts), reports any subframe', () => {
    const { changedMark: _dropped, ...withoutSentinel } = OPTIONS;
    document.body.innerHTML = '<a href="https://a.test/1">1</a>';
    expect(report(withoutSentinel)).toBe(false); // still not the top frame
    Object.defineProperty(window, 'top', { configurable: true, get: () => ({}) });
    try {
      expect(report(withoutSentinel)).toEqual({
        hrefs: ['https://a.test/1'],
        more: false,
        shadowRoots: false,
      });
    } finally {
      Reflect.deleteProperty(window, 'top');
    }
  });
});

describe('markFrameAnnotated (from its source)', () => {
  it('marks the document and tells the sentinel to stop', () => {
    let stopped = 0;
    window.addEventListener(FRAME_SENTINEL_STOP, () => (stopped += 1), { once: true });
    fromSource(markFrameAnnotated)(FRAME_ANNOTATED_MARK, FRAME_SENTINEL_STOP);
    expect(Reflect.get(document, Symbol.for(FRAME_ANNOTATED_MARK))).toBe(true);
    expect(stopped).toBe(1);
  });
});
