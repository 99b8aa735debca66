/**
 * lib/protocol/guarded: the wire formats that the content script, the frame relay and the page world
 * read, each with the hand-written guard that checks it where it enters (zod does not fit the content
 * script's budget, and the page world has no zod). So this folder imports no zod and nothing but the
 * core and the types of lib/protocol; property tests hold every guard to a zod schema
 * (test/lib/protocol/guarded/).
 */
export * from './card';
export * from './card-anchor';
export * from './card-frame';
export * from './content-answers';
export * from './frame-signals';
export * from './link-report';
