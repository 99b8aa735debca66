/**
 * The background's look at a tab's frames when a sentinel signals: which frames get the annotator
 * (a share link by the recogniser's exact check, more links than listed, an open shadow root, a
 * report that is not one), which never do (the top frame, frames with nothing to say), the isolated
 * world asked only where the page world could not run, and the coalescing of signals.
 */
import { describe, expect, it, vi } from 'vitest';
import type { FrameOfTab } from '@/lib/background/frames/frame-start';
import {
  createLinkFramesLocator,
  MAX_INJECTIONS_PER_MINUTE,
  type ReportWorld,
} from '@/lib/background/frames/link-frames-locator';
import { createLinkRecognizer } from '@/lib/core/links';
import { SERVICE, shareUrl } from '../../content/annotator/helpers';

const SHARE = shareUrl(1);
/** The same path on a host that only begins like the service's. */
const LOOK_ALIKE = SHARE.replace(new URL(SERVICE.origin).host, `${new URL(SERVICE.origin).host}.evil.test`);
const report = (hrefs: string[], extra: Partial<{ more: boolean; shadowRoots: boolean }> = {}) => ({
  hrefs,
  more: false,
  shadowRoots: false,
  ...extra,
});

function locatorWith(reports: unknown, isolated: (frame: FrameOfTab) => unknown = () => [], now?: () => number) {
  const started: FrameOfTab[] = [];
  const order: string[] = [];
  const deps = {
    reportAll: vi.fn(async (_tabId: number): Promise<unknown> => reports),
    reportIsolated: vi.fn(async (frame: FrameOfTab): Promise<unknown> => isolated(frame)),
    markAnnotated: vi.fn(async (frame: FrameOfTab, world: ReportWorld) => void order.push(`mark ${frame.frameId} ${world}`)),
    getRecognizer: vi.fn(async () => createLinkRecognizer([SERVICE])),
    startAnnotator: vi.fn(async (frame: FrameOfTab) => {
      started.push(frame);
      order.push(`start ${frame.frameId}`);
    }),
  };
  return { locator: createLinkFramesLocator({ ...deps, ...(now ? { now } : {}) }), deps, started, order };
}

describe('createLinkFramesLocator', () => {
  it('starts the annotator in the frames whose report holds a share link (marked first), by document where named', async () => {
    const { locator, started, order, deps } = locatorWith([
      { frameId: 0, documentId: 'TOP', result: false },
      { frameId: 3, documentId: 'D3', result: report(['https://example.org/news', SHARE]) },
      { frameId: 4, documentId: 'D4', result: report(['https://example.org/news', LOOK_ALIKE]) },
      { frameId: 5, result: report([SHARE]) },
      { frameId: 6, result: false },
    ]);
    await locator.locate(7);
    expect(deps.reportAll).toHaveBeenCalledWith(7);
    expect(deps.getRecognizer).toHaveBeenCalledTimes(1); // the services are read once per look, not per link
    expect(started).toHaveLength(2);
    expect(started).toEqual(
      expect.arrayContaining([
        { tabId: 7, frameId: 3, documentId: 'D3' },
        { tabId: 7, frameId: 5 },
      ]),
    );
    // Each frame is marked before its annotator starts (frames are answered side by side).
    expect(order.filter((step) => step.endsWith(' 3') || step.startsWith('mark 3'))).toEqual(['mark 3 MAIN', 'start 3']);
    expect(order.filter((step) => step.endsWith(' 5') || step.startsWith('mark 5'))).toEqual(['mark 5 MAIN', 'start 5']);
    expect(order).toHaveLength(4);
    expect(deps.reportIsolated).not.toHaveBeenCalled();
  });

  it('starts it where the frame says there is more than it listed, or an open shadow root', async () => {
    const { locator, started } = locatorWith([
      { frameId: 3, result: report([], { more: true }) },
      { frameId: 4, result: report([], { shadowRoots: true }) },
      { frameId: 5, result: report([]) },
    ]);
    await locator.locate(7);
    expect(started.map((frame) => frame.frameId).sort()).toEqual([3, 4]);
  });

  it('a report that is not one (the page altered the report function) gets the annotator, which decides; never the top frame', async () => {
    const { locator, started } = locatorWith([
      { frameId: 0, result: 'forged' },
      { frameId: 3, result: { hrefs: 'all of them' } },
      { frameId: 4, result: report(Array.from({ length: 3000 }, () => 'x')) },
    ]);
    await locator.locate(7);
    expect(started.map((frame) => frame.frameId).sort()).toEqual([3, 4]);
  });

  it('asks the isolated world only of the frames the page world could not run in (sandboxed without scripts)', async () => {
    const { locator, started, order, deps } = locatorWith(
      [
        { frameId: 3, documentId: 'D3', result: null },
        { frameId: 4, documentId: 'D4', result: null },
        { frameId: 5 }, // Firefox: an error entry
        { frameId: 6, result: false },
      ],
      (frame) =>
        frame.frameId === 3
          ? [{ frameId: 3, documentId: 'D3', result: report([SHARE]) }]
          : frame.frameId === 4
            ? [{ frameId: 4, documentId: 'D4', result: report(['https://example.org/']) }]
            : Promise.reject(new Error('Frame with ID 5 was removed')),
    );
    await locator.locate(7);
    expect(deps.reportIsolated.mock.calls.map(([frame]) => frame.frameId)).toEqual([3, 4, 5]);
    expect(started).toEqual([{ tabId: 7, frameId: 3, documentId: 'D3' }]);
    expect(order).toEqual(['mark 3 ISOLATED', 'start 3']);
  });

  it('an answer of the browser that is not a list of frame results starts nothing', async () => {
    const { locator, started } = locatorWith({ frames: 'none' });
    await expect(locator.locate(7)).resolves.toBeUndefined();
    expect(started).toEqual([]);
  });

  it('injects into a document once, whatever its page world says later (the mark cleared, the report faked again) (issue #26 item 3)', async () => {
    vi.useFakeTimers();
    try {
      const asking = { hrefs: [], more: false, shadowRoots: true };
      const { locator, started } = locatorWith([
        { frameId: 3, documentId: 'D3', result: asking },
        { frameId: 4, documentId: 'D4', result: 'not a report' },
      ]);
      for (let look = 0; look < 20; look += 1) {
        const done = locator.locate(7);
        await vi.runAllTimersAsync();
        await done;
      }
      expect(started).toEqual([
        { tabId: 7, frameId: 3, documentId: 'D3' },
        { tabId: 7, frameId: 4, documentId: 'D4' },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a frame the browser names without a document id is injected again only after a minute; a tab has a cap per minute', async () => {
    vi.useFakeTimers();
    try {
      let time = 0;
      const frames: unknown[] = [{ frameId: 3, result: { hrefs: [SHARE], more: false, shadowRoots: false } }];
      const { locator, started } = locatorWith(
        frames,
        () => [],
        () => time,
      );
      const look = async () => {
        const done = locator.locate(7);
        await vi.runAllTimersAsync();
        await done;
      };
      await look();
      await look();
      expect(started).toHaveLength(1);
      time = 60_001;
      await look();
      expect(started).toHaveLength(2);
      frames.splice(
        0,
        frames.length,
        ...Array.from({ length: MAX_INJECTIONS_PER_MINUTE + 20 }, (_, index) => ({
          frameId: 10 + index,
          documentId: `D${index}`,
          result: { hrefs: [SHARE], more: false, shadowRoots: false },
        })),
      );
      // New documents, without end: at most the cap within a minute (frame 3's second counts).
      await look();
      expect(started).toHaveLength(1 + MAX_INJECTIONS_PER_MINUTE);
      // A closed tab's record goes.
      locator.forget(7);
      await look();
      expect(started).toHaveLength(1 + 2 * MAX_INJECTIONS_PER_MINUTE);
    } finally {
      vi.useRealTimers();
    }
  });

  it('signals during a look cost one more look of that tab, not one each; other tabs look on their own', async () => {
    vi.useFakeTimers();
    try {
      const { locator, deps } = locatorWith([]);
      const looks = [locator.locate(7), locator.locate(7), locator.locate(7), locator.locate(8)];
      await vi.runAllTimersAsync();
      await Promise.all(looks);
      expect(deps.reportAll.mock.calls.map(([tabId]) => tabId).sort()).toEqual([7, 7, 8]);
    } finally {
      vi.useRealTimers();
    }
  });
});
