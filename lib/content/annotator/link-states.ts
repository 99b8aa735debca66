import type { Badge } from './badge';
import { IDLE_VIEW, type BadgeView } from './badge-view';
import type { AnnotatableLink, EngineConfig, SnapshotRequest } from './types';

/** One share link found on the page: its anchor, the badge drawn after it, and its link's state. */
export interface Annotation {
  readonly anchor: HTMLAnchorElement;
  readonly badge: Badge;
  link: AnnotatableLink;
  state: LinkState;
  /** Times the badge was put back after the page moved or removed it (bounded: no tug of war). */
  repairs: number;
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
  fetching: boolean;
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
  /** Cached while fresh, else one fetch (a view for the founder): only ever on the user's intent. */
  load: (state: LinkState) => void;
  clear: () => void;
}

/**
 * `onNew`: a link seen for the first time (its cached answer is peeked at).
 *
 * Closures rather than classes throughout the content script: minified, their locals shrink to one
 * letter while `this.` properties keep their names (a class version of these units measured +839 B gzip).
 */
export function createLinkStates(
  { client, scheduler, now }: EngineConfig,
  onNew: (state: LinkState) => void,
  isStopped: () => boolean,
): LinkStates {
  const states = new Map<string, LinkState>();

  function show(state: LinkState, view: BadgeView): void {
    state.view = view;
    state.cancelRetryTimer?.();
    state.cancelRetryTimer = null;
    const at = now();
    for (const annotation of state.annotations) annotation.badge.render(view, at);
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
          fetching: false,
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
      annotation.badge.render(state.view, now());
    },
    detach(annotation) {
      const list = annotation.state.annotations;
      const index = list.indexOf(annotation);
      if (index !== -1) list.splice(index, 1);
    },
    show,
    load(state) {
      if (state.fetching) return;
      state.fetching = true;
      if (state.view.state !== 'ready') show(state, { state: 'loading' });
      void client
        .get(state.request)
        .catch((): BadgeView => ({ state: 'error', code: 'NETWORK' }))
        .then((view) => {
          state.fetching = false;
          if (!isStopped()) show(state, view);
        });
    },
    clear() {
      for (const state of states.values()) state.cancelRetryTimer?.();
      states.clear();
    },
  };
}
