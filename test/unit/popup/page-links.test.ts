// @vitest-environment happy-dom
import type { ExtensionMessenger } from '@webext-core/messaging';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_PEEK_BATCH } from '@/lib/core/limits';
import { createPeekBatcher, isScannableUrl, resolveTargetTab } from '@/components/page-links/api';
import { sortRows, toRow } from '@/components/page-links/rows';
import {
  parsePageLinks,
  senderTabId,
  servePageLinks,
  type PageLinksProtocolMap,
  type PageLinksSource,
} from '@/lib/protocol/page-links';
import { pageLink, readyResult } from './helpers';

/** Records handlers and sent messages; `ask` calls the registered handler as the browser would. */
function fakeMessenger() {
  const handlers = new Map<string, (message: { data: unknown; sender: unknown }) => unknown>();
  const sent: string[] = [];
  const messenger = {
    onMessage: vi.fn((type: string, handler: (message: { data: unknown; sender: unknown }) => unknown) => {
      handlers.set(type, handler);
      return () => handlers.delete(type);
    }),
    sendMessage: vi.fn(async (type: string) => {
      sent.push(type);
      return undefined;
    }),
    removeAllListeners: vi.fn(),
  };
  // The fake implements the two methods the code under test uses, with the library's call shapes.
  const typed: ExtensionMessenger<PageLinksProtocolMap> = messenger as unknown as ExtensionMessenger<PageLinksProtocolMap>;
  return {
    messenger: typed,
    sent,
    handlers,
    ask: async (type: string) => handlers.get(type)?.({ data: undefined, sender: {} }),
  };
}

function fakeSource(initial: PageLinksSource['links'] extends () => infer R ? R : never) {
  let links = initial;
  let pending = 0;
  const listeners = new Set<() => void>();
  return {
    links: () => links,
    get pendingWork() {
      return pending;
    },
    watchLinks(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The engine reports that its list may have changed. */
    changed: () => listeners.forEach((listener) => listener()),
    set: (next: typeof links) => (links = next),
    setPending: (value: number) => (pending = value),
    get watchers() {
      return listeners.size;
    },
  };
}

afterEach(() => vi.useRealTimers());

describe('servePageLinks (content-script side)', () => {
  const kobo = { origin: 'http://localhost:8787', token: 'tok_000001_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', canonicalKey: 'k1', kind: 'api' };
  const sahel = { origin: 'http://localhost:8787', token: 'tok_000002_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', canonicalKey: 'k2' };

  it('answers listPageLinks with the engine’s links, kind defaulting to share', async () => {
    const { messenger, ask } = fakeMessenger();
    const source = fakeSource([kobo, sahel]);
    const stop = servePageLinks({ source: Promise.resolve(source), messenger });
    expect(await ask('listPageLinks')).toEqual([
      { origin: kobo.origin, token: kobo.token, canonicalKey: 'k1', kind: 'api' },
      { origin: sahel.origin, token: sahel.token, canonicalKey: 'k2', kind: 'share' },
    ]);
    stop();
  });

  it('answers an empty list when the engine did not start', async () => {
    const { messenger, ask } = fakeMessenger();
    servePageLinks({ source: Promise.resolve(null), messenger })();
    const again = fakeMessenger();
    servePageLinks({ source: Promise.resolve(null), messenger: again.messenger });
    expect(await again.ask('listPageLinks')).toEqual([]);
    expect(await ask('listPageLinks')).toBeUndefined(); // stopped: the handler is gone
  });

  it('announces pageLinksChanged once per real change, debounced, not for reports that change nothing', async () => {
    vi.useFakeTimers();
    const { messenger, sent } = fakeMessenger();
    const source = fakeSource([kobo]);
    const stop = servePageLinks({ source: Promise.resolve(source), messenger, debounceMs: 500 });
    await vi.advanceTimersByTimeAsync(500);
    expect(sent).toEqual(['pageLinksChanged']); // the first list found

    // A report without a change in links: nothing sent.
    source.changed();
    await vi.advanceTimersByTimeAsync(600);
    expect(sent).toHaveLength(1);

    // Links change while the engine still works: wait for it, then one message.
    source.set([kobo, sahel]);
    source.setPending(3);
    source.changed();
    await vi.advanceTimersByTimeAsync(600);
    expect(sent).toHaveLength(1);
    source.setPending(0);
    await vi.advanceTimersByTimeAsync(600);
    expect(sent).toHaveLength(2);
    stop();
    expect(source.watchers).toBe(0);
    source.set([sahel]);
    source.changed();
    await vi.advanceTimersByTimeAsync(600);
    expect(sent).toHaveLength(2);
  });
});

describe('parsePageLinks (receiving side)', () => {
  const good = pageLink(1);

  it('accepts well-formed links and drops duplicates by canonical key', () => {
    expect(parsePageLinks([good, { ...good }, pageLink(2, 'api')])).toEqual([good, pageLink(2, 'api')]);
  });

  it.each([
    ['not an array', { links: [] }],
    ['a bad token', [{ ...good, token: '../../etc' }]],
    ['a bad kind', [{ ...good, kind: 'javascript' }]],
    ['a missing origin', [{ token: good.token, kind: 'share', canonicalKey: 'x' }]],
  ])('rejects %s', (_name, value) => {
    expect(() => parsePageLinks(value)).toThrow();
  });

  it('reads the sender tab id, and nothing from a malformed sender', () => {
    expect(senderTabId({ tab: { id: 12 }, url: 'https://x.example/' })).toBe(12);
    expect(senderTabId({ url: 'chrome-extension://abc/popup.html' })).toBeUndefined();
    expect(senderTabId('nonsense')).toBeUndefined();
  });
});

describe('target tab', () => {
  const EXT = 'chrome-extension://abc';

  it('is the active tab when the page is a popup or side panel (not itself a tab)', async () => {
    const tabs = {
      getCurrent: vi.fn(async (): Promise<{ id: number } | undefined> => undefined),
      query: vi.fn(async () => [{ id: 4, url: 'https://crm.example.com/', title: 'CRM', index: 0 }]),
    };
    expect(await resolveTargetTab(tabs, EXT)).toEqual({ tabId: 4, url: 'https://crm.example.com/', title: 'CRM' });
    expect(tabs.query).toHaveBeenCalledWith({ active: true, currentWindow: true });
  });

  it('opened as a tab, is the most recently used web tab (never an extension page, never itself)', async () => {
    const tabs = {
      getCurrent: vi.fn(async () => ({ id: 9, url: `${EXT}/popup.html` })),
      query: vi.fn(async () => [
        { id: 9, url: `${EXT}/popup.html`, lastAccessed: 500 },
        { id: 2, url: 'http://localhost:5997/old', lastAccessed: 100 },
        { id: 3, url: 'http://localhost:5997/pipeline', lastAccessed: 300 },
        { id: 5, url: `${EXT}/options.html`, lastAccessed: 400 },
        { id: 6, lastAccessed: 450 },
      ]),
    };
    expect(await resolveTargetTab(tabs, EXT)).toEqual({ tabId: 3, url: 'http://localhost:5997/pipeline' });
  });

  it.each([
    ['https://crm.example.com/x', true],
    ['http://localhost:5997/', true],
    [undefined, true],
    ['chrome://extensions/', false],
    ['about:blank', false],
    ['file:///tmp/x.html', false],
    ['https://chromewebstore.google.com/detail/x', false],
    ['https://chrome.google.com/webstore/detail/x', false],
    ['https://addons.mozilla.org/fr/firefox/', false],
  ])('%s scannable: %s', (url, expected) => {
    expect(isScannableUrl(url)).toBe(expected);
  });
});

describe('peek batcher', () => {
  it('sends one message per MAX_PEEK_BATCH peeks made in the same tick', async () => {
    const peekMany = vi.fn(async (requests: { origin: string; token: string }[]) => requests.map(() => null));
    const peek = createPeekBatcher(peekMany);
    const count = MAX_PEEK_BATCH + 50;
    const results = await Promise.all(Array.from({ length: count }, (_, index) => peek({ origin: 'o', token: `t${index}` })));
    expect(results).toHaveLength(count);
    expect(peekMany.mock.calls.map(([batch]) => batch.length)).toEqual([MAX_PEEK_BATCH, 50]);
  });
});

describe('sortRows', () => {
  it('collates company names for the locale (case and accents) and keeps ties in page order', () => {
    const rows = [
      toRow(pageLink(1), readyResult('Éclat Pay'), false),
      toRow(pageLink(2), readyResult('abuja Remit'), false),
      toRow(pageLink(3), readyResult('Zed'), false),
      toRow(pageLink(4), readyResult('ecobank digital'), false),
    ];
    expect(sortRows(rows, { column: 'company', direction: 'ascending' }, 'fr-FR').map((row) => row.company)).toEqual([
      'abuja Remit',
      'Éclat Pay',
      'ecobank digital',
      'Zed',
    ]);
    expect(sortRows(rows, { column: 'readiness', direction: 'ascending' }, 'en').map((row) => row.link.token)).toEqual(
      rows.map((row) => row.link.token),
    );
  });
});
