/**
 * lib/background: the service worker, the only process that fetches snapshots and re-checks what
 * every other process sends; it imports the core, lib/protocol and lib/extension, never React,
 * components or the content script, and only its entrypoint imports it.
 */
export { createCardBindings } from './card-binding';
export { startContentRegistration } from './content-registration';
export { startAnnotatorInFrame, type FrameOfTab } from './frame-start';
export { createHoverAllowance } from './hover-allowance';
export { createLinkFrames } from './link-frames';
export { createLinkFramesLocator, scriptingReports } from './link-frames-locator';
export { registerMessageHandlers } from './messages';
export { createSnapshotService } from './snapshot-service';
export { startWatchlist } from './watchlist/start';
