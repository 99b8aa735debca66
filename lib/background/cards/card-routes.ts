/*
 * Longer than 300 lines: a card's life is one state per tab (routes, waiting claims, decisions in
 * progress) that every step reads and writes; split, each part would hold the same maps.
 */
import { z } from 'zod';
import type { Language } from '../../core/i18n/language';
import type { SnapshotRequest, SnapshotResult } from '../../core/schemas/results';
import { NOT_LOADED_REASONS, type AwaitedCard, type CardClaim } from '../../protocol/card';
import {
  contentPushProtocol,
  type CardAnchor,
  type ContentPushType,
  type ContentProtocolMap,
  type FrameRect,
} from '../../protocol/content';
import {
  CARD_AHEAD_CLAIM_WAIT_MS,
  CARD_AHEAD_WAIT_MS,
  type ActivationSource,
  type CardEventKind,
} from '../../protocol/guarded/card';
import type { GetDataType } from '@webext-core/messaging';
import { KeyedMutex } from '../common/keyed-mutex';
import type { StorageAreaAdapter } from '../common/storage-area';
import type { HoverAllowance } from './hover-allowance';
import type { SnapshotService } from '../snapshot-service/service';

/** The browser's id of a tab's top frame. */
export const TOP_FRAME = 0;

/** One frame of one tab, as a message's sender names it. */
export interface FrameOf {
  tabId: number;
  frameId: number;
}

export type PushInput<Type extends ContentPushType> = GetDataType<ContentProtocolMap[Type]>;

/** Sends one frame of a tab a message of `contentPushProtocol`; rejects when nothing there answers it. */
export type PushToFrame = <Type extends ContentPushType>(type: Type, data: PushInput<Type>, frame: FrameOf) => Promise<unknown>;

const routeSchema = z.object({
  origin: z.string(),
  token: z.string(),
  frameId: z.int(),
  nonce: z.string(),
  /** The card page drawn ahead that shows it (`warmCard`): it waits for its card with this nonce of its own. */
  page: z.string().optional(),
  fetch: z.boolean(),
  /** Its page was told it is drawn before its snapshot came: the page's next wait is for the snapshot. */
  announced: z.boolean().optional(),
  /** Why it may not fetch: the gesture was not seen, or the tab's allowance is spent (the card says which). */
  refused: z.enum(NOT_LOADED_REASONS).optional(),
  claimed: z.boolean(),
  at: z.number(),
});

/** A tab's card: the link it shows, the frame whose link it is, the nonce its card page claims it with, whether it may fetch. */
type CardRoute = z.infer<typeof routeSchema>;

export interface OpenCardInput extends SnapshotRequest {
  nonce: string;
  intent: ActivationSource;
  /** The asking frame's verdict: the gesture was on something a person could see. */
  seen: boolean;
  anchor: CardAnchor;
}

/** The nonce a route's card page claims it with: its own, or that of the page loaded ahead that shows it. */
const claimNonceOf = (route: CardRoute): string => route.page ?? route.nonce;

export interface CardRoutesDeps {
  /** storage.session: a tab's route survives a service-worker restart (read once per tab after one), not a browser restart. */
  area: StorageAreaAdapter;
  /** Its fetches tell the link's badges before they answer (`withBadgeUpdates`): `openCard` answers after them. */
  service: Pick<SnapshotService, 'getSnapshot' | 'peek' | 'wouldFetch'>;
  /**
   * The same snapshots for the card page, whose answer need not wait for the badges (the fetch it
   * shares is `service`'s, which tells them); unset: `service`.
   */
  cardPageService?: Pick<SnapshotService, 'getSnapshot' | 'peek'>;
  hoverAllowance: HoverAllowance;
  push: PushToFrame;
  /** The reader's language, sent with the card's snapshot (so the card page reads no storage first). */
  language: () => Promise<Language>;
  /** The service's own origin for a link written on one of its aliases (the card shows the link as the service names it). */
  canonicalOrigin?: (origin: string) => Promise<string>;
  now?: () => number;
  /** A route not claimed within this time is not given to a claim (the card page loads in well under a second). */
  claimWithinMs?: number;
  /**
   * How long a card page waits for a card to be drawn with its nonce (a page loaded ahead waits for
   * intent; any page can ask before `openCard` is done).
   */
  aheadWaitMs?: number;
  /**
   * How long the answer that a card is drawn waits for its snapshot (a cached one takes a few ms, a
   * local fetch tens); a slower one comes with the page's next wait, while the page shows it is loading.
   */
  aheadClaimWaitMs?: number;
}

/**
 * The life of every tab's hover card, in one place (DESIGN decision 4: one card per tab, across its
 * frames, drawn by the top frame's card host). The message handlers only call it. Routes live in memory, so a pointer or scroll tick on
 * an open card costs no storage read; each change is also written to storage.session, read back
 * only when a restarted worker first meets the tab.
 */
export interface CardRoutes {
  /**
   * The content script in `from` opens its card for a link. Decides whether the link may be fetched
   * (a hover beyond the tab's allowance shows the card from the cache only), replaces the tab's
   * previous card, has the top frame draw it, and answers, once the snapshot is known, with whether
   * it is drawn (the badges hear what they show from `withBadgeUpdates`, before this answer).
   */
  open(from: FrameOf, input: OpenCardInput): Promise<{ shown: boolean }>;
  /** A content script of `tabId` expects a card soon: the top frame loads a card page ahead (nothing is fetched). */
  warm(tabId: number): Promise<void>;
  /**
   * A page of `tabId` shows share links. The first time in this worker's life, its top frame loads a
   * card page ahead at once: the browser's first card page of a session takes ~0.5 s to start (its
   * process, its script read cold), longer than the rest before intent (issue #33 item 10).
   */
  linksShown(tabId: number): Promise<void>;
  /**
   * The one way a card page of `tabId` gets its card: it waits until a card is drawn with its nonce
   * (its own card's, or that of the page loaded ahead that shows it), and gets the card in the same
   * answer (`claim`, once; any other page gets nothing and costs no view) when its snapshot is known
   * within `aheadClaimWaitMs`. Otherwise it is told the card is drawn, shows that it is loading, and
   * its next wait is answered with the card once the snapshot is known.
   */
  awaitCard(tabId: number, nonce: string): Promise<AwaitedCard>;
  /** The card's badge moved: passed on to the top frame, which draws it. */
  move(from: FrameOf, input: { nonce: string; rect: FrameRect }): Promise<void>;
  /** The frame closed its card. */
  close(from: FrameOf, input: { nonce: string }): Promise<void>;
  /** What the card did, passed on to the frame it belongs to (the caller checks it comes from the top frame). */
  relayEvent(tabId: number, input: { nonce: string; event: CardEventKind }): Promise<void>;
  /**
   * The top frame asks whether the frame of the card it draws is still there (the caller checks it
   * comes from the top frame): a card that is not the tab's, or whose frame does not answer, is closed.
   */
  check(tabId: number, input: { nonce: string }): Promise<void>;
  /** The tab closed: its card and waiting claims go. */
  forgetTab(tabId: number): Promise<void>;
}

const KEY_PREFIX = 'cardRoute:';
/** Nonces of no card, to ask a frame whether it is there (it answers every card event, and acts on its own card's only). */
const PING_NONCE = '0'.repeat(32);
const OTHER_PING_NONCE = '1'.repeat(32);
/** Claims waiting for their card per tab: a page that frames copies of the card page cannot pile them up. */
const MAX_WAITING_CLAIMS = 4;

interface WaitingClaim {
  nonce: string;
  settle: (route: CardRoute | null) => void;
}

export function createCardRoutes(deps: CardRoutesDeps): CardRoutes {
  const now = deps.now ?? (() => Date.now());
  const claimWithinMs = deps.claimWithinMs ?? 60_000;
  const aheadWaitMs = deps.aheadWaitMs ?? CARD_AHEAD_WAIT_MS;
  const aheadClaimWaitMs = deps.aheadClaimWaitMs ?? CARD_AHEAD_CLAIM_WAIT_MS;
  const routes = new Map<number, CardRoute>();
  /** Tabs whose stored route this worker has read (or written) already. */
  const loaded = new Map<number, Promise<void>>();
  const waiting = new Map<number, WaitingClaim[]>();
  /** Cards drawn whose fetch is not decided yet (the top frame's verdict is awaited): their claims wait. */
  const deciding = new Map<string, Promise<unknown>>();
  /** A tab's opens, one at a time: the top frame is told of its cards in the order they were opened. */
  const opens = new KeyedMutex();
  /** A tab's storage writes, in order. */
  const writes = new KeyedMutex();
  const keyOf = (tabId: number) => KEY_PREFIX + tabId;
  /** Whether a card page was asked for since this worker started (a restarted worker asks once more). */
  let cardPageAsked = false;

  function load(tabId: number): Promise<void> {
    let done = loaded.get(tabId);
    if (!done) {
      done = deps.area.get([keyOf(tabId)]).then(
        (items) => {
          const stored = routeSchema.safeParse(items[keyOf(tabId)]);
          if (stored.success && !routes.has(tabId)) routes.set(tabId, stored.data);
        },
        () => undefined,
      );
      loaded.set(tabId, done);
    }
    return done;
  }

  async function routeOf(tabId: number): Promise<CardRoute | undefined> {
    if (!loaded.has(tabId)) await load(tabId);
    return routes.get(tabId);
  }

  function save(tabId: number, route: CardRoute | null): void {
    loaded.set(tabId, Promise.resolve());
    if (route) routes.set(tabId, route);
    else routes.delete(tabId);
    void writes
      .run(keyOf(tabId), () => (route ? deps.area.set({ [keyOf(tabId)]: route }) : deps.area.remove([keyOf(tabId)])))
      .catch(() => undefined);
  }

  const tell = <Type extends ContentPushType>(type: Type, data: PushInput<Type>, tabId: number, frameId: number) =>
    deps.push(type, data, { tabId, frameId });
  const tellQuietly = <Type extends ContentPushType>(type: Type, data: PushInput<Type>, tabId: number, frameId: number) =>
    tell(type, data, tabId, frameId).catch(() => undefined);

  /** One card per tab: the frame whose card was replaced closes it (the top frame draws the next one in its place). */
  async function endReplaced(tabId: number, replaced: CardRoute, by: FrameOf): Promise<void> {
    if (replaced.frameId !== by.frameId) await tellQuietly('closeCard', { nonce: replaced.nonce }, tabId, replaced.frameId);
  }

  function wakeClaims(tabId: number, route: CardRoute): void {
    for (const claim of waiting.get(tabId) ?? []) if (claim.nonce === claimNonceOf(route)) claim.settle(route);
  }

  function waitForRoute(tabId: number, nonce: string, waitMs: number): Promise<CardRoute | null> {
    return new Promise((resolve) => {
      const list = waiting.get(tabId) ?? [];
      const claim: WaitingClaim = {
        nonce,
        settle(route) {
          clearTimeout(timer);
          waiting.set(
            tabId,
            (waiting.get(tabId) ?? []).filter((other) => other !== claim),
          );
          resolve(route);
        },
      };
      const timer = setTimeout(() => claim.settle(null), waitMs);
      list.push(claim);
      while (list.length > MAX_WAITING_CLAIMS) list.shift()?.settle(null);
      waiting.set(tabId, list);
    });
  }

  async function warmCard(tabId: number): Promise<void> {
    cardPageAsked = true;
    await tellQuietly('warmCard', undefined, tabId, TOP_FRAME);
  }

  /** What a card may show: its snapshot (one fetch at most, shared with every other asker), or the cache only. */
  const resultOf = (
    route: CardRoute,
    service: CardRoutesDeps['cardPageService'] = deps.service,
  ): Promise<SnapshotResult | null> => {
    const request = { origin: route.origin, token: route.token };
    return route.fetch ? service.getSnapshot(request) : service.peek(request);
  };
  const pageResultOf = (route: CardRoute) => resultOf(route, deps.cardPageService);

  /**
   * Draws the card and decides whether its link may be fetched (the route is saved first with no
   * fetch, so moves and closes work meanwhile; its claim waits for the decision).
   */
  async function openAndDecide(
    from: FrameOf,
    { origin, token, nonce, intent, seen, anchor }: OpenCardInput,
    decided: () => void,
  ): Promise<{ shown: boolean }> {
    const { tabId, frameId } = from;
    const request = { origin: (await deps.canonicalOrigin?.(origin)) ?? origin, token };
    const opened = await opens.run(String(tabId), async () => {
      const replaced = await routeOf(tabId);
      const next: CardRoute = { ...request, frameId, nonce, fetch: false, claimed: false, at: now() };
      save(tabId, next);
      wakeClaims(tabId, next);
      if (replaced && replaced.nonce !== nonce) await endReplaced(tabId, replaced, from);
      // A subframe names its window with a key; the top frame's own links need none (and may not
      // send one: the host would look for a frame that is not there).
      const key = frameId === TOP_FRAME ? undefined : anchor.key;
      if (frameId !== TOP_FRAME && key === undefined) return { next, shown: false, hostSeen: false };
      const { key: _sent, ...where } = anchor;
      const placed = key === undefined ? where : { ...where, key };
      // Nothing answers in a top frame without the card host (an orphaned page after an update): no card.
      // The top frame judges the frames around a subframe's link; its own links were judged where they are.
      const own = frameId === TOP_FRAME;
      const answer = await tell('showCard', { ...placed, nonce, focus: intent === 'keyboard' }, tabId, TOP_FRAME).then(
        (value) => {
          const { seen, frame } = contentPushProtocol.showCard.output.safeParse(value).data ?? {};
          return { shown: true, hostSeen: own || seen === true, page: frame };
        },
        () => ({ shown: false, hostSeen: own, page: undefined }),
      );
      // Drawn in the card page loaded ahead: that page claims it, with its own nonce.
      const current = routes.get(tabId);
      if (answer.page !== undefined && current?.nonce === nonce) {
        save(tabId, { ...current, page: answer.page });
        wakeClaims(tabId, { ...current, page: answer.page });
      }
      return { next, shown: answer.shown, hostSeen: answer.hostSeen };
    });
    // Looked at once the card is drawn: the service may wait for the browser's first policy read (seconds,
    // in a new profile), and the card meanwhile shows that it loads.
    const cached = (await deps.service.peek(request)) !== null;
    // No fetch without a gesture a person could see, on a link they could see (DESIGN decision 1):
    // the asking frame's verdict and the top frame's on the frames around it; then the tab's
    // allowance, for every kind of gesture, spent only on a request that goes out (not on a fetch of
    // the link already on its way, nor on an origin the service paused; issue #33 item 15). A cached
    // link costs nothing. Else the card offers Load, and says why.
    const visible = seen && opened.hostSeen;
    const fetch =
      cached ||
      (visible &&
        (!(await deps.service.wouldFetch(request)) || (await deps.hoverAllowance.take(tabId, `${request.origin}|${token}`))));
    const current = routes.get(tabId);
    if (current?.nonce === nonce) {
      if (fetch) save(tabId, { ...current, fetch });
      else save(tabId, { ...current, refused: visible ? 'allowance' : 'unseen' });
    }
    decided();
    // Answered once the fetch is over: the link's badges heard of it first (`badgeChanged`, lib/background/frames).
    await resultOf({ ...opened.next, fetch });
    return { shown: opened.shown };
  }

  /**
   * The route drawn for `nonce` in `tabId` (opened, or drawn in a page loaded ahead), waiting up to
   * `waitMs` for it; its fetch may not be decided yet.
   */
  async function drawnRoute(tabId: number, nonce: string, waitMs: number): Promise<CardRoute | undefined> {
    await routeOf(tabId);
    // Read and waited for in one step: a route saved between the two would not wake this wait.
    const route = routes.get(tabId);
    return route && claimNonceOf(route) === nonce ? route : ((await waitForRoute(tabId, nonce, waitMs)) ?? undefined);
  }

  /** `drawn` once its fetch is decided, if it may still be claimed (undefined: gone, or claimed already). */
  async function decidedRoute(tabId: number, nonce: string, drawn: CardRoute): Promise<CardRoute | undefined> {
    await deciding.get(drawn.nonce);
    // Read again: the route may have been claimed or replaced while this claim waited.
    const route = routes.get(tabId);
    if (!route || claimNonceOf(route) !== nonce || route.claimed || now() - route.at > claimWithinMs) return undefined;
    return route;
  }

  /** The route's card, claimed at once (a second claim gets nothing), with what it shows once known. */
  async function claimOf(tabId: number, route: CardRoute, shown: Promise<SnapshotResult | null>): Promise<CardClaim> {
    save(tabId, { ...route, claimed: true });
    const [result, language] = await Promise.all([shown, deps.language()]);
    const request = { origin: route.origin, token: route.token };
    return result === null && route.refused
      ? { request, result, language, unloaded: route.refused }
      : { request, result, language };
  }

  return {
    async open(from, input) {
      cardPageAsked = true;
      let decided = () => {};
      deciding.set(input.nonce, new Promise<void>((resolve) => (decided = resolve)));
      try {
        return await openAndDecide(from, input, decided);
      } finally {
        decided();
        deciding.delete(input.nonce);
      }
    },

    warm: warmCard,

    async linksShown(tabId) {
      if (!cardPageAsked) await warmCard(tabId);
    },

    async awaitCard(tabId, nonce) {
      const found = await drawnRoute(tabId, nonce, aheadWaitMs);
      if (!found) return { drawn: false };
      const drawn = { drawn: true, openedAt: found.at } as const;
      if (found.announced) {
        const route = await decidedRoute(tabId, nonce, found);
        if (!route) return { drawn: false };
        const claim = await claimOf(tabId, route, pageResultOf(route));
        return { ...drawn, language: claim.language, claim };
      }
      // Its snapshot, once its fetch is decided (the first policy read of a new profile takes seconds)
      // and known. A slow one goes on: the page's next wait shares it (one fetch per token, DESIGN decision 2).
      const result = decidedRoute(tabId, nonce, found).then(
        async (route) => route && { route, value: await pageResultOf(route) },
      );
      const soon = await Promise.race([result, new Promise<null>((resolve) => setTimeout(resolve, aheadClaimWaitMs, null))]);
      if (soon === undefined) return { drawn: false };
      const current = routes.get(tabId);
      if (current?.nonce !== found.nonce || current.claimed) return { drawn: false };
      if (!soon) {
        save(tabId, { ...current, announced: true });
        return { ...drawn, language: await deps.language() };
      }
      const claim = await claimOf(tabId, current, Promise.resolve(soon.value));
      return { ...drawn, language: claim.language, claim };
    },

    async move(from, { nonce, rect }) {
      const route = await routeOf(from.tabId);
      if (route?.nonce === nonce && route.frameId === from.frameId) {
        await tellQuietly('moveCard', { nonce, rect }, from.tabId, TOP_FRAME);
      }
    },

    async close(from, { nonce }) {
      const route = await routeOf(from.tabId);
      if (!route || route.nonce !== nonce || route.frameId !== from.frameId) return;
      save(from.tabId, null);
      await tellQuietly('closeCard', { nonce }, from.tabId, TOP_FRAME);
    },

    async relayEvent(tabId, { nonce, event }) {
      const route = await routeOf(tabId);
      if (route?.nonce !== nonce) return;
      // The frame is gone (navigated, removed): its card goes with it.
      await tell('cardEvent', { nonce, event }, tabId, route.frameId).catch(async () => {
        if (routes.get(tabId) !== route) return;
        save(tabId, null);
        await tellQuietly('closeCard', { nonce }, tabId, TOP_FRAME);
      });
    },

    async check(tabId, { nonce }) {
      const route = await routeOf(tabId);
      if (route?.nonce === nonce) {
        if (route.frameId === TOP_FRAME) return;
        // Another card's nonce: the frame answers it and ignores it, if it is there at all.
        const ping = nonce === PING_NONCE ? OTHER_PING_NONCE : PING_NONCE;
        const there = await tell('cardEvent', { nonce: ping, event: 'leave' }, tabId, route.frameId).then(
          () => true,
          () => false,
        );
        if (there || routes.get(tabId) !== route) return;
        save(tabId, null);
      }
      await tellQuietly('closeCard', { nonce }, tabId, TOP_FRAME);
    },

    async forgetTab(tabId) {
      for (const claim of waiting.get(tabId) ?? []) claim.settle(null);
      waiting.delete(tabId);
      save(tabId, null);
      loaded.delete(tabId);
      await writes.run(keyOf(tabId), () => Promise.resolve());
    },
  };
}
