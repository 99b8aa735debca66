/**
 * lib/core/signing: checking a signed snapshot answer (issue #36) from its status, headers and body
 * bytes against a JWK Set, and the verifiable copy built from one. Part of the core, so it imports
 * only the core and `structured-headers`: no browser, Node or React API (Web Crypto's
 * `globalThis.crypto.subtle` is in every runtime it serves), no zod. Its modules are imported by
 * path: this file exports nothing.
 */
export {};
