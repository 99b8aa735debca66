/**
 * lib/content: the content script's bundles, which run inside untrusted pages (the annotator, the
 * top frame's relay, the card presenter, and what they share), so no zod, no React, no core schema
 * or extension storage, and only the types of lib/protocol besides lib/protocol/guarded; each folder
 * states its own bundle's rule, and only its entrypoint imports it: this file exports nothing.
 */
export {};
