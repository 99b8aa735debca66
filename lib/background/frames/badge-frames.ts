import { badgeFace, type BadgeWords } from '../../core/badge-face';
import { canonicalKeyOf } from '../../core/links/templates';
import { toBadgeSummary, type SnapshotRequest, type SnapshotResult } from '../../core/schemas/results';
import { z } from 'zod';
import type { FrameOf, PushToFrame } from '../cards/card-routes';
import { KeyedMutex } from '../common/keyed-mutex';
import type { StorageAreaAdapter } from '../common/storage-area';
import type { BudgetDeferral, SnapshotService } from '../snapshot-service/service';

/**
 * How long a fetch's answer waits for its badges to be told (a frame that is going away may never
 * answer): the card's answer comes after its badge's, so the badge never drops back to what it showed.
 */
const ANNOUNCE_WAIT_MS = 250;
/** Links of one tab whose badges are kept up to date (a page of more share links than this is not real). */
const MAX_LINKS_PER_TAB = 1_000;
/** Frames of one tab kept, as `linkFrames` keeps them. */
const MAX_FRAMES_PER_TAB = 50;
/** Tabs kept: the oldest noted goes first (storage.session is shared with the snapshot cache). */
const MAX_TABS = 50;
const KEY_PREFIX = 'badgeFrames:';
/** The tabs that have an entry, oldest first: a restarted worker reads them without listing the whole area. */
const TABS_KEY = 'badgeFrameTabs';

/** One tab's frames and the links each shows (canonical keys). */
const tabSchema = z.record(z.string().regex(/^\d+$/), z.array(z.string())).catch({});
const tabsSchema = z.array(z.int().nonnegative()).catch([]);

/**
 * Which frames of which tabs show badges of which links: each frame's content script peeks the links
 * it draws badges for (`peekBadges`), so a link fetched again anywhere (a card in another frame, the
 * popup, the side panel, the watchlist) can have every badge of it updated (`badgeChanged`). Kept in
 * memory and in storage.session: the worker stops after half a minute idle, and the popup's Load
 * comes long after the page's peeks.
 */
export interface BadgeFrames {
  /** `frame` peeked these links: its badges show them. */
  note(frame: FrameOf, requests: readonly SnapshotRequest[]): Promise<void>;
  /** The frames whose badges show the link. */
  showing(request: SnapshotRequest): Promise<FrameOf[]>;
  /** The tab closed or loaded another page: its frames are gone. */
  forgetTab(tabId: number): Promise<void>;
}

const keyOf = ({ origin, token }: SnapshotRequest) => canonicalKeyOf(origin, token);
const tabKey = (tabId: number) => KEY_PREFIX + tabId;

export function createBadgeFrames(area: StorageAreaAdapter): BadgeFrames {
  /** Per tab (insertion order = oldest first): each frame's links. */
  const tabs = new Map<number, Map<number, Set<string>>>();
  let loaded: Promise<void> | undefined;
  // One write at a time, in order (each writes what memory holds then).
  const writes = new KeyedMutex();

  const load = () =>
    (loaded ??= (async () => {
      const ids = tabsSchema.parse((await area.get([TABS_KEY]))[TABS_KEY]);
      const stored = ids.length > 0 ? await area.get(ids.map(tabKey)) : {};
      for (const tabId of ids) {
        if (tabs.has(tabId)) continue;
        const frames = Object.entries(tabSchema.parse(stored[tabKey(tabId)]));
        tabs.set(tabId, new Map(frames.map(([frameId, links]) => [Number(frameId), new Set(links)])));
      }
    })().catch(() => undefined));

  const save = (tabId: number) =>
    writes
      .run('badgeFrames', async () => {
        const frames = tabs.get(tabId);
        const index = { [TABS_KEY]: [...tabs.keys()] };
        if (!frames) return Promise.all([area.remove([tabKey(tabId)]), area.set(index)]);
        const entry = Object.fromEntries([...frames].map(([frameId, links]) => [frameId, [...links]]));
        return area.set({ [tabKey(tabId)]: entry, ...index });
      })
      .catch(() => undefined);

  return {
    async note({ tabId, frameId }, requests) {
      await load();
      const frames = tabs.get(tabId) ?? new Map<number, Set<string>>();
      if (!tabs.has(tabId)) {
        tabs.set(tabId, frames);
        const oldest = tabs.size > MAX_TABS ? tabs.keys().next().value : undefined;
        if (oldest !== undefined) {
          tabs.delete(oldest);
          void save(oldest);
        }
      }
      const links = frames.get(frameId) ?? new Set<string>();
      if (!frames.has(frameId)) {
        if (frames.size >= MAX_FRAMES_PER_TAB) return;
        frames.set(frameId, links);
      }
      let count = [...frames.values()].reduce((sum, shown) => sum + shown.size, 0);
      let added = false;
      for (const request of requests) {
        const key = keyOf(request);
        if (links.has(key) || count >= MAX_LINKS_PER_TAB) continue;
        links.add(key);
        count += 1;
        added = true;
      }
      if (added) await save(tabId);
    },
    async showing(request) {
      await load();
      const key = keyOf(request);
      return [...tabs].flatMap(([tabId, frames]) =>
        [...frames].flatMap(([frameId, links]) => (links.has(key) ? [{ tabId, frameId }] : [])),
      );
    },
    async forgetTab(tabId) {
      await load();
      if (!tabs.delete(tabId)) return;
      await save(tabId);
    },
  };
}

export interface BadgeUpdateDeps {
  frames: BadgeFrames;
  push: PushToFrame;
  words: () => Promise<BadgeWords>;
  /** Every origin a link of the service at `origin` may be written with (its aliases); default: itself. */
  spellings?: (origin: string) => Promise<string[]>;
}

/**
 * The snapshot service, telling every frame whose badges show a link what they show now each time it
 * is fetched (not when it is served from the cache: nothing changed then), before it answers: the
 * only way a badge learns of a fetch. Peeks are passed through.
 */
export function withBadgeUpdates(service: SnapshotService, deps: BadgeUpdateDeps): SnapshotService {
  const announce = async (request: SnapshotRequest, result: SnapshotResult) => {
    if (result.fromCache === true) return;
    // The link as each frame wrote it: on its service's origin or an alias (one link, issue #33 item 14).
    const spellings = (await deps.spellings?.(request.origin)) ?? [request.origin];
    const shown = await Promise.all(
      spellings.map(async (origin) => ({ origin, frames: await deps.frames.showing({ origin, token: request.token }) })),
    );
    if (shown.every(({ frames }) => frames.length === 0)) return;
    const badge = badgeFace(toBadgeSummary(result), await deps.words());
    // A frame gone (navigated, closed) does not answer: nothing to update there.
    await Promise.all(
      shown.flatMap(({ origin, frames }) =>
        frames.map((frame) => deps.push('badgeChanged', { origin, token: request.token, badge }, frame).catch(() => undefined)),
      ),
    );
  };
  /** Callers that shared one fetch get one result object: its badges are told once. */
  const announcements = new WeakMap<SnapshotResult, Promise<void>>();
  const announced =
    <Args extends unknown[], Result extends SnapshotResult | BudgetDeferral>(
      call: (request: SnapshotRequest, ...rest: Args) => Promise<Result>,
    ) =>
    async (request: SnapshotRequest, ...rest: Args): Promise<Result> => {
      const result = await call(request, ...rest);
      if (result.status === 'deferred') return result;
      let told = announcements.get(result);
      if (!told) announcements.set(result, (told = announce(request, result).catch(() => undefined)));
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([told, new Promise((resolve) => (timer = setTimeout(resolve, ANNOUNCE_WAIT_MS)))]);
      clearTimeout(timer);
      return result;
    };
  return {
    ...service,
    getSnapshot: announced(service.getSnapshot),
    refresh: announced(service.refresh),
    refreshInBackground: announced(service.refreshInBackground),
  };
}
