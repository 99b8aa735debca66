/**
 * lib/content/top-frame: the frame relay's bundle, beside the annotator in the top frame of every
 * matched page (entrypoints/frame-relay.ts): it relays the frame sentinels' signals to the background
 * and draws the cards of subframes. It runs on every matched page, so it stays small (a budget of its
 * own) and imports nothing of the annotator; what both use lives in lib/content/shared.
 */
export { hostFrameCards } from './card-host';
export { locateLinkFrames, relayFrameSignals } from './frame-relay';
