import type { Badge } from './badge';
import { IDLE_VIEW, LOADING_VIEW, type BadgeView } from './badge-view';
import type { AnnotatableLink, EngineConfig, SnapshotRequest } from './types';

/** One share link found on the page: its anchor, the badge drawn after it, and its link's state. */
export interface Annotation {
  readonly anchor: HTMLAnchorElement;
  readonly badge: Badge;
  link: AnnotatableLink;
  state: LinkState;
  /** Times the badge was put back after the page moved or removed it (bounded: no tug of war). */
  repairs: number;
  /** Its link was already painted when it was found (badge-fit.ts: no room is taken in view then). */
  late: boolean;
}

/** What is known of one (origin, token), shared by every badge of that link on the page. */
export interface LinkState {
  readonly request: SnapshotRequest;
  view: BadgeView;
  /**
   * Usually one: an array is a fraction of a Set's size, and hundreds of states are made per page.
   * The first annotation replaces the empty array (`push` onto an empty one reserves room for 17).
   */
  annotations: Annotation[];
  cancelRetryTimer: (() => void) | null;
}

/** The states of the page's links by canonical key: what their badges show, and loading on intent. */
export interface LinkStates {
  /** The state of `link`'s key, created (and announced to `onNew`) the first time. */
  of: (link: AnnotatableLink) => LinkState;
  /** Moves `annotation` to `state` and shows that state on its badge. */
  attach: (annotation: Annotation, state: LinkState) => void;
  detach: (annotation: Annotation) => void;
  /** Shows `view` on every badge of the link. */
  show: (state: LinkState, view: BadgeView) => void;
  /** The state of the link with this canonical key, if this frame shows it. */
  find: (key: string) => LinkState | undefined;
  /**
   * The card was opened for the link: its badge shows loading (unless it shows a snapshot) until the
   * card's fetch is over. What it shows then comes as a `badgeChanged` (`show`) before `fetched`
   * settles; if none came (nothing fetched), the badge shows what it showed before.
   */
  expect: (state: LinkState, fetched: Promise<void>) => void;
  clear: () => void;
}

/**
 * `onNew`: a link seen for the first time (its cached answer is peeked at).
 *
 * Closures rather than classes throughout the content script: minified, their locals shrink to one
 * letter while `this.` properties keep their names (a class version of these units measured +839 B gzip).
 */
export function createLinkStates(
  { scheduler, now }: EngineConfig,
  onNew: (state: LinkState) => void,
  isStopped: () => boolean,
): LinkStates {
  const states = new Map<string, LinkState>();

  function show(state: LinkState, view: BadgeView): void {
    state.view = view;
    state.cancelRetryTimer?.();
    state.cancelRetryTimer = null;
    const at = now();
    for (const annotation of state.annotations) annotation.badge.render(view);
    if (view.state === 'error' && view.code === 'RATE_LIMITED' && view.retryAt !== undefined && view.retryAt > at) {
      // Once the pause is over, the badge invites a new try instead of showing a stale countdown.
      state.cancelRetryTimer = scheduler.timeout(() => {
        state.cancelRetryTimer = null;
        if (state.view === view) show(state, IDLE_VIEW);
      }, view.retryAt - at);
    }
  }

  return {
    of(link) {
      let state = states.get(link.canonicalKey);
      if (!state) {
        state = {
          request: { origin: link.origin, token: link.token },
          view: IDLE_VIEW,
          annotations: [],
          cancelRetryTimer: null,
        };
        states.set(link.canonicalKey, state);
        onNew(state);
      }
      return state;
    },
    attach(annotation, state) {
      annotation.state = state;
      if (state.annotations.length === 0) state.annotations = [annotation];
      else state.annotations.push(annotation);
      annotation.badge.render(state.view);
    },
    detach(annotation) {
      const list = annotation.state.annotations;
      const index = list.indexOf(annotation);
      if (index !== -1) list.splice(index, 1);
    },
    show,
    find: (key) => states.get(key),
    expect(state, fetched) {
      const before = state.view;
      if (before.state !== 'ready') show(state, LOADING_VIEW);
      void fetched
        .catch(() => undefined)
        .then(() => {
          if (!isStopped() && state.view === LOADING_VIEW) show(state, before);
        });
    },
    clear() {
      for (const state of states.values()) state.cancelRetryTimer?.();
      states.clear();
    },
  };
}
