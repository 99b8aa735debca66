import { CARD_PRESENTER_KEY, type CardPresenter, type CreateCardPresenter } from '../shared/card-contract';
import type { CardEvents } from './types';

export interface LazyCardDeps {
  /** Has the background load the presenter's script into this frame (resolves once it ran). */
  load: () => Promise<unknown>;
  /** The window of the content script's own document. */
  window: Window;
  /** Aborted when the content script stops: the card and its listeners go. */
  signal: AbortSignal;
}

/**
 * The annotator's card, loaded when first needed: the presenter (lib/content/card-presenter: where
 * the card goes, its moves, what it did) is a script of its own, which the background loads into
 * this frame the first time the pointer comes to a link or a badge takes focus (`warm`), long before
 * the hover delay runs out. Every page pays only for finding links and taking their badges' room.
 * A gesture that comes first waits for it, and counts as open meanwhile: leaving or Escape before the
 * presenter arrives cancels it, so no card appears after the reader moved on.
 */
export function createLazyCard(deps: LazyCardDeps, events: CardEvents): CardPresenter {
  let real: CardPresenter | null = null;
  let loading: Promise<CardPresenter | null> | null = null;
  /** The open asked for while the presenter loads; cleared by close. */
  let pending: object | null = null;
  const ready = (): Promise<CardPresenter | null> =>
    (loading ??= deps.load().then(
      () => {
        const create: unknown = Reflect.get(globalThis, Symbol.for(CARD_PRESENTER_KEY));
        if (typeof create !== 'function' || deps.signal.aborted) return null;
        return (real = (create as CreateCardPresenter)({ window: deps.window, signal: deps.signal }, events));
      },
      () => ((loading = null), null),
    ));
  return {
    get isOpen() {
      return pending !== null || (real?.isOpen ?? false);
    },
    open(request, anchors, options) {
      if (real) return real.open(request, anchors, options);
      const asked = (pending = {});
      return ready().then(async (card) => {
        if (pending !== asked) return;
        pending = null;
        await card?.open(request, anchors, options);
      });
    },
    close(reason) {
      pending = null;
      real?.close(reason);
    },
    warm: () => void ready().then((card) => card?.warm()),
    contains: (node) => real?.contains(node) ?? false,
    hasFocus: () => real?.hasFocus() ?? false,
    reposition: () => real?.reposition(),
  };
}
