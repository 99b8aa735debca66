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
 * Until it is there, nothing is open; a gesture that comes first waits for it.
 */
export function createLazyCard(deps: LazyCardDeps, events: CardEvents): CardPresenter {
  let real: CardPresenter | null = null;
  let loading: Promise<CardPresenter | null> | null = null;
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
      return real?.isOpen ?? false;
    },
    open: (request, anchors, options) =>
      real ? real.open(request, anchors, options) : ready().then((card) => card?.open(request, anchors, options) ?? null),
    close: (reason) => real?.close(reason),
    warm: () => void ready().then((card) => card?.warm()),
    contains: (node) => real?.contains(node) ?? false,
    hasFocus: () => real?.hasFocus() ?? false,
    reposition: () => real?.reposition(),
  };
}
