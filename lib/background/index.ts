/**
 * lib/background: the service worker, the only process that fetches snapshots and re-checks what
 * every other process sends; it imports the core, lib/protocol and lib/extension, never React,
 * components or the content script, and only its entrypoint imports it (`createBackground`).
 */
export { createBackground, type BackgroundBrowser } from './create-background';
