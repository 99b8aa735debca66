import { cardAnchorMessage } from '../../protocol/guarded/card-anchor';
import { newNonce } from './nonce';

/** Posts a new anchor key (lib/protocol/guarded/card-anchor.ts) from `win` to its top window, and returns it. */
export function postCardAnchor(win: Window): string {
  const key = newNonce();
  win.top?.postMessage(cardAnchorMessage(key), '*');
  return key;
}
