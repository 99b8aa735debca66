/**
 * lib/core/schemas: the zod schemas (the snapshot wire format, settings, services, the watchlist, the
 * signing key set and verifiable copies) for the server, the background and extension pages; the
 * only part of the core that imports zod, it imports nothing else but the core: no browser, Node or
 * React API, and the content script never imports it. Its modules are imported by path: this file
 * exports nothing.
 */
export {};
