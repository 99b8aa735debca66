import type { ExtensionMessenger } from '@webext-core/messaging';
import { badgeFace } from '../../core/badge-face';
import { serviceAt } from '../../core/services';
import { toBadgeSummary, type PeekResult, type SnapshotRequest } from '../../core/schemas/results';
import type { EffectiveSettings, PageSettings } from '../../core/schemas/settings';
import type { WatchSettings } from '../../core/watchlist/schedule';
import { cardProtocol, type CardProtocolMap } from '../../protocol/card';
import { contentProtocol, type BadgeTextPayload, type ContentProtocolMap } from '../../protocol/content';
import { pagesProtocol, type PagesProtocolMap } from '../../protocol/pages';
import { TOP_FRAME, type CardRoutes } from '../cards/card-routes';
import type { BadgeFrames } from '../frames/badge-frames';
import type { FrameOfTab } from '../frames/frame-start';
import type { LinkFrames } from '../frames/link-frames';
import type { LinkFramesLocator } from '../frames/link-frames-locator';
import {
  FROM_CONTENT_SCRIPT,
  FROM_EXTENSION_PAGE,
  FROM_EXTENSION_PAGE_IN_TAB,
  ForbiddenSenderError,
  guardHandlers,
  registerHandlers,
  type GuardedHandlers,
} from './serve';
import type { SenderContext } from './sender';
import type { SnapshotService } from '../snapshot-service/service';
import type { Watchlist } from '../watchlist/watchlist';
import { readContentSettings } from '../content-scripts/page-settings-copy';

export interface MessageHandlerDeps {
  service: SnapshotService;
  /** Settled effective settings (waits for the administrator policy). */
  getSettings(): Promise<EffectiveSettings>;
  /** Answered at once, possibly before the policy is read (`settled: false`). */
  getPageSettings(): Promise<PageSettings>;
  /** The badge strings of the reader's language (lib/core/i18n/badge.ts `badgeTextFor`). */
  getBadgeText(): Promise<BadgeTextPayload>;
  /** The life of every tab's hover card (open, await, move, relay, close). */
  cards: CardRoutes;
  /** Which frames' badges show which links (noted from their peeks), so a link fetched again updates them all. */
  badgeFrames: BadgeFrames;
  linkFrames: LinkFrames;
  /** Finds the frames of a tab whose sentinel saw a share link, and starts the annotator there. */
  linkFramesLocator: LinkFramesLocator;
  /** Runs the card presenter's script in one document (lib/background/frames/frame-start.ts). */
  loadCardPresenter(frame: FrameOfTab): Promise<void>;
  watchlist: Watchlist;
  getWatchSettings(): Promise<WatchSettings>;
  /** `browser.runtime.getURL('')` without the trailing slash. */
  extensionOrigin: string;
}

/** The tab of a sender the content-script rule accepted (that rule requires one). */
function tabOf(sender: { tabId?: number }): number {
  if (sender.tabId === undefined) throw new Error('sender without a tab passed the content-script rule');
  return sender.tabId;
}

/** The service re-checks each origin and token; a bad entry answers null, not the whole batch. */
function peekAll(service: SnapshotService, requests: SnapshotRequest[]): Promise<PeekResult[]> {
  return Promise.all(requests.map((request) => service.peek(request).catch((): PeekResult => null)));
}

/** Content script → background: badge-sized answers only. */
export function createContentHandlers(deps: MessageHandlerDeps): GuardedHandlers<typeof contentProtocol> {
  const frameOf = (sender: SenderContext) => ({ tabId: tabOf(sender), frameId: sender.frameId ?? TOP_FRAME });
  /** The tab of a message only the top frame's relay sends. */
  const topFrameTab = (sender: SenderContext, type: string) => {
    if (sender.frameId !== TOP_FRAME) throw new ForbiddenSenderError(`"${type}" may only be sent from a top frame.`);
    return tabOf(sender);
  };
  return guardHandlers(
    contentProtocol,
    {
      async peekBadges(requests, sender) {
        void deps.badgeFrames.note(frameOf(sender), requests);
        void deps.cards.linksShown(tabOf(sender));
        const [results, words] = await Promise.all([peekAll(deps.service, requests), deps.getBadgeText()]);
        return results.map((result) => (result === null ? null : badgeFace(toBadgeSummary(result), words)));
      },
      async getPageSettings(input) {
        if (input?.waitForPolicy) await deps.getSettings();
        return readContentSettings(deps);
      },
      async openCard(input, sender) {
        // The asking frame shows this link's badge: a fetch tells it what the badge shows now (badgeChanged).
        // Not awaited (its storage write is off the card's path): noted in memory before any fetch ends.
        void deps.badgeFrames.note(frameOf(sender), [input]);
        return deps.cards.open(frameOf(sender), input);
      },
      async moveCard(input, sender) {
        await deps.cards.move(frameOf(sender), input);
        return { ok: true };
      },
      async closeCard(input, sender) {
        await deps.cards.close(frameOf(sender), input);
        return { ok: true };
      },
      async cardEvent(input, sender) {
        await deps.cards.relayEvent(topFrameTab(sender, 'cardEvent'), input);
        return { ok: true };
      },
      async warmCard(_input, sender) {
        await deps.cards.warm(tabOf(sender));
        return { ok: true };
      },
      async checkCard(input, sender) {
        await deps.cards.check(topFrameTab(sender, 'checkCard'), input);
        return { ok: true };
      },
      async loadCardPresenter(_input, sender) {
        const frame = frameOf(sender);
        await deps.loadCardPresenter(sender.documentId === undefined ? frame : { ...frame, documentId: sender.documentId });
        return { ok: true };
      },
      async locateLinkFrames(_input, sender) {
        await deps.linkFramesLocator.locate(tabOf(sender));
        return { ok: true };
      },
    },
    { rule: FROM_CONTENT_SCRIPT, extensionOrigin: deps.extensionOrigin },
  );
}

/** Extension pages → background: whole snapshots, settings, the cache and the watchlist. */
export function createPagesHandlers(deps: MessageHandlerDeps): GuardedHandlers<typeof pagesProtocol> {
  const { watchlist } = deps;
  /** A link written on an alias of its service's origin, as the service's own: one watch per link (issue #33 item 14). */
  const canonical = async (request: SnapshotRequest): Promise<SnapshotRequest> => {
    // Settings unread: the request as written (the watchlist's service re-checks it anyway).
    const services = await deps.getSettings().then(
      (settings) => settings.services,
      () => [],
    );
    const service = serviceAt(services, request.origin);
    return service ? { ...request, origin: service.origin } : request;
  };
  return guardHandlers(
    pagesProtocol,
    {
      getSnapshot: (request) => deps.service.getSnapshot(request),
      refreshSnapshot: (request) => deps.service.refresh(request),
      peekSnapshots: (requests) => peekAll(deps.service, requests),
      getSettings: () => deps.getSettings(),
      listCached: () => deps.service.listCached(),
      listLinkFrames: ({ tabId }) => deps.linkFrames.list(tabId),
      clearCache: async (request) => ({ cleared: await deps.service.clearCache(request?.area) }),
      getWatch: async (request) => ({
        watch: await watchlist.find(await canonical(request)),
        settings: await deps.getWatchSettings(),
      }),
      watchLink: async (request) => watchlist.watch(await canonical(request)),
      unwatchLink: async ({ id }) => ({ removed: await watchlist.unwatch(id) }),
      async listWatches() {
        const [{ records, unreadable }, settings] = await Promise.all([watchlist.list(), deps.getWatchSettings()]);
        return { watches: records, unreadable, settings };
      },
      getWatchHistory: ({ id }) => watchlist.history(id),
      exportWatchlist: async () => ({ watches: await watchlist.exportAll() }),
      refreshWatch: ({ id }) => watchlist.refresh(id),
      refreshAllWatches: () => watchlist.refreshAll(),
      setWatchMuted: ({ id, muted }) => watchlist.setMuted(id, muted),
      clearWatchlist: async () => ({ removed: await watchlist.clear() }),
    },
    { rule: FROM_EXTENSION_PAGE, extensionOrigin: deps.extensionOrigin },
  );
}

/** The card page → background: the link bound to the card's own tab. */
export function createCardHandlers(deps: MessageHandlerDeps): GuardedHandlers<typeof cardProtocol> {
  return guardHandlers(
    cardProtocol,
    {
      awaitCard: ({ nonce }, sender) => deps.cards.awaitCard(tabOf(sender), nonce),
    },
    { rule: FROM_EXTENSION_PAGE_IN_TAB, extensionOrigin: deps.extensionOrigin },
  );
}

export interface BackgroundMessengers {
  content: ExtensionMessenger<ContentProtocolMap>;
  pages: ExtensionMessenger<PagesProtocolMap>;
  card: ExtensionMessenger<CardProtocolMap>;
}

/** Wires every protocol the background serves (called once). Returns a function that unregisters them. */
export function registerMessageHandlers(deps: MessageHandlerDeps, messengers: BackgroundMessengers): () => void {
  const removers = [
    registerHandlers(messengers.content, createContentHandlers(deps)),
    registerHandlers(messengers.pages, createPagesHandlers(deps)),
    registerHandlers(messengers.card, createCardHandlers(deps)),
  ];
  return () => removers.forEach((remove) => remove());
}
