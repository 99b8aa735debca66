import { coalesce } from '../core/coalesce';
import { FRAME_LINKS_SIGNAL } from '../core/frame-signals';
import { isRecord, isString } from '../core/guards';
import { MAX_CANDIDATE_SELECTOR_LENGTH } from '../core/limits';
import { changesPageSettings } from '../core/storage-keys';
import type { ContentProtocolMap } from '../protocol/content';
import { ANCHOR_SELECTOR, holds, observeArrivals, watchScriptlessFrames } from '../dom';
import { contentMessenger, extensionApi } from './messaging';

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
  const stop = observeArrivals(doc, selector, () => {
    stop();
    found();
  });
  return stop;
}

/** Resolves once the document holds an element matching `selector`. */
export const whenPresent = (doc: Document, selector: string) =>
  new Promise<void>((resolve) => void watchFor(doc, selector, resolve));

export interface FrameProbeDeps {
  /** `window === window.top`. */
  isTopFrame: boolean;
  window: Window;
  document: Document;
  /** Which links of a frame with this base URL may be share links (`frameCandidates`): unchecked. */
  candidates(baseURI: string): Promise<unknown>;
  /** Calls `listener` whenever the services may have changed; returns a function that stops it. */
  onServicesChanged(listener: () => void): () => void;
  /** Asks the background to run the annotator in this frame (`startInFrame`). */
  start(): Promise<unknown>;
  /** Asks the background to find the tab's frames that hold a share link (`locateLinkFrames`). */
  locate(): Promise<unknown>;
}

/**
 * Asks the background to look at the tab's `about:blank`/`srcdoc` frames (`locateLinkFrames`) when a
 * frame sentinel below signals (lib/page-world/frame-sentinel.ts: it has no extension API), and when
 * a sandboxed frame without scripts loads in this document (no sentinel can run there). Any window,
 * the page's too, can post a signal; it only makes the background look, and signals during a look
 * cost one more look. Returns a function that stops relaying.
 */
export function relayFrameSignals(win: Window, locate: () => Promise<unknown>): () => void {
  const request = coalesce(locate);
  const onMessage = (event: MessageEvent) => {
    // Not `event.source`: reading a frame's window from this world builds this world in that frame.
    if (event.data === FRAME_LINKS_SIGNAL) void request();
  };
  win.addEventListener('message', onMessage);
  const stopWatching = watchScriptlessFrames(win.document, () => void request());
  return () => {
    win.removeEventListener('message', onMessage);
    stopWatching();
  };
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
 * The script every frame of a matched page with an http(s) address gets (frames without one have the
 * sentinel instead). In every frame, the top one too, it relays the sentinels' signals from below. In
 * a subframe it stands in for the annotator: most frames (ads, editors, widgets) never hold a link,
 * and the probe's own work there is next to nothing (no extension API, no engine; the browser's
 * injection of any isolated script is the larger part, docs/design-changes.md). Once the frame holds
 * a link, the probe asks the background which links may be share links here, and once one of those
 * is present the background injects the annotator into the frame: a frame of ordinary links costs
 * one message, not an engine. The top frame runs the annotator from the manifest.
 */
export async function probeFrame(deps: FrameProbeDeps): Promise<void> {
  relayFrameSignals(deps.window, () => deps.locate());
  if (deps.isTopFrame) return;
  await whenPresent(deps.document, ANCHOR_SELECTOR);
  await whenCandidatesAppear(deps);
  // The extension may have been reloaded or removed meanwhile: then there is nothing to start.
  await deps.start().catch(() => undefined);
}

const messenger = () => contentMessenger<ContentProtocolMap>();

/** The probe's extension side: its three messages, and the settings keys in storage. */
export const frameProbeMessaging: Pick<FrameProbeDeps, 'candidates' | 'onServicesChanged' | 'start' | 'locate'> = {
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
  locate: () => messenger().send('locateLinkFrames'),
};
