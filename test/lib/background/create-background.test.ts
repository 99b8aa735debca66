/**
 * The background as its entrypoint builds it (lib/background/create-background.ts), over WXT's fake
 * browser: the wiring between the snapshot service, the card routes, the message handlers and the
 * browser's events, which the unit tests of each part do not reach.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createBackground, type Background, type BackgroundBrowser } from '@/lib/background/create-background';
import { buildSuccessEnvelope, FIXTURE_TOKEN } from '@/test/fixtures/snapshot';

const ORIGIN = 'http://localhost:8787';
const NONCE = 'a'.repeat(32);
const EXTENSION = `chrome-extension://${fakeBrowser.runtime.id}`;
const contentScript = (tabId: number, frameId = 0) => ({ tab: { id: tabId }, frameId, url: 'https://mail.google.com/' });
const cardPage = (tabId: number) => ({ tab: { id: tabId }, frameId: 9, url: `${EXTENSION}/card.html` });

/** An event of the browser's that the test fires itself. */
function fakeEvent<Listener extends (...args: never[]) => unknown>() {
  const listeners = new Set<Listener>();
  return {
    addListener: (listener: Listener) => void listeners.add(listener),
    removeListener: (listener: Listener) => void listeners.delete(listener),
    hasListeners: () => listeners.size > 0,
    fire: (...args: Parameters<Listener>) => [...listeners].forEach((listener) => listener(...args)),
  };
}

/** Sends a message in @webext-core/messaging's wire format from `sender`, as the browser would deliver it. */
async function send(type: string, data: unknown, sender: object): Promise<unknown> {
  let respond: (answer: unknown) => void = () => undefined;
  const answer = new Promise((resolve) => (respond = resolve));
  const results = await fakeBrowser.runtime.onMessage.trigger({ id: 1, type, data, timestamp: Date.now() }, sender, respond);
  return results.some((result: unknown) => result === true) ? answer : undefined;
}

/** The path of every event (an object with `addListener` and `hasListeners`) under `root` that has listeners now. */
function eventsWithListeners(root: object): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const walk = (value: object, at: string) => {
    if (seen.has(value)) return;
    seen.add(value);
    const hasListeners: unknown = Reflect.get(value, 'hasListeners');
    if (typeof Reflect.get(value, 'addListener') === 'function' && typeof hasListeners === 'function') {
      // The fake browser's unimplemented events throw on every call, addListener too: none holds a listener.
      const has = (() => {
        try {
          return hasListeners.call(value) === true;
        } catch {
          return false;
        }
      })();
      if (has) found.push(at);
      return;
    }
    for (const key of Object.keys(value)) {
      const child: unknown = Reflect.get(value, key);
      if (typeof child === 'object' && child !== null) walk(child, at ? `${at}.${key}` : key);
    }
  };
  walk(root, '');
  return found.sort();
}

let background: Background;
let browser: BackgroundBrowser;
let fetch: ReturnType<typeof vi.fn<(input: RequestInfo | URL) => Promise<Response>>>;
let pushes: { tabId: number; message: unknown; options: unknown }[];
type TabRemoved = (tabId: number) => void;
type TabUpdated = (tabId: number, change: { url?: string }) => void;
let tabs: { onRemoved: ReturnType<typeof fakeEvent<TabRemoved>>; onUpdated: ReturnType<typeof fakeEvent<TabUpdated>> };

beforeEach(() => {
  fakeBrowser.reset();
  // Dated now: the background runs on the real clock, and a snapshot whose share expired is not cached.
  fetch = vi.fn(
    async () =>
      new Response(JSON.stringify(buildSuccessEnvelope({ now: Date.now() })), {
        headers: { 'content-type': 'application/json' },
      }),
  );
  pushes = [];
  tabs = { onRemoved: fakeEvent<TabRemoved>(), onUpdated: fakeEvent<TabUpdated>() };
  browser = {
    ...fakeBrowser,
    i18n: { ...fakeBrowser.i18n, getUILanguage: () => 'fr-SN' },
    tabs: {
      ...fakeBrowser.tabs,
      ...tabs,
      create: async () => ({}),
    },
    scripting: {
      getRegisteredContentScripts: async () => [],
      registerContentScripts: async () => undefined,
      unregisterContentScripts: async () => undefined,
      updateContentScripts: async () => undefined,
      executeScript: async () => [],
    },
    sidePanel: undefined,
  } as unknown as BackgroundBrowser; // a fake of the slice of `browser` the background uses
  // @webext-core/messaging pushes to a frame with the callback form of the global chrome.tabs.sendMessage.
  const push = (tabId: number, message: unknown, options: unknown, callback?: (answer: unknown) => void) => {
    pushes.push({ tabId, message, options });
    callback?.({ res: { ok: true } });
    return Promise.resolve();
  };
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- the fake answers both the callback and the promise form
  vi.spyOn(fakeBrowser.tabs, 'sendMessage').mockImplementation(push);
  // The bundled local server is in the manifest's host permissions.
  const granted = () => Promise.resolve(true);
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- the promise form is the one the extension calls
  vi.spyOn(fakeBrowser.permissions, 'contains').mockImplementation(granted);
  background = createBackground(browser, { fetch: (input) => fetch(input), isOnline: () => true });
});
afterEach(() => {
  background.stop();
  vi.restoreAllMocks();
});

const anchor = {
  hops: 0,
  rect: { left: 0, top: 0, right: 10, bottom: 10 },
  viewport: { width: 800, height: 600 },
  at: { x: 5, y: 5 },
};

describe('createBackground', () => {
  it("a content script's card: drawn by the top frame, awaited by its card page with the snapshot, one fetch for both", async () => {
    const opened = await send(
      'openCard',
      { origin: ORIGIN, token: FIXTURE_TOKEN, nonce: NONCE, intent: 'click', seen: true, anchor },
      contentScript(5),
    );
    expect(opened).toEqual({ res: { shown: true } });
    // The badge heard what it shows once, before the answer (issue #35 item 1).
    expect(pushes.map(({ message, options }) => [(message as { type: string }).type, options])).toEqual([
      ['showCard', { frameId: 0 }],
      ['badgeChanged', { frameId: 0 }],
    ]);
    expect((pushes[1]?.message as { data: unknown }).data).toMatchObject({ badge: { state: 'ready', text: '68/100' } });
    const awaited = await send('awaitCard', { nonce: NONCE }, cardPage(5));
    expect(awaited).toMatchObject({
      res: {
        drawn: true,
        claim: { request: { origin: ORIGIN, token: FIXTURE_TOKEN }, result: { status: 'ready' }, language: 'fr' },
      },
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a link fetched again (here from the popup) updates its badges in every frame that shows it, in the reader’s language; the cache and a page gone update nothing', async () => {
    const link = { origin: ORIGIN, token: FIXTURE_TOKEN };
    const other = { origin: ORIGIN, token: 'B'.repeat(43) };
    await send('peekBadges', [link, other], contentScript(5));
    await send('peekBadges', [link], contentScript(5, 3));
    await send('peekBadges', [link], contentScript(6));
    await send('peekBadges', [other], contentScript(7));
    const popup = { frameId: 0, url: `${EXTENSION}/popup.html` };
    const badgeChanges = () =>
      pushes.flatMap(({ tabId, message, options }) => {
        const { type, data } = message as { type: string; data: unknown };
        return type === 'badgeChanged' ? [{ tabId, frameId: (options as { frameId: number }).frameId, data }] : [];
      });

    await send('refreshSnapshot', link, popup);
    await vi.waitFor(() => expect(badgeChanges()).toHaveLength(3));
    expect(badgeChanges().map(({ tabId, frameId }) => [tabId, frameId])).toEqual([
      [5, 0],
      [5, 3],
      [6, 0],
    ]);
    expect(badgeChanges()[0]?.data).toMatchObject({ ...link, badge: { state: 'ready', text: '68/100' } });
    expect(badgeChanges()[0]?.data).toMatchObject({ badge: { label: expect.stringMatching(/préparation/i) as unknown } });

    await send('getSnapshot', link, popup); // from the cache: nothing changed
    tabs.onUpdated.fire(5, { url: 'https://mail.google.com/other' }); // tab 5 loaded another page
    await send('refreshSnapshot', link, popup);
    await vi.waitFor(() => expect(badgeChanges()).toHaveLength(4));
    expect(badgeChanges()[3]).toMatchObject({ tabId: 6, frameId: 0 });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('a card opened for a link of an unconfigured origin: nothing fetched, and its badge hears FORBIDDEN_ORIGIN in the reader’s language', async () => {
    const opened = await send(
      'openCard',
      { origin: 'https://localhost:8787.evil.com', token: FIXTURE_TOKEN, nonce: NONCE, intent: 'click', seen: true, anchor },
      contentScript(5),
    );
    expect(opened).toEqual({ res: { shown: true } });
    const told = pushes.filter(({ message }) => (message as { type: string }).type === 'badgeChanged');
    expect(told.map(({ message }) => (message as { data: unknown }).data)).toMatchObject([
      { badge: { state: 'error', code: 'FORBIDDEN_ORIGIN', label: expect.stringMatching(/n’est pas activé/) as unknown } },
    ]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses what a sender may not ask: a content script asking for a whole snapshot', async () => {
    const answer = await send('getSnapshot', { origin: ORIGIN, token: FIXTURE_TOKEN }, contentScript(5));
    expect(answer).toMatchObject({ err: { name: 'ForbiddenSenderError' } });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a closed tab takes its card, its hover allowance and its frames with it', async () => {
    await send(
      'openCard',
      { origin: ORIGIN, token: FIXTURE_TOKEN, nonce: NONCE, intent: 'hover', seen: true, anchor },
      contentScript(5),
    );
    await send('pageLinksChanged', undefined, contentScript(5, 3)); // frame 3 holds share links
    const keys = async () => Object.keys(await fakeBrowser.storage.session.get(null)).filter((key) => key.endsWith(':5'));
    await vi.waitFor(async () =>
      expect(await keys()).toEqual(expect.arrayContaining(['cardRoute:5', 'hoverFetches:5', 'linkFrames:5'])),
    );
    tabs.onRemoved.fire(5);
    await vi.waitFor(async () => expect(await keys()).toEqual([]));
  });

  it('stop() takes every handler and listener away: none is left on any event of the browser', async () => {
    // Registered in the same task as the worker starts, as MV3 requires: some are there at once.
    expect(eventsWithListeners(browser)).not.toEqual([]);
    background.stop();
    expect(eventsWithListeners(browser)).toEqual([]);
    expect(
      await send(
        'openCard',
        { origin: ORIGIN, token: FIXTURE_TOKEN, nonce: NONCE, intent: 'click', seen: true, anchor },
        contentScript(5),
      ),
    ).toBeUndefined();
    expect(tabs.onRemoved.hasListeners()).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });
});
