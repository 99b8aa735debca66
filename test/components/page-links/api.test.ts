// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { createPeekBatcher, isScannableUrl, listenToFrameReports, resolveTargetTab } from '@/components/page-links/api';
import { MAX_PEEK_BATCH } from '@/lib/core/limits';

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

describe("the content scripts' reports, as a popup or side panel hears them", () => {
  it('counts a frame that reported before anyone subscribed (the page was still rendering), never a top frame, per tab', () => {
    let report: (tabId: number, frameId: number) => void = () => undefined;
    const reports = listenToFrameReports((onChange) => {
      report = onChange;
      return () => undefined;
    });
    report(4, 7);
    report(4, 0);
    report(5, 2);
    expect(reports.framesOf(4)).toEqual([7]);
    const changed: number[] = [];
    const unsubscribe = reports.subscribe((tabId) => changed.push(tabId));
    report(4, 9);
    report(4, 7);
    unsubscribe();
    report(5, 3);
    expect(changed).toEqual([4, 4]);
    expect(reports.framesOf(4)).toEqual([7, 9]);
    expect(reports.framesOf(5)).toEqual([2, 3]);
    expect(reports.framesOf(6)).toEqual([]);
  });
});
