/**
 * lib/content: the content-script bundle, which runs inside untrusted pages under a 15 KB gzip
 * budget, so it imports no zod and no React: only the zod-free core, the types of lib/protocol (and
 * the zod-free card-frame protocol) and its own folder; only its entrypoint imports it.
 */
export { startAnnotator } from './start';
export { servePageLinks } from './page-links';
