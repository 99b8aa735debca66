import { badgeFace, type BadgeWords } from '../core/badge-face';
import { toBadgeSummary, type SnapshotRequest, type SnapshotResult } from '../core/schemas/results';
import type { FrameOf, PushToFrame } from './cards/card-routes';
import type { SnapshotService } from './snapshot-service/service';

/** Links one frame's badges may be kept up to date for (a page of more share links than this is not real). */
const MAX_LINKS_PER_FRAME = 5_000;
/** Frames of one tab kept, as `linkFrames` keeps them. */
const MAX_FRAMES_PER_TAB = 50;

/**
 * Which frames of which tabs show badges of which links: each frame's content script peeks the links
 * it draws badges for (`peekBadges`), so a link fetched again anywhere (a card in another frame, the
 * popup, the side panel, the watchlist) can have every badge of it updated (`badgeChanged`). In the
 * worker's memory only: a restarted worker updates the badges of the links peeked after it started.
 */
export interface BadgeFrames {
  /** `frame` peeked these links: its badges show them. */
  note(frame: FrameOf, requests: readonly SnapshotRequest[]): void;
  /** The frames whose badges show the link. */
  showing(request: SnapshotRequest): FrameOf[];
  /** The tab closed or loaded another page: its frames are gone. */
  forgetTab(tabId: number): void;
}

const keyOf = ({ origin, token }: SnapshotRequest) => `${origin}|${token}`;

export function createBadgeFrames(): BadgeFrames {
  const tabs = new Map<number, Map<number, Set<string>>>();
  return {
    note({ tabId, frameId }, requests) {
      const frames = tabs.get(tabId) ?? new Map<number, Set<string>>();
      tabs.set(tabId, frames);
      const links = frames.get(frameId) ?? new Set<string>();
      if (!frames.has(frameId)) {
        if (frames.size >= MAX_FRAMES_PER_TAB) return;
        frames.set(frameId, links);
      }
      for (const request of requests) if (links.size < MAX_LINKS_PER_FRAME) links.add(keyOf(request));
    },
    showing(request) {
      const key = keyOf(request);
      return [...tabs].flatMap(([tabId, frames]) =>
        [...frames].flatMap(([frameId, links]) => (links.has(key) ? [{ tabId, frameId }] : [])),
      );
    },
    forgetTab(tabId) {
      tabs.delete(tabId);
    },
  };
}

export interface BadgeUpdateDeps {
  frames: BadgeFrames;
  push: PushToFrame;
  words: () => Promise<BadgeWords>;
}

/**
 * The snapshot service, telling every frame whose badges show a link what they show now each time it
 * is fetched (not when it is served from the cache: nothing changed then). Peeks are passed through.
 */
export function withBadgeUpdates(service: SnapshotService, deps: BadgeUpdateDeps): SnapshotService {
  const announce = async (request: SnapshotRequest, result: SnapshotResult) => {
    if (result.fromCache === true) return;
    const frames = deps.frames.showing(request);
    if (frames.length === 0) return;
    const badge = badgeFace(toBadgeSummary(result), await deps.words());
    // A frame gone (navigated, closed) does not answer: nothing to update there.
    await Promise.all(frames.map((frame) => deps.push('badgeChanged', { ...request, badge }, frame).catch(() => undefined)));
  };
  const announced =
    <Args extends unknown[], Result extends SnapshotResult | { status: 'deferred' }>(
      call: (request: SnapshotRequest, ...rest: Args) => Promise<Result>,
    ) =>
    async (request: SnapshotRequest, ...rest: Args): Promise<Result> => {
      const result = await call(request, ...rest);
      if (result.status !== 'deferred') void announce(request, result).catch(() => undefined);
      return result;
    };
  return {
    ...service,
    getSnapshot: announced(service.getSnapshot),
    refresh: announced(service.refresh),
    refreshInBackground: announced(service.refreshInBackground),
  };
}
