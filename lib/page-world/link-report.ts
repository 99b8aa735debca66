import type { FrameLinkReport, FrameLinkReportOptions } from '../protocol/guarded/link-report';

/**
 * Run by the background in every frame of a tab (`scripting.executeScript` with `func`, which sends
 * the function's source: so it refers to nothing outside itself). In the page's own world the page may
 * have altered anything it calls; the background parses the answer. False for a frame it has nothing
 * to say about (the top frame, a frame whose links did not change since the last report, one the
 * annotator already runs in), so that null stays the browser's "it did not run here" (a sandboxed
 * frame without scripts).
 */
export function reportFrameLinks(options: FrameLinkReportOptions): FrameLinkReport | false {
  if (window === window.top) return false;
  if (Reflect.get(document, Symbol.for(options.annotatedMark)) === true) return false;
  // `typeof`: the browser passes arguments as JSON-like values, and may drop an empty field.
  if (typeof options.changedMark === 'string') {
    if (Reflect.get(document, Symbol.for(options.changedMark)) !== true) return false;
    Reflect.set(document, Symbol.for(options.changedMark), false);
  }
  const hrefs: string[] = [];
  let more = false;
  const anchors = document.querySelectorAll('a[href]');
  for (let index = 0; index < anchors.length; index += 1) {
    // Not `instanceof HTMLAnchorElement`: a frame's nodes may come from another realm (a document the
    // page adopted them from, a window the browser reused), and that test then refuses every link.
    // An SVG `<a>` has no string `href`.
    const anchor = anchors[index];
    const href: unknown = anchor === undefined ? undefined : Reflect.get(anchor, 'href');
    if (typeof href !== 'string') continue;
    if (hrefs.length === options.maxHrefs) {
      more = true;
      break;
    }
    if (href.length <= options.maxHrefLength) hrefs.push(href);
  }
  let shadowRoots = false;
  const elements = document.querySelectorAll('*');
  for (let index = 0; index < elements.length && !shadowRoots; index += 1) shadowRoots = Boolean(elements[index]?.shadowRoot);
  return { hrefs, more, shadowRoots };
}

/** Run like `reportFrameLinks` in a frame the annotator now runs in: marks it, and stops its sentinel. */
export function markFrameAnnotated(mark: string, stopEvent: string): void {
  Reflect.set(document, Symbol.for(mark), true);
  window.dispatchEvent(new Event(stopEvent));
}
