// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLazyCard } from '@/lib/content/annotator/card';
import { CARD_PRESENTER_KEY, type CardPresenter, type CreateCardPresenter } from '@/lib/content/shared/card-contract';

const KEY = Symbol.for(CARD_PRESENTER_KEY);
const request = { origin: 'https://service.example', token: 'tok' };
const link = document.createElement('a');
const options = {
  focus: false,
  intent: 'hover',
  gesture: { link, badge: link, on: link, at: { x: 1, y: 1 }, drawnBefore: true },
} as const;
const events = { onCloseRequested: vi.fn(), onCardHover: vi.fn() };

/** A presenter that records what it was asked, registered as the loaded script would. */
function installPresenter() {
  const calls: string[] = [];
  let open = false;
  const presenter: CardPresenter = {
    open: () => ((open = true), calls.push('open'), Promise.resolve()),
    close: () => ((open = false), void calls.push('close')),
    warm: () => void calls.push('warm'),
    get isOpen() {
      return open;
    },
    contains: () => false,
    hasFocus: () => false,
    reposition: () => undefined,
  };
  const create: CreateCardPresenter = () => presenter;
  Reflect.set(globalThis, KEY, create);
  return calls;
}

/** A load the test finishes when it chooses (the background's executeScript). */
function deferredLoad() {
  let finish = () => {};
  const load = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
  return { load, finish: () => finish() };
}

afterEach(() => {
  Reflect.deleteProperty(globalThis, KEY);
});

describe('createLazyCard', () => {
  it('an open asked for while the presenter loads counts as open, and opens once it is there', async () => {
    const calls = installPresenter();
    const { load, finish } = deferredLoad();
    const card = createLazyCard({ load, window, signal: new AbortController().signal }, events);
    const opened = card.open(request, [], options);
    expect(card.isOpen).toBe(true);
    finish();
    await opened;
    expect(calls).toEqual(['open']);
    expect(card.isOpen).toBe(true);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a close before the presenter arrives cancels the open: no card appears after the reader left', async () => {
    const calls = installPresenter();
    const { load, finish } = deferredLoad();
    const card = createLazyCard({ load, window, signal: new AbortController().signal }, events);
    const opened = card.open(request, [], options);
    card.close('pointer-left');
    expect(card.isOpen).toBe(false);
    finish();
    expect(await opened).toBeUndefined();
    expect(calls).toEqual([]);
    expect(card.isOpen).toBe(false);
  });

  it('a later open replaces an earlier one still waiting: only the last is shown', async () => {
    const calls = installPresenter();
    const { load, finish } = deferredLoad();
    const card = createLazyCard({ load, window, signal: new AbortController().signal }, events);
    const first = card.open(request, [], options);
    const second = card.open({ ...request, token: 'other' }, [], options);
    finish();
    expect(await first).toBeUndefined();
    await second;
    expect(calls).toEqual(['open']);
  });
});
