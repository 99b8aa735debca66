import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createLinkFrames } from '@/lib/background/frames/link-frames';

beforeEach(() => fakeBrowser.reset());

describe('frames that reported share links', () => {
  it('remembers each frame of a tab once, never the top frame (always asked), and forgets a tab', async () => {
    const frames = createLinkFrames(fakeBrowser.storage.session);
    await frames.add(4, 7);
    await frames.add(4, 7);
    await frames.add(4, 0);
    await frames.add(4, 9);
    await frames.add(5, 2);
    expect(await frames.list(4)).toEqual([7, 9]);
    expect(await frames.list(5)).toEqual([2]);
    await frames.forget(4);
    expect(await frames.list(4)).toEqual([]);
    expect(await frames.list(5)).toEqual([2]);
  });

  it('survives a restarted service worker (storage.session) and caps what one page can make it keep', async () => {
    await createLinkFrames(fakeBrowser.storage.session).add(4, 7);
    const restarted = createLinkFrames(fakeBrowser.storage.session);
    expect(await restarted.list(4)).toEqual([7]);
    for (let frameId = 10; frameId < 200; frameId += 1) await restarted.add(4, frameId);
    expect((await restarted.list(4)).length).toBe(50);
  });

  it('keeps every frame when the frames of a page report at the same moment', async () => {
    const frames = createLinkFrames(fakeBrowser.storage.session);
    await Promise.all([5, 6, 7, 8, 9, 11].map((frameId) => frames.add(4, frameId)));
    expect((await frames.list(4)).sort((a, b) => a - b)).toEqual([5, 6, 7, 8, 9, 11]);
  });

  it('lists a frame whose report arrived before the list was asked for, though its write is still under way', async () => {
    const frames = createLinkFrames(fakeBrowser.storage.session);
    // Not awaited: the worker got the report and started storing it when the popup asked.
    const stored = frames.add(4, 7);
    expect(await frames.list(4)).toEqual([7]);
    await stored;
  });

  it('reads a corrupt entry as no frames', async () => {
    await fakeBrowser.storage.session.set({ 'linkFrames:4': 'garbage' });
    expect(await createLinkFrames(fakeBrowser.storage.session).list(4)).toEqual([]);
  });
});
