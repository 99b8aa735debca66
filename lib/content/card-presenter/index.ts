/**
 * lib/content/card-presenter: the card presenter's bundle (entrypoints/card-presenter.ts), loaded into
 * a frame by the background the first time a reader's pointer comes to a share link there: the same
 * rules as the annotator (no zod, no React; the zod-free core, protocol types, lib/protocol/guarded,
 * lib/content/shared), and it imports neither the annotator nor the top frame's relay.
 */
import { CARD_PRESENTER_KEY, type CreateCardPresenter } from '../shared/card-contract';
import { createCard } from './card';
import { cardClient } from './client';

/** Registers the presenter's factory where this frame's annotator finds it (the extension's own world). */
export function registerCardPresenter(): void {
  const create: CreateCardPresenter = ({ window, signal }, events) => createCard({ client: cardClient, window, signal }, events);
  Reflect.set(globalThis, Symbol.for(CARD_PRESENTER_KEY), create);
}
