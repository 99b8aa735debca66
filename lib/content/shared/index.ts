/**
 * lib/content/shared: what the annotator and the top frame's relay both use (frame geometry, the
 * anchor key and nonces, following viewports, the lifetime of a script, the messaging wire format).
 * It imports neither of them.
 */
export { postCardAnchor } from './card-anchor';
export { sameOriginChainOf, toAncestorViewport } from './frame-geometry';
export { startLifetime, type Lifetime } from './lifetime';
export { contentMessenger, type ContentMessenger } from './messaging';
export { newNonce } from './nonce';
export { watchViewports } from './viewports';
