// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContentMessenger } from '@/lib/content/shared/messaging';
import { servePageLinks, type PageLinksSource } from '@/lib/content/annotator/page-links';
import type { PageLinksProtocolMap } from '@/lib/protocol/page-links';

/** Records handlers and sent messages; `ask` calls the registered handler as the browser would. */
function fakeMessenger() {
  const handlers = new Map<string, (sender: unknown) => unknown>();
  const sent: string[] = [];
  const messenger: ContentMessenger<PageLinksProtocolMap> = {
    answer: vi.fn((type: string, handler: (sender: unknown) => unknown) => {
      handlers.set(type, handler);
      return () => handlers.delete(type);
    }),
    send: vi.fn(async (type: string, ..._data: unknown[]) => {
      sent.push(type);
      return undefined;
    }),
  };
  return { messenger, sent, handlers, ask: async (type: string) => handlers.get(type)?.({}) };
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
  const kobo = {
    origin: 'http://localhost:8787',
    token: 'tok_000001_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    canonicalKey: 'k1',
    kind: 'api',
  } as const;
  const sahel = {
    origin: 'http://localhost:8787',
    token: 'tok_000002_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    canonicalKey: 'k2',
    kind: 'share',
  } as const;

  it('answers listPageLinks with the engine’s links: origin, token, key and kind, nothing else of a recognised link', async () => {
    const { messenger, ask } = fakeMessenger();
    const recognised = { ...kobo, apiUrl: `${kobo.origin}/api/v1/compliance-status/${kobo.token}`, service: { id: 'x' } };
    const source = fakeSource([recognised, sahel]);
    const lifetime = new AbortController();
    servePageLinks({ source: Promise.resolve(source), messenger, signal: lifetime.signal });
    expect(await ask('listPageLinks')).toEqual([
      { origin: kobo.origin, token: kobo.token, canonicalKey: 'k1', kind: 'api' },
      { origin: sahel.origin, token: sahel.token, canonicalKey: 'k2', kind: 'share' },
    ]);
    lifetime.abort();
  });

  it("carries each link's own words when it has some, so a list can name its row by them", async () => {
    const { messenger, ask } = fakeMessenger();
    const lifetime = new AbortController();
    servePageLinks({
      source: Promise.resolve(
        fakeSource([
          { ...kobo, text: 'Series A data room' },
          { ...sahel, text: '' },
        ]),
      ),
      messenger,
      signal: lifetime.signal,
    });
    expect(await ask('listPageLinks')).toEqual([
      { origin: kobo.origin, token: kobo.token, canonicalKey: 'k1', kind: 'api', text: 'Series A data room' },
      { origin: sahel.origin, token: sahel.token, canonicalKey: 'k2', kind: 'share' },
    ]);
    lifetime.abort();
  });

  it('answers an empty list when the engine did not start', async () => {
    const { messenger, ask } = fakeMessenger();
    servePageLinks({ source: Promise.resolve(null), messenger, signal: AbortSignal.abort() });
    const again = fakeMessenger();
    servePageLinks({ source: Promise.resolve(null), messenger: again.messenger, signal: new AbortController().signal });
    expect(await again.ask('listPageLinks')).toEqual([]);
    expect(await ask('listPageLinks')).toBeUndefined(); // stopped: the handler is gone
  });

  it('announces pageLinksChanged once per real change, debounced, not for reports that change nothing', async () => {
    vi.useFakeTimers();
    const { messenger, sent } = fakeMessenger();
    const source = fakeSource([kobo]);
    const lifetime = new AbortController();
    servePageLinks({ source: Promise.resolve(source), messenger, debounceMs: 500, signal: lifetime.signal });
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
    lifetime.abort();
    expect(source.watchers).toBe(0);
    source.set([sahel]);
    source.changed();
    await vi.advanceTimersByTimeAsync(600);
    expect(sent).toHaveLength(2);
  });
});
