import type { ContentProtocolMap } from '../protocol/content';
import { ANCHOR_SELECTOR, forEachShadowRoot, isAnchor, isElement } from './dom';
import { contentMessenger } from './messaging';

/** Whether `root` holds a link, or an open shadow root (whose content a web component may fill at any time). */
function mayHoldLinks(root: Document | Element): boolean {
  return isAnchor(root) || root.querySelector(ANCHOR_SELECTOR) !== null || forEachShadowRoot(root, () => true);
}

/**
 * Resolves once the document holds a link or an open shadow root (at once if it already does).
 * Until then: one look at the document, and an observer that looks at added nodes only.
 */
export function whenLinksAppear(doc: Document): Promise<void> {
  return new Promise((resolve) => {
    if (mayHoldLinks(doc)) return resolve();
    const observer = new MutationObserver((records) => {
      const found = records.some((record) =>
        Array.prototype.some.call(record.addedNodes, (node: Node) => isElement(node) && mayHoldLinks(node)),
      );
      if (!found) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(doc, { childList: true, subtree: true });
  });
}

export interface FrameProbeDeps {
  /** `window === window.top`. */
  isTopFrame: boolean;
  document: Document;
  /** Asks the background to run the annotator in this frame (`startInFrame`). */
  start(): Promise<unknown>;
}

/**
 * The script every subframe of a matched page gets instead of the annotator: most frames (ads,
 * editors, widgets) never hold a link, and this costs them next to nothing (no extension API, no
 * engine). Once the frame holds a link, the background injects the annotator into it. The top frame
 * runs the annotator from the manifest and is left alone here.
 */
export async function probeFrame(deps: FrameProbeDeps): Promise<void> {
  if (deps.isTopFrame) return;
  await whenLinksAppear(deps.document);
  // The extension may have been reloaded or removed meanwhile: then there is nothing to start.
  await deps.start().catch(() => undefined);
}

/** `startInFrame` through the content messaging. */
export const askToStartInFrame = () => contentMessenger<ContentProtocolMap>().send('startInFrame');
