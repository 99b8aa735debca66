// @vitest-environment happy-dom
/**
 * What the card page tells its parent about the pointer, and when Escape closes it
 * (components/HoverCard.tsx): a frame is not always told when the pointer leaves it, so it says
 * "inside" again while the pointer moves on it, at most every CARD_HOVER_REPEAT_MS, and "left" when
 * the browser does tell it.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HoverCard, LOADING_SHOWN_AFTER_MS } from '@/components/HoverCard';
import { I18nProvider } from '@/components/i18n';
import type { CardClaim } from '@/lib/protocol/card';
import { CARD_HOVER_REPEAT_MS } from '@/lib/protocol/guarded/card-frame';
import { buildSnapshot, FIXTURE_TOKEN } from '../fixtures/snapshot';

afterEach(() => cleanup());

function renderCard(onClose: (reason: 'escape' | 'button') => void = () => undefined) {
  const onHover = vi.fn<(inside: boolean) => void>();
  const never = () => new Promise<never>(() => undefined);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider language="en" locale="en-GB">
        <HoverCard claim={never} refreshSnapshot={never} onClose={onClose} onResize={() => undefined} onHover={onHover} />
      </I18nProvider>
    </QueryClientProvider>,
  );
  return onHover;
}

/**
 * A pointer event at `timeStamp` ms (the card compares the events' own times), at `x` on the screen
 * (by default a new place each time: a pointer that moves).
 */
let nextX = 0;
function pointer(type: string, timeStamp: number, target: EventTarget = document.body, x = (nextX += 1)): void {
  const event = new PointerEvent(type, { bubbles: true, screenX: x, screenY: 40 });
  Object.defineProperty(event, 'timeStamp', { value: timeStamp });
  target.dispatchEvent(event);
}

/** A card claimed with a loaded snapshot (and the background's verdict on its signature, if given). */
const readyClaim = (signature?: NonNullable<Extract<CardClaim['result'], { status: 'ready' }>['signature']>): CardClaim => ({
  request: { origin: 'https://comply.example', token: FIXTURE_TOKEN },
  result: {
    status: 'ready',
    snapshot: buildSnapshot(),
    meta: { token_status: 'active', view_count: 1 },
    fetchedAt: 1,
    fromCache: true,
    ...(signature ? { signature } : {}),
  },
  language: 'en',
});

describe('HoverCard: where the pointer is', () => {
  it('says "inside" when the pointer comes in, again at most every CARD_HOVER_REPEAT_MS while it moves, and "left" when it leaves', () => {
    const onHover = renderCard();
    pointer('pointerover', 1000);
    pointer('pointermove', 1010);
    pointer('pointermove', 1000 + CARD_HOVER_REPEAT_MS - 1);
    expect(onHover.mock.calls).toEqual([[true]]);
    pointer('pointermove', 1000 + CARD_HOVER_REPEAT_MS);
    expect(onHover.mock.calls).toEqual([[true], [true]]);

    pointer('pointerleave', 1000 + CARD_HOVER_REPEAT_MS + 5, document.documentElement);
    expect(onHover.mock.calls.at(-1)).toEqual([false]);
    // Back in at once: said at once, whatever the last repeat.
    pointer('pointerover', 1000 + CARD_HOVER_REPEAT_MS + 10);
    expect(onHover.mock.calls.at(-1)).toEqual([true]);
    expect(onHover).toHaveBeenCalledTimes(4);
  });

  it('says nothing for an event at the place of the last one (content redrawn under where the pointer was, maybe gone since), until the pointer moves', () => {
    const onHover = renderCard();
    pointer('pointerover', 1000, document.body, 50);
    pointer('pointermove', 1001, document.body, 50);
    expect(onHover.mock.calls).toEqual([[true]]);
    // Refresh answered: the card redraws under the pointer's last place here, the page may have seen it go.
    pointer('pointerover', 2000, document.body, 50);
    pointer('pointerover', 3000, document.body, 50);
    expect(onHover.mock.calls).toEqual([[true]]);
    pointer('pointermove', 3001, document.body, 51);
    expect(onHover.mock.calls).toEqual([[true], [true]]);
    // Told it left, the frame starts afresh: back at the same place is back on the card.
    pointer('pointerleave', 3100, document.documentElement, 51);
    pointer('pointerover', 3200, document.body, 51);
    expect(onHover.mock.calls).toEqual([[true], [true], [false], [true]]);
  });
});

describe('HoverCard: Escape', () => {
  it('closes the card when Escape is released in it, not when it is pressed (its frame goes with it)', () => {
    const onClose = vi.fn<(reason: 'escape' | 'button') => void>();
    renderCard(onClose);
    document.dispatchEvent(new KeyboardEvent('keyup', { key: 'Escape', bubbles: true })); // pressed elsewhere
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(onClose).not.toHaveBeenCalled();
    document.dispatchEvent(new KeyboardEvent('keyup', { key: 'Escape', bubbles: true }));
    expect(onClose).toHaveBeenCalledWith('escape');
  });
});

describe('HoverCard: a card already claimed (a page loaded ahead gets its card with its wait)', () => {
  it('draws the company in its first render and tells its size, without asking for a claim or showing Loading', () => {
    const claimed = readyClaim();
    const onResize = vi.fn<(size: { width: number; height: number }) => void>();
    const never = () => new Promise<never>(() => undefined);
    const { getByTestId, queryByRole } = render(
      <QueryClientProvider client={new QueryClient()}>
        <HoverCard
          claim={claimed}
          refreshSnapshot={never}
          onClose={() => undefined}
          onResize={onResize}
          onHover={() => undefined}
        />
      </QueryClientProvider>,
    );
    // render() has flushed only the first commit and its layout effects: no claim was awaited.
    expect(getByTestId('company-name').textContent).toBe('Kobo Ledger Ltd');
    expect(queryByRole('status')).toBeNull();
    expect(onResize).toHaveBeenCalled();
  });
});

describe('HoverCard: a snapshot slow to come', () => {
  it('says it is loading, after LOADING_SHOWN_AFTER_MS, in the reader’s language it was told', () => {
    vi.useFakeTimers();
    try {
      const never = () => new Promise<never>(() => undefined);
      const { queryByRole } = render(
        <QueryClientProvider client={new QueryClient()}>
          <HoverCard
            claim={never}
            language="fr"
            refreshSnapshot={never}
            onClose={() => undefined}
            onResize={() => undefined}
            onHover={() => undefined}
          />
        </QueryClientProvider>,
      );
      expect(queryByRole('status')).toBeNull(); // no flash for an answer that comes soon
      act(() => {
        vi.advanceTimersByTime(LOADING_SHOWN_AFTER_MS);
      });
      expect(queryByRole('status')?.textContent).toBe('Chargement de l’instantané…');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('HoverCard: a refresh the background does not answer', () => {
  it('says so under the figures it keeps, and a refresh that works takes the notice away', async () => {
    const request = { origin: 'https://comply.example', token: FIXTURE_TOKEN };
    const ready = (score: number) => ({
      status: 'ready' as const,
      snapshot: buildSnapshot({ scores: { readiness_score: score } }),
      meta: { token_status: 'active' as const, view_count: 1 },
      fetchedAt: 1,
      fromCache: false,
    });
    const claimed: CardClaim = { request, result: ready(61), language: 'en' };
    const refreshSnapshot = vi
      .fn<(asked: typeof request) => Promise<ReturnType<typeof ready>>>()
      .mockRejectedValueOnce(new Error('Could not establish connection. Receiving end does not exist.'))
      .mockResolvedValueOnce(ready(74));
    const { getByRole, getByTestId, queryByTestId } = render(
      <QueryClientProvider client={new QueryClient()}>
        <HoverCard
          claim={claimed}
          refreshSnapshot={refreshSnapshot}
          onClose={() => undefined}
          onResize={() => undefined}
          onHover={() => undefined}
        />
      </QueryClientProvider>,
    );
    const refreshButton = () => getByRole('button', { name: /Refresh/ });
    await act(async () => refreshButton().click());
    expect(getByTestId('refresh-failed').getAttribute('role')).toBe('alert');
    expect(getByTestId('refresh-failed').textContent).toContain('Could not refresh');
    expect(getByTestId('readiness-score').textContent).toContain('61'); // the figures it had stay
    await act(async () => refreshButton().click());
    expect(queryByTestId('refresh-failed')).toBeNull();
    expect(getByTestId('readiness-score').textContent).toContain('74');
    expect(refreshSnapshot).toHaveBeenCalledTimes(2);
  });
});

describe('HoverCard: Watch', () => {
  const offered = (claim: CardClaim) => {
    const watchControl = vi.fn<NonNullable<Parameters<typeof HoverCard>[0]['watchControl']>>(() => null);
    const never = () => new Promise<never>(() => undefined);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <HoverCard
          claim={claim}
          refreshSnapshot={never}
          onClose={() => undefined}
          onResize={() => undefined}
          onHover={() => undefined}
          watchControl={watchControl}
        />
      </QueryClientProvider>,
    );
    cleanup();
    return watchControl.mock.calls.map(([, options]) => !options.onlyIfWatched);
  };

  it('is offered for a loaded snapshot, signed and verified or not signed at all', () => {
    expect(offered(readyClaim({ state: 'verified', kid: 'k1', signedAt: 1 }))).toContain(true);
    expect(offered(readyClaim({ state: 'unsigned' }))).toContain(true);
    expect(offered(readyClaim())).toContain(true);
  });

  it('is not offered (only an unwatch of a watched link) for an answer whose signature fails', () => {
    const calls = offered(readyClaim({ state: 'invalid', reason: 'digest-mismatch', message: 'the body is not the one signed' }));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls).not.toContain(true);
  });
});
