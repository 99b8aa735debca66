export * from '../../core/schemas/results';
export { createSnapshotService } from './service';
export type { BudgetDeferral, SnapshotService, SnapshotServiceDeps, SnapshotServiceSettings } from './service';
export { SnapshotCache, cacheKey, DEFAULT_MAX_CACHE_ENTRIES } from './cache';
export { RateBudget, retryAtFrom, DEFAULT_RETRY_AFTER_MS, MAX_RETRY_AFTER_MS } from './rate-budget';
export { buildSnapshotUrl, fetchSnapshot, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from './http';
export type { FetchLike } from './http';
export type { StorageAreaAdapter } from '../common/storage-area';
