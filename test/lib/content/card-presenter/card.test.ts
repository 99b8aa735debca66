// @vitest-environment happy-dom
/**
 * The annotator's side of its card, the card presenter (lib/content/card-presenter/card.ts): what it asks the background for
 * (where the badge is, in which viewport, with which key), what it does with the answers and pushes.
 * The top frame's host draws the card; test/e2e/frames.spec.ts checks the whole path in Chromium.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCard } from '@/lib/content/card-presenter/card';
import type { CardClient } from '@/lib/content/card-presenter/client';
import type { CardEvents } from '@/lib/content/shared/card-contract';
import type { Gesture, Point } from '@/lib/content/shared/seen';
import { CARD_ANCHOR_SOURCE } from '@/lib/protocol/guarded/card-anchor';
import { CARD_TAG } from '@/lib/protocol/guarded/card';

const request = { origin: 'https://comply.example', token: 'T'.repeat(43) };

function fakeClient(answer: { shown: boolean } = { shown: true }) {
  const pushes: Parameters<CardClient['listen']>[0][] = [];
  const client = {
    open: vi.fn<CardClient['open']>(async () => answer),
    move: vi.fn<CardClient['move']>(async () => ({ ok: true })),
    close: vi.fn<CardClient['close']>(async () => ({ ok: true })),
    warm: vi.fn<CardClient['warm']>(async () => ({ ok: true })),
    listen: vi.fn<CardClient['listen']>((handlers) => void pushes.push(handlers)),
  } satisfies CardClient;
  return { client, push: () => pushes[0]! };
}

function fakeEvents() {
  return {
    onCloseRequested: vi.fn<CardEvents['onCloseRequested']>(),
    onCardHover: vi.fn<CardEvents['onCardHover']>(),
  };
}

/** An element whose box the test sets (happy-dom lays nothing out). */
function placed(box: { left: number; top: number; width: number; height: number }): HTMLElement {
  const element = document.createElement('span');
  element.getBoundingClientRect = () => DOMRect.fromRect({ x: box.left, y: box.top, width: box.width, height: box.height });
  document.body.append(element);
  return element;
}

/** Where the gesture was, in the asking document's viewport. */
const POINT = { x: 20, y: 28 };

/**
 * A gesture at `at`, to be judged seen or not: happy-dom lays nothing out, so the judge here reads the
 * verdict the test chose (the real judge, lib/content/shared/seen.ts, runs in the e2e tests).
 */
const gestureAt = (at: Point, seen: boolean): Gesture => {
  const link = document.createElement('a');
  return { link, badge: link, on: link, at, drawnBefore: seen };
};
const judge = (gesture: Gesture) => Promise.resolve(gesture.drawnBefore);

let lifetime: AbortController;
beforeEach(() => {
  lifetime = new AbortController();
  document.body.innerHTML = '';
});
afterEach(() => lifetime.abort());

describe("the top frame's own link", () => {
  it('asks for the card at the box around the link and its badge in the top viewport, without a key; follows its moves; closes with its nonce', async () => {
    const { client } = fakeClient();
    const events = fakeEvents();
    const card = createCard({ client, window, signal: lifetime.signal, judge }, events);
    const badge = placed({ left: 10, top: 20, width: 30, height: 16 });
    await expect(
      card.open(request, [badge], { focus: false, intent: 'hover', gesture: gestureAt(POINT, true) }),
    ).resolves.toBeUndefined();
    const [[asked]] = client.open.mock.calls as [[Parameters<CardClient['open']>[0]]];
    expect(asked).toMatchObject({
      ...request,
      intent: 'hover',
      seen: true,
      anchor: {
        hops: 0,
        rect: { left: 10, top: 20, right: 40, bottom: 36 },
        viewport: { width: innerWidth, height: innerHeight },
        at: POINT,
      },
    });
    expect(asked.anchor.key).toBeUndefined();
    expect(asked.nonce).toMatch(/^[0-9a-f]{32}$/);

    badge.getBoundingClientRect = () => DOMRect.fromRect({ x: 10, y: 120, width: 30, height: 16 });
    card.reposition();
    expect(client.move).toHaveBeenCalledWith(asked.nonce, { left: 10, top: 120, right: 40, bottom: 136 });

    card.close('escape');
    expect(client.close).toHaveBeenCalledWith(asked.nonce);
    expect(card.isOpen).toBe(false);
  });

  it('a card closed while its gesture is still judged asks nothing (the reader moved on)', async () => {
    const { client } = fakeClient();
    let verdict: (seen: boolean) => void = () => undefined;
    const slowJudge = () => new Promise<boolean>((resolve) => (verdict = resolve));
    const card = createCard({ client, window, signal: lifetime.signal, judge: slowJudge }, fakeEvents());
    const opened = card.open(request, [placed({ left: 0, top: 0, width: 10, height: 10 })], {
      focus: false,
      intent: 'hover',
      gesture: gestureAt(POINT, true),
    });
    card.close('pointer-left');
    verdict(true);
    await expect(opened).resolves.toBeUndefined();
    expect(client.open).not.toHaveBeenCalled();
  });

  it('the same link again asks nothing, unless from the keyboard (the card takes focus then)', async () => {
    const { client } = fakeClient();
    const card = createCard({ client, window, signal: lifetime.signal, judge }, fakeEvents());
    const badge = placed({ left: 0, top: 0, width: 10, height: 10 });
    await card.open(request, [badge], { focus: false, intent: 'hover', gesture: gestureAt(POINT, true) });
    expect(card.open(request, [badge], { focus: false, intent: 'click', gesture: gestureAt(POINT, true) })).toBeNull();
    expect(client.open).toHaveBeenCalledTimes(1);
    await card.open(request, [badge], { focus: true, intent: 'keyboard', gesture: gestureAt(POINT, true) });
    expect(client.open).toHaveBeenCalledTimes(2);
  });

  it('the pointer and focus are on the card when they are on the element the host draws it in', () => {
    const card = createCard({ client: fakeClient().client, window, signal: lifetime.signal, judge }, fakeEvents());
    const element = document.createElement(CARD_TAG);
    element.tabIndex = 0;
    document.body.append(element);
    expect(card.contains(element)).toBe(true);
    expect(card.contains(document.body)).toBe(false);
    element.focus();
    expect(card.hasFocus()).toBe(true);
  });

  it('a card nothing draws (no host in the top frame) is closed (the badge learns the snapshot from badgeChanged)', async () => {
    const { client } = fakeClient({ shown: false });
    const events = fakeEvents();
    const card = createCard({ client, window, signal: lifetime.signal, judge }, events);
    await expect(
      card.open(request, [placed({ left: 0, top: 0, width: 1, height: 1 })], {
        focus: false,
        intent: 'click',
        gesture: gestureAt(POINT, true),
      }),
    ).resolves.toBeUndefined();
    expect(events.onCloseRequested).toHaveBeenCalledWith('replaced');
  });

  it('a badge that left the page closes its card when it would be placed again', () => {
    const events = fakeEvents();
    const card = createCard({ client: fakeClient().client, window, signal: lifetime.signal, judge }, events);
    const badge = placed({ left: 0, top: 0, width: 1, height: 1 });
    void card.open(request, [badge], { focus: false, intent: 'click', gesture: gestureAt(POINT, true) });
    badge.remove();
    card.reposition();
    expect(events.onCloseRequested).toHaveBeenCalledWith('replaced');
  });

  it('what the background says of this card reaches the engine; of another card, nothing', async () => {
    const { client, push } = fakeClient();
    const events = fakeEvents();
    const card = createCard({ client, window, signal: lifetime.signal, judge }, events);
    await card.open(request, [placed({ left: 0, top: 0, width: 1, height: 1 })], {
      focus: false,
      intent: 'hover',
      gesture: gestureAt(POINT, true),
    });
    const nonce = client.open.mock.calls[0]![0].nonce;
    push().onEvent('f'.repeat(32), 'outside');
    push().onClose('f'.repeat(32));
    expect(events.onCloseRequested).not.toHaveBeenCalled();
    push().onEvent(nonce, 'enter');
    push().onEvent(nonce, 'leave');
    expect(events.onCardHover.mock.calls).toEqual([[true], [false]]);
    push().onEvent(nonce, 'dismiss'); // from inside the card: as Escape, focus goes back to the badge
    push().onEvent(nonce, 'outside');
    push().onClose(nonce); // another frame's card replaced it
    expect(events.onCloseRequested.mock.calls).toEqual([['escape'], ['outside'], ['replaced']]);
  });

  it('asks for a card page ahead at most once in a few seconds (one waits in the top frame meanwhile)', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const { client } = fakeClient();
      const card = createCard({ client, window, signal: lifetime.signal, judge }, fakeEvents());
      card.warm();
      card.warm();
      expect(client.warm).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(5000);
      card.warm();
      expect(client.warm).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('when the script stops, an open card is closed', async () => {
    const { client } = fakeClient();
    const card = createCard({ client, window, signal: lifetime.signal, judge }, fakeEvents());
    await card.open(request, [placed({ left: 0, top: 0, width: 1, height: 1 })], {
      focus: false,
      intent: 'click',
      gesture: gestureAt(POINT, true),
    });
    lifetime.abort();
    expect(client.close).toHaveBeenCalledTimes(1);
    expect(card.isOpen).toBe(false);
  });
});

describe("a subframe's link", () => {
  /** A frame two same-origin levels below the top: a mail body inside a reading pane. */
  function nestedFrame() {
    const posted: unknown[] = [];
    const outerFrame = {
      getBoundingClientRect: () => DOMRect.fromRect({ x: 200, y: 100, width: 600, height: 400 }),
      offsetWidth: 600,
      offsetHeight: 400,
      clientLeft: 0,
      clientTop: 0,
    };
    const innerFrame = {
      getBoundingClientRect: () => DOMRect.fromRect({ x: 20, y: 30, width: 300, height: 150 }),
      offsetWidth: 300,
      offsetHeight: 150,
      clientLeft: 1,
      clientTop: 1,
    };
    const listeners = { addEventListener: () => undefined, removeEventListener: () => undefined };
    const top = {
      ...listeners,
      innerWidth: 1280,
      innerHeight: 800,
      postMessage: (message: unknown) => posted.push(message),
    } as Record<string, unknown>;
    top.top = top;
    top.parent = top;
    const pane = { ...listeners, top, parent: top, frameElement: outerFrame, innerWidth: 600, innerHeight: 400 };
    const body = { ...listeners, top, parent: pane, frameElement: innerFrame, innerWidth: 300, innerHeight: 150, document };
    return { window: body as unknown as Window, posted };
  }

  it('posts a key to the top window and asks for the card by it, the box measured up to the frame the host finds', async () => {
    const { window: frameWindow, posted } = nestedFrame();
    const { client } = fakeClient();
    const card = createCard({ client, window: frameWindow, signal: lifetime.signal, judge }, fakeEvents());
    // Not seen here: the frame elements of this fake are not in a document to judge them in.
    await card.open(request, [placed({ left: 10, top: 20, width: 30, height: 16 })], {
      focus: true,
      intent: 'keyboard',
      gesture: gestureAt(POINT, false),
    });
    const [[asked]] = client.open.mock.calls as [[Parameters<CardClient['open']>[0]]];
    expect(asked.seen).toBe(false);
    // One hop up: the reading pane's window, whose frame element (in the top document) the host finds;
    // the box is carried through the mail body's frame (its position and 1px border) into the pane.
    expect(asked.anchor).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown,
      hops: 1,
      rect: { left: 31, top: 51, right: 61, bottom: 67 },
      viewport: { width: 600, height: 400 },
      at: POINT, // not seen: not carried through the frames
    });
    expect(posted).toEqual([{ source: CARD_ANCHOR_SOURCE, key: asked.anchor.key }]);
    // Neither the pointer nor focus can be on the card from here: it is in the top document.
    const element = document.createElement(CARD_TAG);
    expect(card.contains(element)).toBe(false);
  });
});
