// @vitest-environment happy-dom
/**
 * The top frame's host for a subframe's card (lib/content/top-frame/card-host.ts): what it does with the
 * background's messages. Finding the frame element and placing the card next to the badge need real
 * frames and trusted events: test/e2e/frames.spec.ts covers those in Chromium.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hostFrameCards } from '@/lib/content/top-frame/card-host';
import type { ContentMessenger } from '@/lib/content/shared/messaging';
import type { ContentProtocolMap } from '@/lib/protocol/content';
import { CARD_AHEAD_KEPT_MS } from '@/lib/protocol/guarded/card';

const NONCE = 'a'.repeat(32);
const OTHER_NONCE = 'b'.repeat(32);
const card = (nonce = NONCE) => ({
  nonce,
  key: 'c'.repeat(32),
  hops: 0,
  rect: { left: 10, top: 20, right: 30, bottom: 36 },
  viewport: { width: 300, height: 150 },
  at: { x: 20, y: 28 },
  focus: false,
});

/** A messenger whose answers the test calls as the background would. */
function fakeMessenger() {
  const handlers = new Map<string, (data: unknown) => unknown>();
  const sent: { type: string; data: unknown }[] = [];
  const messenger: ContentMessenger<ContentProtocolMap> = {
    async send(type, ...data) {
      sent.push({ type, data: data[0] });
      return { ok: true };
    },
    answer(type, handler) {
      handlers.set(type, handler);
      return () => handlers.delete(type);
    },
  };
  const push = (type: string, data: unknown) => {
    const handler = handlers.get(type);
    if (!handler) throw new Error(`nothing answers ${type}`);
    return handler(data);
  };
  return { messenger, handlers, sent, push };
}

/** The card's closed shadow root, caught as it is made (the page cannot reach it; the test can). */
let shadows: ShadowRoot[] = [];
beforeEach(() => {
  shadows = [];
  const prototype = Element.prototype;
  const attach = Object.getOwnPropertyDescriptor(prototype, 'attachShadow')?.value as typeof prototype.attachShadow;
  vi.spyOn(prototype, 'attachShadow').mockImplementation(function (this: Element, init: ShadowRootInit) {
    const root = attach.call(this, init);
    shadows.push(root);
    return root;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  document.documentElement.querySelectorAll('compliance-lens-card').forEach((element) => element.remove());
});

const cardFrame = () => shadows.at(-1)?.querySelector('iframe') ?? null;
const cards = () => document.querySelectorAll('compliance-lens-card');

describe('hostFrameCards', () => {
  it('draws the card it is asked for, named by its nonce, one at a time', async () => {
    const { messenger, push } = fakeMessenger();
    const lifetime = new AbortController();
    hostFrameCards({ window, extensionOrigin: () => 'chrome-extension://id', messenger, signal: lifetime.signal });
    // No frame posted the key: its frames cannot be judged, so the link is not seen (the card offers Load).
    await expect(push('showCard', card())).resolves.toEqual({ ok: true, seen: false });
    expect(cards()).toHaveLength(1);
    expect(cardFrame()?.name).toBe(NONCE);
    expect(cardFrame()?.src).toMatch(/\/card\.html$/);
    push('showCard', card(OTHER_NONCE));
    expect(cards()).toHaveLength(1);
    expect(cardFrame()?.name).toBe(OTHER_NONCE);
    lifetime.abort();
  });

  it('refuses a malformed request and draws nothing', async () => {
    const { messenger, push } = fakeMessenger();
    const lifetime = new AbortController();
    hostFrameCards({ window, extensionOrigin: () => 'chrome-extension://id', messenger, signal: lifetime.signal });
    await expect(push('showCard', { ...card(), nonce: 'x' })).rejects.toThrow(/malformed/);
    await expect(push('showCard', { ...card(), hops: -1 })).rejects.toThrow(/malformed/);
    await expect(push('showCard', { ...card(), rect: { left: 0 } })).rejects.toThrow(/malformed/);
    await expect(push('showCard', { ...card(), at: undefined })).rejects.toThrow(/malformed/);
    expect(cards()).toHaveLength(0);
    lifetime.abort();
  });

  it('until the asking frame is found the card sits at the top right corner; moves of another card change nothing', () => {
    const { messenger, push } = fakeMessenger();
    const lifetime = new AbortController();
    hostFrameCards({ window, extensionOrigin: () => 'chrome-extension://id', messenger, signal: lifetime.signal });
    push('showCard', card());
    const wrapper = shadows.at(-1)?.querySelector<HTMLElement>('.frame');
    const corner = { left: wrapper?.style.left, top: wrapper?.style.top };
    expect(corner.top).toBe('8px'); // the viewport margin
    push('moveCard', { nonce: OTHER_NONCE, rect: { left: 500, top: 500, right: 520, bottom: 516 } });
    push('moveCard', { nonce: NONCE, rect: { left: 'x' } });
    expect({ left: wrapper?.style.left, top: wrapper?.style.top }).toEqual(corner);
    lifetime.abort();
  });

  it("draws the top frame's own card (no key) at the badge's box it is given, and follows its moves", async () => {
    const { messenger, push } = fakeMessenger();
    const lifetime = new AbortController();
    hostFrameCards({ window, extensionOrigin: () => 'chrome-extension://id', messenger, signal: lifetime.signal });
    const { key: _none, ...own } = card();
    // Its link was judged where it is, by the annotator of this document.
    await expect(push('showCard', { ...own, rect: { left: 40, top: 100, right: 70, bottom: 116 } })).resolves.toEqual({
      ok: true,
      seen: true,
    });
    const wrapper = shadows.at(-1)?.querySelector<HTMLElement>('.frame');
    expect({ left: wrapper?.style.left, top: wrapper?.style.top }).toEqual({ left: '40px', top: '122px' }); // below it, 6px apart
    push('moveCard', { nonce: NONCE, rect: { left: 40, top: 300, right: 70, bottom: 316 } });
    expect(wrapper?.style.top).toBe('322px');
    lifetime.abort();
  });

  it('removes the card of the nonce it is told, not a newer one', () => {
    const { messenger, push } = fakeMessenger();
    const lifetime = new AbortController();
    hostFrameCards({ window, extensionOrigin: () => 'chrome-extension://id', messenger, signal: lifetime.signal });
    push('showCard', card(NONCE));
    push('closeCard', { nonce: OTHER_NONCE });
    expect(cards()).toHaveLength(1);
    push('closeCard', { nonce: NONCE });
    expect(cards()).toHaveLength(0);
    lifetime.abort();
  });

  it('stopping removes the card and stops answering', () => {
    const { messenger, handlers, push } = fakeMessenger();
    const lifetime = new AbortController();
    hostFrameCards({ window, extensionOrigin: () => 'chrome-extension://id', messenger, signal: lifetime.signal });
    push('showCard', card());
    lifetime.abort();
    expect(cards()).toHaveLength(0);
    expect([...handlers.keys()]).toEqual([]);
  });

  describe('a card page loaded ahead of intent (issue #27 point 12)', () => {
    const frames = () => shadows.flatMap((root) => [...root.querySelectorAll('iframe')]);
    const ownCard = () => {
      const { key: _none, ...own } = card();
      return own;
    };

    it('loads one, hidden, with a nonce of its own; the next card is drawn in it, and the answer names that nonce', async () => {
      const { messenger, push } = fakeMessenger();
      const lifetime = new AbortController();
      hostFrameCards({ window, extensionOrigin: () => 'chrome-extension://id', messenger, signal: lifetime.signal });
      push('warmCard', undefined);
      push('warmCard', undefined); // one waits already
      expect(frames()).toHaveLength(1);
      const ahead = frames()[0]!;
      expect(ahead.src).toMatch(/\/card\.html#ahead$/);
      expect(ahead.name).toMatch(/^[0-9a-f]{32}$/);
      expect(ahead.name).not.toBe(NONCE);
      expect(ahead.className).toBe('pending ahead'); // hidden, out of the flow, 1 x 1 px
      ahead.dispatchEvent(new Event('load'));
      await expect(push('showCard', ownCard())).resolves.toEqual({ ok: true, seen: true, frame: ahead.name });
      expect(frames()).toEqual([ahead]);
      expect(ahead.className).toBe('pending'); // shown once the card page reports its size
      // Closed, it goes; the next rest loads another.
      push('closeCard', { nonce: NONCE });
      expect(cards()).toHaveLength(0);
      push('warmCard', undefined);
      expect(cardFrame()).not.toBe(ahead);
      lifetime.abort();
      expect(cards()).toHaveLength(0);
    });

    it('a page loaded ahead that loaded twice (the page navigated it) is dropped: the card gets a fresh frame named by its own nonce', async () => {
      const { messenger, push } = fakeMessenger();
      const lifetime = new AbortController();
      hostFrameCards({ window, extensionOrigin: () => 'chrome-extension://id', messenger, signal: lifetime.signal });
      push('warmCard', undefined);
      const ahead = frames()[0]!;
      ahead.dispatchEvent(new Event('load'));
      ahead.dispatchEvent(new Event('load'));
      await expect(push('showCard', ownCard())).resolves.toEqual({ ok: true, seen: true });
      expect(ahead.isConnected).toBe(false);
      expect(cardFrame()?.name).toBe(NONCE);
      expect(cardFrame()?.src).toMatch(/\/card\.html$/);
      lifetime.abort();
    });

    it('one left unused is dropped after a while, and the page keeps no empty card element', async () => {
      vi.useFakeTimers();
      try {
        const { messenger, push } = fakeMessenger();
        const lifetime = new AbortController();
        hostFrameCards({ window, extensionOrigin: () => 'chrome-extension://id', messenger, signal: lifetime.signal });
        push('warmCard', undefined);
        expect(cards()).toHaveLength(1);
        vi.advanceTimersByTime(CARD_AHEAD_KEPT_MS);
        expect(cards()).toHaveLength(0);
        expect(frames().every((frame) => !frame.isConnected)).toBe(true);
        lifetime.abort();
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
