import { defineExtensionMessaging } from '@webext-core/messaging';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { badgeFace } from '@/lib/core/badge-face';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createCardRoutes } from '@/lib/background/cards/card-routes';
import { createHoverAllowance } from '@/lib/background/cards/hover-allowance';
import { createBadgeFrames } from '@/lib/background/frames/badge-frames';
import { createLinkFrames } from '@/lib/background/frames/link-frames';
import { createContentHandlers, createPagesHandlers, registerMessageHandlers } from '@/lib/background/messaging/messages';
import { ForbiddenSenderError, InvalidMessageError } from '@/lib/background/messaging/serve';
import { senderContext } from '@/lib/background/messaging/sender';
import { badgeTextFor } from '@/lib/core/i18n/badge';
import { createSettingsStore } from '@/lib/extension/settings';
import { cardMessenger } from '@/lib/protocol/card';
import { contentProtocol, type ContentProtocolMap } from '@/lib/protocol/content';
import { pagesMessenger, pagesProtocol } from '@/lib/protocol/pages';
import { FIXTURE_TOKEN } from '@/test/fixtures/snapshot';
import { DEFAULT_WATCH_SETTINGS } from '@/lib/core/watchlist/schedule';
import { ORIGIN, createHarness } from '../snapshot-service/helpers';
import { unusedWatchlist } from '../watchlist/stubs';

const EXTENSION_ORIGIN = 'chrome-extension://test-extension-id';
const popupSender = { id: 'test-extension-id', url: `${EXTENSION_ORIGIN}/popup.html` };
/** A card opened by a click on a badge a person could see: the content script's one way to have a link fetched. */
const openCard = (request: object) => ({
  ...request,
  nonce: 'c'.repeat(32),
  intent: 'click',
  seen: true,
  anchor: {
    hops: 0,
    rect: { left: 0, top: 0, right: 10, bottom: 10 },
    viewport: { width: 800, height: 600 },
    at: { x: 5, y: 5 },
  },
});
const contentScriptSender = {
  id: 'test-extension-id',
  url: 'https://mail.example.com/inbox',
  tab: { id: 7, url: 'https://mail.example.com/inbox' },
  frameId: 0,
};

function setup(language: 'en' | 'fr' = 'fr') {
  const harness = createHarness();
  const tabsLocated: number[] = [];
  const presentersLoaded: unknown[] = [];
  const deps = {
    service: harness.service,
    getSettings: () => createSettingsStore().getEffectiveSettings(),
    getPageSettings: () => createSettingsStore().getPageSettings(),
    getBadgeText: async () => badgeTextFor(language, undefined),
    cards: createCardRoutes({
      area: fakeBrowser.storage.session,
      service: harness.service,
      hoverAllowance: createHoverAllowance({ area: fakeBrowser.storage.session, now: harness.clock.now }),
      push: async () => undefined,
      language: async () => language,
      now: harness.clock.now,
    }),
    badgeFrames: createBadgeFrames(fakeBrowser.storage.session),
    linkFrames: createLinkFrames(fakeBrowser.storage.session),
    linkFramesLocator: { locate: async (tabId: number) => void tabsLocated.push(tabId), forget: () => undefined },
    loadCardPresenter: async (frame: unknown) => void presentersLoaded.push(frame),
    watchlist: unusedWatchlist(),
    getWatchSettings: async () => DEFAULT_WATCH_SETTINGS,
    extensionOrigin: EXTENSION_ORIGIN,
  };
  return {
    ...harness,
    deps,
    tabsLocated,
    presentersLoaded,
    content: createContentHandlers(deps),
    pages: createPagesHandlers(deps),
  };
}

beforeEach(() => {
  fakeBrowser.reset();
});

describe('handlers validate their inputs', () => {
  const malformed: [string, unknown][] = [
    ['undefined', undefined],
    ['null', null],
    ['a string', 'http://localhost:8787/api/v1/compliance-status/x'],
    ['a number', 42],
    ['missing token', { origin: ORIGIN }],
    ['token not a string', { origin: ORIGIN, token: { toString: 'x' } }],
    ['origin not a string', { origin: ['http://localhost:8787'], token: FIXTURE_TOKEN }],
    ['huge token', { origin: ORIGIN, token: 'a'.repeat(5000) }],
  ];

  it.each(malformed)(
    'getSnapshot / refreshSnapshot / peekSnapshots / openCard reject %s with InvalidMessageError, no fetch',
    async (_name, data) => {
      const { pages, content, fetch } = setup();
      await expect(pages.getSnapshot(data, popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
      await expect(pages.refreshSnapshot(data, popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
      await expect(pages.peekSnapshots([data], popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
      await expect(
        content.openCard(typeof data === 'object' && data !== null ? openCard(data) : data, contentScriptSender),
      ).rejects.toBeInstanceOf(InvalidMessageError);
      expect(fetch).not.toHaveBeenCalled();
    },
  );

  it('says which field is wrong', async () => {
    const { pages, content } = setup();
    await expect(pages.getSnapshot({ origin: ORIGIN }, popupSender)).rejects.toThrow(/token/);
    await expect(content.openCard(openCard({ origin: ORIGIN }), contentScriptSender)).rejects.toThrow(/token/);
  });

  it('clearCache rejects a bad area', async () => {
    const { pages } = setup();
    await expect(pages.clearCache({ area: 'everything' }, popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
  });

  it('getPageSettings gives a content script the badge strings of the chosen language with the settings (what the copy holds)', async () => {
    const { content } = setup('fr');
    const { text } = contentProtocol.getPageSettings.output.parse(await content.getPageSettings(undefined, contentScriptSender));
    expect(text.locale).toBe('fr-FR');
    expect(text.strings['badge.error.notFound.text']).toBe(badgeTextFor('fr', undefined).strings['badge.error.notFound.text']);
    expect(text.strings['badge.hint']).toMatch(/Entrée/);
    await expect(content.getPageSettings({ language: 'en' }, contentScriptSender)).rejects.toBeInstanceOf(InvalidMessageError);
  });

  it('getSettings, getPageSettings and listCached reject unexpected payloads', async () => {
    const { pages, content } = setup();
    await expect(pages.getSettings({ services: [] }, popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
    await expect(content.getPageSettings({ settled: 'yes' }, contentScriptSender)).rejects.toBeInstanceOf(InvalidMessageError);
    await expect(content.getPageSettings({ waitForPolicy: 'yes' }, contentScriptSender)).rejects.toBeInstanceOf(
      InvalidMessageError,
    );
    await expect(pages.listCached('all', popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
  });

  it('a well-formed message for an unconfigured origin fetches nothing (its badge hears FORBIDDEN_ORIGIN: create-background.test.ts)', async () => {
    const { content, fetch } = setup();
    const result = await content.openCard(
      openCard({ origin: 'https://localhost:8787.evil.com', token: FIXTURE_TOKEN }),
      contentScriptSender,
    );
    expect(contentProtocol.openCard.output.parse(result)).toEqual({ shown: true });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('answers valid messages with results that parse with the exported schemas', async () => {
    const { pages, content } = setup();
    const request = { origin: ORIGIN, token: FIXTURE_TOKEN };
    expect(pagesProtocol.getSnapshot.output.parse(await pages.getSnapshot(request, popupSender))).toMatchObject({
      status: 'ready',
    });
    expect(pagesProtocol.peekSnapshots.output.parse(await pages.peekSnapshots([request], popupSender))).toMatchObject([
      { fromCache: true },
    ]);
    // A content script learns whether its card is drawn, and nothing of the snapshot.
    expect(contentProtocol.openCard.output.parse(await content.openCard(openCard(request), contentScriptSender))).toEqual({
      shown: true,
    });
    expect(contentProtocol.peekBadges.output.parse(await content.peekBadges([request], contentScriptSender))).toEqual([
      badgeFace({ state: 'ready', score: 68, label: 'In Progress', band: 'medium' }, badgeTextFor('fr', undefined)),
    ]);
    expect(pagesProtocol.getSettings.output.parse(await pages.getSettings(undefined, popupSender)).fetchMode).toBe('intent');
    // Of the settings, a content script gets the services to recognise and the hover delay, with the badge's words.
    const pageSettings = contentProtocol.getPageSettings.output.parse(
      await content.getPageSettings(undefined, contentScriptSender),
    );
    expect(Object.keys(pageSettings).sort()).toEqual(['hoverDelayMs', 'services', 'settled', 'text']);
    expect(pagesProtocol.listCached.output.parse(await pages.listCached(undefined, popupSender))).toHaveLength(1);
    expect(pagesProtocol.clearCache.output.parse(await pages.clearCache(undefined, popupSender))).toEqual({ cleared: 1 });
  });

  it('getPageSettings with waitForPolicy answers with the settled settings', async () => {
    const { content } = setup();
    const settled = contentProtocol.getPageSettings.output.parse(
      await content.getPageSettings({ waitForPolicy: true }, contentScriptSender),
    );
    expect(settled.settled).toBe(true);
  });
});

describe('senders', () => {
  it('full snapshots are for extension pages only: a content script gets its badge (worded), never the snapshot', async () => {
    const { pages, content, fetch } = setup();
    const request = { origin: ORIGIN, token: FIXTURE_TOKEN };
    await expect(pages.getSnapshot(request, contentScriptSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(pages.refreshSnapshot(request, contentScriptSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(pages.peekSnapshots([request], contentScriptSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(pages.getSnapshot(request, {})).rejects.toBeInstanceOf(ForbiddenSenderError);
    expect(fetch).not.toHaveBeenCalled();
    // Opening a card answers whether it is drawn, nothing of the snapshot (badges hear their face as badgeChanged).
    expect(await content.openCard(openCard(request), contentScriptSender)).toEqual({ shown: true });
  });

  it('the content protocol is for content scripts in a tab only', async () => {
    const { content, fetch } = setup();
    const request = { origin: ORIGIN, token: FIXTURE_TOKEN };
    await expect(content.peekBadges([request], {})).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(content.openCard(openCard(request), popupSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("locateLinkFrames looks at the sender's own tab, for any content script, and for nothing else", async () => {
    const { content, tabsLocated } = setup();
    await expect(content.locateLinkFrames(undefined, contentScriptSender)).resolves.toEqual({ ok: true });
    await content.locateLinkFrames(undefined, { ...contentScriptSender, frameId: 4 });
    expect(tabsLocated).toEqual([7, 7]);
    await expect(content.locateLinkFrames(undefined, popupSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(content.locateLinkFrames({ tabId: 9 }, contentScriptSender)).rejects.toBeInstanceOf(InvalidMessageError);
    expect(tabsLocated).toEqual([7, 7]);
  });

  it("loadCardPresenter runs the presenter in the sender's own document, for a content script only", async () => {
    const { content, presentersLoaded } = setup();
    await expect(content.loadCardPresenter(undefined, contentScriptSender)).resolves.toEqual({ ok: true });
    await content.loadCardPresenter(undefined, { ...contentScriptSender, frameId: 4, documentId: 'D'.repeat(32) });
    expect(presentersLoaded).toEqual([
      { tabId: 7, frameId: 0 },
      { tabId: 7, frameId: 4, documentId: 'D'.repeat(32) },
    ]);
    await expect(content.loadCardPresenter(undefined, popupSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(content.loadCardPresenter({ tabId: 9 }, contentScriptSender)).rejects.toBeInstanceOf(InvalidMessageError);
    expect(presentersLoaded).toHaveLength(2);
  });

  it('listCached and clearCache are for extension pages only', async () => {
    const { pages } = setup();
    await expect(pages.listCached(undefined, contentScriptSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(pages.clearCache(undefined, contentScriptSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(pages.listCached(undefined, {})).rejects.toBeInstanceOf(ForbiddenSenderError);
    // A page URL that merely contains the extension origin is not an extension page.
    await expect(
      pages.listCached(undefined, { url: `https://evil.example/${EXTENSION_ORIGIN}/popup.html`, tab: { id: 1 } }),
    ).rejects.toBeInstanceOf(ForbiddenSenderError);
  });

  it('classifies senders', () => {
    expect(senderContext(popupSender, EXTENSION_ORIGIN)).toEqual({ kind: 'extension-page' });
    expect(senderContext(contentScriptSender, EXTENSION_ORIGIN)).toEqual({ kind: 'content-script', tabId: 7, frameId: 0 });
    expect(senderContext({ url: `${EXTENSION_ORIGIN}/card.html`, tab: { id: 3 }, frameId: 2 }, EXTENSION_ORIGIN)).toEqual({
      kind: 'extension-page',
      tabId: 3,
      frameId: 2,
    });
    expect(senderContext('garbage', EXTENSION_ORIGIN)).toEqual({ kind: 'unknown' });
    expect(senderContext({ url: `${EXTENSION_ORIGIN}.evil.com/x`, tab: { id: 1 } }, EXTENSION_ORIGIN).kind).toBe(
      'content-script',
    );
  });
});

describe('over the runtime messaging channel', () => {
  const contentMessenger = defineExtensionMessaging<ContentProtocolMap>();
  let unregister: () => void = () => undefined;
  afterEach(() => unregister());

  it('a garbage message gets a typed error back, not a crash; a sender outside the protocol gets ForbiddenSenderError', async () => {
    const { deps, fetch } = setup('en');
    unregister = registerMessageHandlers(deps, { content: contentMessenger, pages: pagesMessenger, card: cardMessenger });
    // A hostile sender speaks the wire format directly, bypassing the compile-time protocol types.
    const forged: unknown = await fakeBrowser.runtime.sendMessage({
      id: 1,
      type: 'getSnapshot',
      data: { origin: 42 },
      timestamp: Date.now(),
    });
    expect(forged).toMatchObject({ err: { name: 'InvalidMessageError' } });
    // Not the messaging format at all: ignored, nothing thrown.
    await expect(fakeBrowser.runtime.sendMessage('hello')).resolves.toBeUndefined();
    expect(fetch).not.toHaveBeenCalled();

    // The fake browser reports no tab and no URL: neither a content script nor an extension page.
    await expect(contentMessenger.sendMessage('peekBadges', [{ origin: ORIGIN, token: FIXTURE_TOKEN }])).rejects.toThrow(
      /content script/,
    );
    await expect(pagesMessenger.sendMessage('getSnapshot', { origin: ORIGIN, token: FIXTURE_TOKEN })).rejects.toThrow(
      /extension page/,
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});
