/**
 * lib/core: what the server and every extension process share (links, tokens, labels, vocabulary,
 * palette, i18n), so it imports only itself: no browser, Node or React API, no zod outside
 * lib/core/schemas, no other lib/ folder. Its modules are imported by path: this file exports nothing.
 */
export {};
