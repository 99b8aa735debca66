/**
 * lib/content/annotator: the annotator's bundle (entrypoints/annotator.ts), which runs inside
 * untrusted pages under a 15 KB gzip budget: no zod, no React; the zod-free core, the types of
 * lib/protocol, lib/protocol/guarded and lib/content/shared; never the top frame's relay.
 */
export { startAnnotator } from './start';
export { servePageLinks } from './page-links';
