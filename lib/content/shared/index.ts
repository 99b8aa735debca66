/**
 * lib/content/shared: what the annotator and the top frame's relay both use (the card's view and
 * placement, frame geometry, the nonce and anchor key, the messaging wire format). It imports
 * neither of them.
 */
export { postCardAnchor } from './card-anchor';
export { CARD_TAG, createCardView, watchViewports, type CardView } from './card-view';
export { sameOriginChainOf, toAncestorViewport } from './frame-geometry';
export { contentMessenger, type ContentMessenger } from './messaging';
export { newNonce } from './nonce';
export { placeCard, type Rect } from './placement';
