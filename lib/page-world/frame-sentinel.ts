import { FRAME_CHANGED_MARK, FRAME_LINKS_SIGNAL, FRAME_SENTINEL_STOP } from '../protocol/guarded/frame-signals';
import { ANCHOR_SELECTOR, holds, observeArrivals, watchScriptlessFrames } from '../dom';

/** Link changes within this time make one signal (a mail body written in pieces, a list filled row by row). */
export const SIGNAL_DELAY_MS = 50;

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
 * Posts FRAME_LINKS_SIGNAL to every window above `win`. The top frame's frame relay, when the top
 * page is one the extension runs on, passes it to the background; the other windows ignore it.
 */
export function signalAncestors(win: Window): void {
  let current = win;
  while (current !== current.parent) {
    current = current.parent;
    current.postMessage(FRAME_LINKS_SIGNAL, '*');
  }
}
