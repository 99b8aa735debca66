import { isRecord, isString } from '../core/guards';
import { MAX_CANDIDATE_SELECTOR_LENGTH } from '../core/limits';
import { changesPageSettings } from '../core/storage-keys';
import type { ContentProtocolMap } from '../protocol/content';
import { ANCHOR_SELECTOR, forEachShadowRoot, isElement } from './dom';
import { contentMessenger, extensionApi } from './messaging';

/** Attribute changes that can turn an anchor into a link (or into another one). */
const WATCHED = { childList: true, subtree: true, attributes: true, attributeFilter: ['href'] };

/**
 * Whether `root` is or holds an element matching `selector`, or an open shadow root (a web component
 * may fill it at any time). A selector the browser rejects counts as a match: the annotator decides.
 */
function holds(root: Document | Element, selector: string): boolean {
  if (isMatch(root, selector)) return true;
  try {
    if (root.querySelector(selector) !== null) return true;
  } catch {
    return true;
  }
  return forEachShadowRoot(root, () => true);
}

/** Whether `node` is an element matching `selector` (a selector the browser rejects counts as one). */
function isMatch(node: Node, selector: string): boolean {
  try {
    return isElement(node) && node.matches(selector);
  } catch {
    return true;
  }
}

function someHolds(nodes: NodeList, selector: string): boolean {
  for (let index = 0; index < nodes.length; index += 1) {
    const node = nodes[index];
    if (node !== undefined && isElement(node) && holds(node, selector)) return true;
  }
  return false;
}

/**
 * Calls `found` once the document holds an element matching `selector` (at once if it already does).
 * Until then: one look at the document, and an observer that looks at added nodes and changed `href`s
 * only. Returns a function that stops watching.
 */
export function watchFor(doc: Document, selector: string, found: () => void): () => void {
  if (holds(doc, selector)) {
    found();
    return () => undefined;
  }
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      // A changed `href` is new on that element only; added nodes are new with their subtrees.
      if (record.type === 'attributes' ? isMatch(record.target, selector) : someHolds(record.addedNodes, selector)) {
        observer.disconnect();
        found();
        return;
      }
    }
  });
  observer.observe(doc, WATCHED);
  return () => observer.disconnect();
}

/** Resolves once the document holds an element matching `selector`. */
export const whenPresent = (doc: Document, selector: string) =>
  new Promise<void>((resolve) => void watchFor(doc, selector, resolve));

export interface FrameProbeDeps {
  /** `window === window.top`. */
  isTopFrame: boolean;
  document: Document;
  /** Which links of a frame with this base URL may be share links (`frameCandidates`): unchecked. */
  candidates(baseURI: string): Promise<unknown>;
  /** Calls `listener` whenever the services may have changed; returns a function that stops it. */
  onServicesChanged(listener: () => void): () => void;
  /** Asks the background to run the annotator in this frame (`startInFrame`). */
  start(): Promise<unknown>;
}

/**
 * The selector in the background's answer; null when no service is configured. Anything else, or no
 * answer, gives every link: the annotator is started and decides, as it would without the probe.
 */
async function candidateSelector(deps: FrameProbeDeps): Promise<string | null> {
  const answer = await deps.candidates(deps.document.baseURI).catch(() => undefined);
  if (isRecord(answer) && (answer.selector === null || isString(answer.selector, MAX_CANDIDATE_SELECTOR_LENGTH)))
    return answer.selector;
  return ANCHOR_SELECTOR;
}

/**
 * Resolves once the frame holds a link that may be a share link of a configured service (the
 * background says which: it knows the services, the probe does not). Asked again when the services
 * change; an older answer arriving late is ignored.
 */
function whenCandidatesAppear(deps: FrameProbeDeps): Promise<void> {
  return new Promise((resolve) => {
    let asked = 0;
    let finished = false;
    let stopWatching = () => {};
    const stopListening = deps.onServicesChanged(() => void look());
    async function look(): Promise<void> {
      const generation = (asked += 1);
      const selector = await candidateSelector(deps);
      if (generation !== asked || finished) return;
      stopWatching();
      stopWatching = selector === null ? () => undefined : watchFor(deps.document, selector, done);
    }
    function done(): void {
      finished = true;
      stopListening();
      resolve();
    }
    void look();
  });
}

/**
 * The script every subframe of a matched page gets instead of the annotator: most frames (ads,
 * editors, widgets) never hold a link, and the probe's own work there is next to nothing (no
 * extension API, no engine; the browser's injection of any script is the larger part,
 * docs/design-changes.md). Once the frame holds a link, the probe asks the background which links may be share links
 * here, and once one of those is present the background injects the annotator into the frame: a
 * mail body of ordinary links costs one message, not an engine. The top frame runs the annotator from
 * the manifest and is left alone here.
 */
export async function probeFrame(deps: FrameProbeDeps): Promise<void> {
  if (deps.isTopFrame) return;
  await whenPresent(deps.document, ANCHOR_SELECTOR);
  await whenCandidatesAppear(deps);
  // The extension may have been reloaded or removed meanwhile: then there is nothing to start.
  await deps.start().catch(() => undefined);
}

const messenger = () => contentMessenger<ContentProtocolMap>();

/** The probe's extension side: `frameCandidates` and `startInFrame`, and the settings keys in storage. */
export const frameProbeMessaging: Pick<FrameProbeDeps, 'candidates' | 'onServicesChanged' | 'start'> = {
  candidates: (baseURI) => messenger().send('frameCandidates', { baseURI }),
  onServicesChanged(listener) {
    const events = extensionApi().storage.onChanged;
    const onChanged = (changes: Record<string, unknown>, area: string) => {
      if (changesPageSettings(changes, area)) listener();
    };
    events.addListener(onChanged);
    return () => events.removeListener(onChanged);
  },
  start: () => messenger().send('startInFrame'),
};
