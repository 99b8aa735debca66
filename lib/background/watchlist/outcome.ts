import type { SavableCopy } from '../../core/schemas/results';
import { copyFromReady, pointFromReady } from '../../core/schemas/watchlist';
import type { SnapshotResult } from '../../core/schemas/results';
import { diffPoints, endChange } from '../../core/watchlist/diff';
import { CARRY_OVER_MS, retryDelayMs } from '../../core/watchlist/schedule';
import type { WatchChange, WatchPointSource, WatchRecord } from '../../core/watchlist/types';
import type { WatchStore } from './store';

/**
 * What one refresh answer does to a watch, stored:
 * - a snapshot: a history point, changes against the previous one, next refresh one period later (the
 *   spread into the period is given once, when the link is watched: ../../core/watchlist/schedule.ts);
 * - 404 NOT_FOUND / 410 EXPIRED: the watch ends for good (recorded, shown, never fetched again);
 * - 429 or the budget's pause: tried again when the pause ends (not a failure);
 * - no connection, 5xx: tried again after a back-off (5 min, 15 min, …), not the end;
 * - a timeout or an unreadable answer may have reached the server and cost a view: next period.
 * With a manual cadence (`period` null) nothing is scheduled or retried in the background.
 */

const DAY_MS = 24 * 3600_000;

/** The record's `copy` member: present only with a copy (a record without one has none, not `undefined`). */
export const withCopy = (copy: SavableCopy | undefined): { copy?: SavableCopy } => (copy ? { copy } : {});

export interface OutcomeInput {
  watch: WatchRecord;
  outcome: SnapshotResult;
  source: WatchPointSource;
  /** The cadence period; null: manual only. */
  period: number | null;
  at: number;
}

export async function recordOutcome(
  store: WatchStore,
  { watch, outcome, source, period, at }: OutcomeInput,
): Promise<{ watch: WatchRecord; changes: WatchChange[] }> {
  // One period after this refresh: the watch keeps the place in the day it was given when watched.
  const next = (from: number) => (period === null ? null : from + period);
  if (outcome.status === 'ready') {
    const point = pointFromReady(outcome, source);
    const changes = diffPoints(watch.latest, point);
    // The copy is the last refresh's: one from an earlier answer would not match the figures shown.
    const updated = await store.addPoint(watch.id, point, ({ copy: _earlier, ...record }) => ({
      ...record,
      company: outcome.snapshot.company.name,
      disclaimer: outcome.snapshot.disclaimer,
      lastRefreshAt: at,
      nextDueAt: next(at),
      failures: 0,
      lastError: null,
      ...withCopy(copyFromReady(outcome)),
    }));
    return { watch: updated ?? watch, changes };
  }
  if (outcome.code === 'NOT_FOUND' || outcome.code === 'EXPIRED') {
    const code = outcome.code;
    const expiredAt = outcome.expiredAt ?? (code === 'EXPIRED' ? watch.latest?.expiresAt : undefined);
    const updated = await store.update(watch.id, (record) => ({
      ...record,
      status: 'ended',
      end: { code, at, ...(expiredAt ? { expiredAt } : {}) },
      nextDueAt: null,
      lastError: null,
    }));
    return { watch: updated ?? watch, changes: [endChange(code)] };
  }
  const retry =
    outcome.code === 'RATE_LIMITED'
      ? Math.max(outcome.retryAt ?? at + CARRY_OVER_MS, at + 1000)
      : outcome.code === 'NETWORK'
        ? at + retryDelayMs(watch.failures + 1, period ?? DAY_MS)
        : next(at);
  const updated = await store.update(watch.id, (record) => ({
    ...record,
    failures: outcome.code === 'RATE_LIMITED' ? record.failures : record.failures + 1,
    lastError: { code: outcome.code, at, ...(period !== null && retry !== null ? { retryAt: retry } : {}) },
    // Manual cadence: nothing is retried in the background.
    nextDueAt: period === null ? null : retry,
  }));
  return { watch: updated ?? watch, changes: [] };
}
