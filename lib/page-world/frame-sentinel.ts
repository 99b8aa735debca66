import { FRAME_CHANGED_MARK, FRAME_LINKS_SIGNAL, FRAME_SENTINEL_STOP } from '../core/frame-signals';
import { ANCHOR_SELECTOR, holds, observeArrivals, watchScriptlessFrames } from '../dom';

/** Link changes within this time make one signal (a mail body written in pieces, a list filled row by row). */
export const SIGNAL_DELAY_MS = 50;

/**
 * The frames the sentinel watches: the subframes whose document has no address of its own
 * (`about:blank`, `srcdoc`, `blob:`). A frame with an http(s) address runs the frame probe, which
 * has the extension API and relays this sentinel's signals.
 */
export function isSentinelFrame(win: Window): boolean {
  return win !== win.top && win.location.protocol !== 'http:' && win.location.protocol !== 'https:';
}

/**
 * Marks the frame's document as changed (FRAME_CHANGED_MARK) and calls `signal` shortly after, when the
 * frame first holds a link or an open shadow root, and again after each later change that adds one
 * (or changes an `href`), until the frame's window receives FRAME_SENTINEL_STOP (the annotator runs
 * there now); and whenever a sandboxed frame without scripts loads in it. Returns a function that
 * stops it.
 */
export function watchFrameLinks(win: Window, signal: () => void): () => void {
  let pending = false;
  const notify = () => {
    Reflect.set(win.document, Symbol.for(FRAME_CHANGED_MARK), true);
    if (pending) return;
    pending = true;
    win.setTimeout(() => {
      pending = false;
      signal();
    }, SIGNAL_DELAY_MS);
  };
  const stopObserving = observeArrivals(win.document, ANCHOR_SELECTOR, notify);
  if (holds(win.document, ANCHOR_SELECTOR)) notify();
  // A sandboxed frame without scripts inside this one has no sentinel of its own: this one speaks for it.
  const stopFrames = watchScriptlessFrames(win.document, notify);
  const stopLinks = () => {
    stopObserving();
    win.removeEventListener(FRAME_SENTINEL_STOP, stopLinks);
  };
  win.addEventListener(FRAME_SENTINEL_STOP, stopLinks);
  return () => {
    stopLinks();
    stopFrames();
  };
}

/**
 * Posts FRAME_LINKS_SIGNAL to every window above `win`. The nearest one that runs the extension's
 * isolated script (the top frame's, or a matched subframe's frame probe) relays it to the background.
 */
export function signalAncestors(win: Window): void {
  let current = win;
  while (current !== current.parent) {
    current = current.parent;
    current.postMessage(FRAME_LINKS_SIGNAL, '*');
  }
}
