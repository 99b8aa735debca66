import type { CardAnchor, ContentProtocolMap, FrameRect } from '../../protocol/content';
import type { ActivationSource, CardEventKind } from '../../protocol/guarded/card';
import { toCardEvent, toCloseCard, toOpenCardAnswer } from '../../protocol/guarded/content-answers';
import type { SnapshotRequest } from '../shared/card-contract';
import { contentMessenger } from '../shared/messaging';

const messenger = contentMessenger<ContentProtocolMap>();

/** What the card asks the background for (lib/background/cards/card-routes.ts owns the card's life). */
export interface CardClient {
  /**
   * Opens this tab's card for `request` next to `anchor` (the card page named `nonce` claims it);
   * answers, once the snapshot is known, whether the card is drawn (the badge heard what it shows before).
   */
  open(
    card: SnapshotRequest & { nonce: string; intent: ActivationSource; seen: boolean; anchor: CardAnchor },
  ): Promise<{ shown: boolean }>;
  /** The card's badge moved to `rect`. */
  move(nonce: string, rect: FrameRect): Promise<unknown>;
  close(nonce: string): Promise<unknown>;
  /** Has the top frame load a card page ahead (nothing is fetched). */
  warm(): Promise<unknown>;
  /**
   * Calls `onClose` when the background closes a card of this frame (another frame's card replaced
   * it) and `onEvent` with what the card did, until `signal` aborts.
   */
  listen(
    handlers: {
      onClose(nonce: string): void;
      onEvent(nonce: string, event: CardEventKind): void;
    },
    signal: AbortSignal,
  ): void;
}

export const cardClient: CardClient = {
  open: async (card) => toOpenCardAnswer(await messenger.send('openCard', card)),
  move: (nonce, rect) => messenger.send('moveCard', { nonce, rect }),
  close: (nonce) => messenger.send('closeCard', { nonce }),
  warm: () => messenger.send('warmCard'),
  listen(handlers, signal) {
    const stops = [
      messenger.answer('closeCard', (data) => {
        const nonce = toCloseCard(data);
        if (nonce) handlers.onClose(nonce);
        return { ok: true };
      }),
      messenger.answer('cardEvent', (data) => {
        const event = toCardEvent(data);
        if (event) handlers.onEvent(event.nonce, event.event);
        return { ok: true };
      }),
    ];
    signal.addEventListener('abort', () => stops.forEach((stop) => stop()), { once: true });
  },
};
