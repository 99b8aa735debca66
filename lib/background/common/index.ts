/**
 * lib/background/common: small tools that several background modules share (storage access that a
 * restarted worker can resume, one-at-a-time tasks per key, zod issue text, listening for a lifetime). They know nothing of
 * snapshots, cards or the watchlist.
 */
export { listenWhile, type BrowserEvent } from './browser-event';
export { describeIssues } from './describe-issues';
export { KeyedMutex } from './keyed-mutex';
export type { StorageAreaAdapter } from './storage-area';
