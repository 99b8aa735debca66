/**
 * lib/background/common: small tools that several background modules share (storage access that a
 * restarted worker can resume, one-at-a-time tasks per key, zod issue text). They know nothing of
 * snapshots, cards or the watchlist.
 */
export { describeIssues } from './describe-issues';
export { KeyedMutex } from './keyed-mutex';
export type { StorageAreaAdapter } from './storage-area';
