/**
 * What the frame sentinel (lib/page-world, in the page's own world of an `about:blank`/`srcdoc` frame)
 * and the extension say to each other. It runs where the page runs, so the page can see, send and
 * forge all of it: a signal only makes the background look (lib/background/frames/link-frames-locator.ts).
 */

/** Posted by a sentinel to each window above its frame: "links appeared here". */
export const FRAME_LINKS_SIGNAL = 'compliance-lens:frame-links';

/** Dispatched on a frame's window once the annotator runs there: its sentinel stops. */
export const FRAME_SENTINEL_STOP = 'compliance-lens:frame-annotated';

/**
 * Set on a frame's document (`Symbol.for`) by its sentinel when its links change, and cleared by the
 * background's report: a look reads only the frames with news. (Not the address: a script that
 * rewrites an `about:blank` frame with `document.open` gives it the writer's address.)
 */
export const FRAME_CHANGED_MARK = 'compliance-lens.frame-links-changed';

/** Set on a frame's document (`Symbol.for`) once the annotator runs there: the background skips it. */
export const FRAME_ANNOTATED_MARK = 'compliance-lens.frame-annotated';

/** Whether a posted message is a sentinel's signal (the relay reads nothing else of it). */
export const isFrameLinksSignal = (data: unknown): boolean => data === FRAME_LINKS_SIGNAL;
