import type { ExtensionMessenger, GetDataType } from '@webext-core/messaging';
import { toBadgeSummary, type PeekResult, type SnapshotRequest } from '../core/schemas/results';
import type { EffectiveSettings, PageSettings } from '../core/schemas/settings';
import type { WatchSettings } from '../core/watchlist/schedule';
import { cardProtocol, type CardProtocolMap } from '../protocol/card';
import { contentProtocol, type BadgeTextPayload, type ContentProtocolMap, type ContentPushType } from '../protocol/content';
import { pagesProtocol, type PagesProtocolMap } from '../protocol/pages';
import type { CardBindings, OpenCard } from './card-binding';
import type { HoverAllowance } from './hover-allowance';
import type { LinkFrames } from './link-frames';
import type { LinkFramesLocator } from './link-frames-locator';
import {
  FROM_CONTENT_SCRIPT,
  FROM_EXTENSION_PAGE,
  FROM_EXTENSION_PAGE_IN_TAB,
  ForbiddenSenderError,
  guardHandlers,
  registerHandlers,
  type GuardedHandlers,
} from './serve';
import type { SnapshotService } from './snapshot-service/service';
import { KeyedMutex } from './snapshot-service/storage-area';
import type { Watchlist } from './watchlist/watchlist';

export interface MessageHandlerDeps {
  service: SnapshotService;
  /** Settled effective settings (waits for the administrator policy). */
  getSettings(): Promise<EffectiveSettings>;
  /** Answered at once, possibly before the policy is read (`settled: false`). */
  getPageSettings(): Promise<PageSettings>;
  /** The badge strings of the reader's language (lib/core/i18n/badge.ts `badgeTextFor`). */
  getBadgeText(): Promise<BadgeTextPayload>;
  cardBindings: CardBindings;
  hoverAllowance: HoverAllowance;
  linkFrames: LinkFrames;
  /** Finds the frames of a tab whose sentinel saw a share link, and starts the annotator there. */
  linkFramesLocator: LinkFramesLocator;
  /** Sends one frame of a tab a message of `contentPushProtocol`; rejects when nothing there answers it. */
  tellFrame<Type extends ContentPushType>(
    type: Type,
    data: PushInput<Type>,
    frame: { tabId: number; frameId: number },
  ): Promise<unknown>;
  watchlist: Watchlist;
  getWatchSettings(): Promise<WatchSettings>;
  /** `browser.runtime.getURL('')` without the trailing slash. */
  extensionOrigin: string;
}

export type PushInput<Type extends ContentPushType> = GetDataType<ContentProtocolMap[Type]>;

/** The browser's id of a tab's top frame. */
const TOP_FRAME = 0;

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
  const removeHostedCard = async (tabId: number, nonce: string): Promise<void> => {
    await deps.tellFrame('removeHostedCard', { nonce }, { tabId, frameId: TOP_FRAME }).catch(() => undefined);
  };
  /**
   * A tab's cards are bound and passed to its top frame one at a time, so that the top frame draws
   * them in the order they were bound (a late `showHostedCard` would put back a replaced card).
   */
  const cardOrder = new KeyedMutex();
  /** One card per tab: the frame whose card was replaced closes it, and the top frame removes one it drew. */
  async function endReplacedCard(tabId: number, replaced: OpenCard, byFrameId: number): Promise<void> {
    if (replaced.frameId !== byFrameId) {
      await deps.tellFrame('cardReplaced', undefined, { tabId, frameId: replaced.frameId }).catch(() => undefined);
    }
    if (replaced.inTop) await removeHostedCard(tabId, replaced.nonce);
  }
  return guardHandlers(
    contentProtocol,
    {
      getBadge: async (request) => toBadgeSummary(await deps.service.getSnapshot(request)),
      peekBadges: async (requests) =>
        (await peekAll(deps.service, requests)).map((result) => (result === null ? null : toBadgeSummary(result))),
      async getPageSettings(input) {
        if (input?.waitForPolicy) await deps.getSettings();
        const { services, hoverDelayMs, settled } = await deps.getPageSettings();
        return { services, hoverDelayMs, settled };
      },
      getBadgeText: () => deps.getBadgeText(),
      async openCard({ origin, token, nonce, intent, inTopFrame }, sender) {
        const tabId = tabOf(sender);
        const frameId = sender.frameId ?? TOP_FRAME;
        const request = { origin, token };
        // Resting the pointer fetches an uncached link only within the tab's allowance; a click or a
        // key on the badge always may, and a cached link costs nothing.
        const fetch =
          intent !== 'hover' || (await deps.service.peek(request)) !== null || (await deps.hoverAllowance.take(tabId));
        const toTop = inTopFrame !== undefined && frameId !== TOP_FRAME;
        return cardOrder.run(String(tabId), async () => {
          const replaced = await deps.cardBindings.open(tabId, frameId, { request, nonce, fetch, inTop: toTop });
          if (replaced) await endReplacedCard(tabId, replaced, frameId);
          // A top frame without the relay (nothing answers) leaves the frame to draw its card itself.
          const inTop =
            toTop &&
            (await deps
              .tellFrame('showHostedCard', { ...inTopFrame, nonce, focus: intent === 'keyboard' }, { tabId, frameId: TOP_FRAME })
              .then(
                () => true,
                () => false,
              ));
          return { fetch, inTop };
        });
      },
      async moveCard({ nonce, rect }, sender) {
        const tabId = tabOf(sender);
        const card = await deps.cardBindings.current(tabId);
        if (card?.inTop && card.nonce === nonce && card.frameId === sender.frameId) {
          await deps.tellFrame('moveHostedCard', { nonce, rect }, { tabId, frameId: TOP_FRAME }).catch(() => undefined);
        }
        return { ok: true };
      },
      async closeCard({ nonce }, sender) {
        const tabId = tabOf(sender);
        const closed = await deps.cardBindings.close(tabId, nonce);
        if (closed?.inTop) await removeHostedCard(tabId, closed.nonce);
        return { ok: true };
      },
      async hostedCardEvent(event, sender) {
        if (sender.frameId !== TOP_FRAME) throw new ForbiddenSenderError('"hostedCardEvent" may only be sent from a top frame.');
        const tabId = tabOf(sender);
        const card = await deps.cardBindings.current(tabId);
        if (!card?.inTop || card.nonce !== event.nonce) return { ok: true };
        // The frame is gone (navigated, removed): its card goes with it.
        await deps.tellFrame('cardEvent', event, { tabId, frameId: card.frameId }).catch(async () => {
          if (await deps.cardBindings.close(tabId, card.nonce)) await removeHostedCard(tabId, card.nonce);
        });
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
      getWatch: async (request) => ({ watch: await watchlist.find(request), settings: await deps.getWatchSettings() }),
      watchLink: (request) => watchlist.watch(request),
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
    { claimCard: ({ nonce }, sender) => deps.cardBindings.claim(tabOf(sender), nonce) },
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
