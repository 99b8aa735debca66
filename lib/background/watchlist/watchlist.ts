import { copyFromReady, pointFromReady } from '../../core/schemas/watchlist';
import { withCopy } from './outcome';
import type { SnapshotRequest, SnapshotResult } from '../../core/schemas/results';
import { isNotable } from '../../core/watchlist/diff';
import {
  cadencePeriodMs,
  CARRY_OVER_MS,
  nextDueAt,
  OFFLINE_RETRY_MS,
  watchBudget,
  type WatchSettings,
} from '../../core/watchlist/schedule';
import type { WatchChange, WatchPoint, WatchPointSource, WatchRecord } from '../../core/watchlist/types';
import type { BudgetDeferral, SnapshotService } from '../snapshot-service/service';
import { recordOutcome } from './outcome';
import type { WatchStore } from './store';

/**
 * The watchlist in the background: watching and unwatching, the user's refreshes, and the scheduler
 * that refreshes watched links in the background on one `alarms` alarm. All state is in the store
 * (IndexedDB), so a restarted worker or browser carries on where it was; the alarm is set again from
 * the stored due times whenever something changes and when the worker starts.
 * What each refresh answer does to a watch is in ./outcome.ts.
 */

export const WATCH_ALARM = 'watchlist-refresh';

/** The slice of `browser.alarms` the scheduler uses. */
export interface AlarmsLike {
  create(name: string, info: { when: number }): Promise<void> | void;
  clear(name: string): Promise<boolean>;
}

/** Notable changes of one watch, for a notification. */
export interface WatchDigestEntry {
  watch: WatchRecord;
  changes: WatchChange[];
}

export interface WatchlistDeps {
  store: WatchStore;
  service: Pick<SnapshotService, 'peek' | 'refresh' | 'refreshInBackground'>;
  getSettings: () => Promise<WatchSettings>;
  /** The user's request budget per minute (effective settings). */
  getRequestBudget: () => Promise<number>;
  alarms: AlarmsLike;
  /** Shows one digest (at most one per refresh round); entries are already filtered for mutes. */
  notify: (digest: WatchDigestEntry[]) => Promise<void>;
  /** `navigator.onLine`: false means no request is made. */
  isOnline: () => boolean;
  /** Tells open pages the watchlist changed (lib/extension/watchlist-signals.ts). */
  changed?: () => Promise<void>;
  now?: () => number;
  newId?: () => string;
}

export interface TickReport {
  /** Why nothing was fetched, when nothing was. */
  skipped?: 'manual' | 'offline';
  fetched: number;
  /** Due but left for a later tick (budget share used up, or a pause). */
  carried: number;
  notified: number;
}

export interface RefreshAllReport {
  refreshed: number;
  ended: number;
  failed: number;
}

export class WatchNotFoundError extends Error {
  override name = 'WatchNotFoundError';
}

/** The link cannot be watched (ended, not a configured service, not a valid token). */
export class UnwatchableLinkError extends Error {
  override name = 'UnwatchableLinkError';
}

export interface Watchlist {
  list(): Promise<{ records: WatchRecord[]; unreadable: number }>;
  find(request: SnapshotRequest): Promise<WatchRecord | null>;
  /** Records the snapshot already shown (from the cache, no fetch) as the first point. Idempotent. */
  watch(request: SnapshotRequest): Promise<WatchRecord>;
  unwatch(id: string): Promise<boolean>;
  history(id: string): Promise<{ watch: WatchRecord; points: WatchPoint[] }>;
  /** The user's own refresh of one watch (one view). */
  refresh(id: string): Promise<{ watch: WatchRecord; changes: WatchChange[] }>;
  /** The user's "Refresh all now": one view per active watch. */
  refreshAll(): Promise<RefreshAllReport>;
  setMuted(id: string, muted: boolean): Promise<WatchRecord>;
  /** Every watch with its whole history. */
  exportAll(): Promise<{ watch: WatchRecord; points: WatchPoint[] }[]>;
  clear(): Promise<number>;
  /** The cadence setting changed: each active watch is due one new period after its last refresh. */
  cadenceChanged(): Promise<void>;
  /** One scheduler round (the alarm fired). */
  tick(): Promise<TickReport>;
  /** Sets the alarm to the earliest due time (or clears it). */
  reschedule(carryAt?: number): Promise<void>;
}

const byDueTime = (a: WatchRecord, b: WatchRecord) => (a.nextDueAt ?? 0) - (b.nextDueAt ?? 0);

export function createWatchlist(deps: WatchlistDeps): Watchlist {
  const now = deps.now ?? (() => Date.now());
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const { store } = deps;
  let running: Promise<TickReport> | null = null;

  async function mustGet(id: string): Promise<WatchRecord> {
    const record = await store.get(id);
    if (!record) throw new WatchNotFoundError('This company is not in the watchlist (any more).');
    return record;
  }

  const apply = (watch: WatchRecord, outcome: SnapshotResult, source: WatchPointSource, period: number | null) =>
    recordOutcome(store, { watch, outcome, source, period, at: now() });

  /**
   * The alarm goes off at the earliest due time. A watch already overdue is due now, unless a round
   * just carried it over (budget, pause, offline): then it is due at `carryAt`.
   */
  async function reschedule(carryAt?: number): Promise<void> {
    const period = cadencePeriodMs(await deps.getSettings());
    const { records } = await store.list();
    const at = now();
    const due = records.flatMap((record) =>
      record.status === 'active' && record.nextDueAt !== null
        ? [record.nextDueAt > at ? record.nextDueAt : Math.max(carryAt ?? at, at)]
        : [],
    );
    if (period === null || due.length === 0) {
      await deps.alarms.clear(WATCH_ALARM);
      return;
    }
    await deps.alarms.create(WATCH_ALARM, { when: Math.min(...due) });
  }

  /** After a change: the alarm follows the new due times, and open pages read the watchlist again. */
  async function afterChange(carryAt?: number): Promise<void> {
    await reschedule(carryAt);
    await deps.changed?.().catch(() => undefined);
  }

  async function runTick(): Promise<TickReport> {
    const settings = await deps.getSettings();
    const period = cadencePeriodMs(settings);
    if (period === null) {
      await deps.alarms.clear(WATCH_ALARM);
      return { skipped: 'manual', fetched: 0, carried: 0, notified: 0 };
    }
    if (!deps.isOnline()) {
      await reschedule(now() + OFFLINE_RETRY_MS);
      return { skipped: 'offline', fetched: 0, carried: 0, notified: 0 };
    }
    const start = now();
    const { records } = await store.list();
    const due = records
      .filter((record) => record.status === 'active' && record.nextDueAt !== null && record.nextDueAt <= start)
      .sort(byDueTime);
    const { perTick, reserve } = watchBudget(await deps.getRequestBudget());
    const used = new Map<string, number>();
    const digest: WatchDigestEntry[] = [];
    let fetched = 0;
    let carried = 0;
    let carryAt: number | undefined;
    const carry = (at: number) => {
      carried += 1;
      carryAt = Math.min(carryAt ?? at, at);
    };
    for (const watch of due) {
      if ((used.get(watch.origin) ?? 0) >= perTick) {
        carry(start + CARRY_OVER_MS);
        continue;
      }
      const outcome: SnapshotResult | BudgetDeferral = await deps.service.refreshInBackground(
        { origin: watch.origin, token: watch.token },
        { reserve },
      );
      if (outcome.status === 'deferred') {
        // This origin's share is used up for this round.
        used.set(watch.origin, perTick);
        carry(Math.max(outcome.retryAt, start + 1000));
        continue;
      }
      used.set(watch.origin, (used.get(watch.origin) ?? 0) + 1);
      fetched += 1;
      const result = await apply(watch, outcome, 'scheduled', period);
      const notable = result.changes.filter(isNotable);
      if (notable.length > 0 && !result.watch.muted) digest.push({ watch: result.watch, changes: notable });
    }
    const notify = settings.notifications && digest.length > 0;
    if (notify) await deps.notify(digest).catch(() => undefined);
    await (fetched > 0 ? afterChange(carryAt) : reschedule(carryAt));
    return { fetched, carried, notified: notify ? digest.length : 0 };
  }

  async function userRefresh(watch: WatchRecord, period: number | null) {
    return apply(watch, await deps.service.refresh({ origin: watch.origin, token: watch.token }), 'user', period);
  }

  return {
    list: () => store.list(),
    find: (request) => store.findByLink(request.origin, request.token),
    async watch(request) {
      const existing = await store.findByLink(request.origin, request.token);
      if (existing) return existing;
      // The snapshot already shown is in the cache: no fetch, no view. The service re-checks the
      // origin and the token's shape.
      const shown = await deps.service.peek(request);
      if (shown?.status === 'error') throw new UnwatchableLinkError(shown.message);
      const period = cadencePeriodMs(await deps.getSettings());
      const at = now();
      const id = newId();
      const first = shown ? pointFromReady(shown, 'watch') : null;
      const created = await store.create(
        {
          id,
          origin: request.origin,
          token: request.token,
          company: shown?.snapshot.company.name ?? null,
          status: 'active',
          end: null,
          muted: false,
          watchedAt: at,
          lastRefreshAt: first ? first.at : null,
          nextDueAt: period === null ? null : nextDueAt(id, at, period),
          failures: 0,
          lastError: null,
          latest: null,
          previous: null,
          series: [],
          pointCount: 0,
          disclaimer: shown?.snapshot.disclaimer ?? null,
          ...withCopy(shown ? copyFromReady(shown) : undefined),
        },
        first,
      );
      await afterChange();
      return created;
    },
    async unwatch(id) {
      const removed = await store.delete(id);
      await afterChange();
      return removed;
    },
    async history(id) {
      const watch = await mustGet(id);
      return { watch, points: await store.history(id) };
    },
    async refresh(id) {
      const watch = await mustGet(id);
      if (watch.status === 'ended') return { watch, changes: [] };
      const result = await userRefresh(watch, cadencePeriodMs(await deps.getSettings()));
      await afterChange();
      return result;
    },
    async refreshAll() {
      const period = cadencePeriodMs(await deps.getSettings());
      const active = (await store.list()).records.filter((record) => record.status === 'active');
      // All at once: the service queues them on the budget in order and coalesces duplicates.
      const results = await Promise.all(active.map((watch) => userRefresh(watch, period)));
      await afterChange();
      return {
        refreshed: results.filter((result) => result.watch.lastError === null && result.watch.status === 'active').length,
        ended: results.filter((result) => result.watch.status === 'ended').length,
        failed: results.filter((result) => result.watch.lastError !== null).length,
      };
    },
    async setMuted(id, muted) {
      const updated = await store.update(id, (record) => ({ ...record, muted }));
      if (!updated) throw new WatchNotFoundError('This company is not in the watchlist (any more).');
      await deps.changed?.().catch(() => undefined);
      return updated;
    },
    async exportAll() {
      const { records } = await store.list();
      return Promise.all(records.map(async (watch) => ({ watch, points: await store.history(watch.id) })));
    },
    async cadenceChanged() {
      const period = cadencePeriodMs(await deps.getSettings());
      const { records } = await store.list();
      for (const record of records.filter((watch) => watch.status === 'active')) {
        await store.update(record.id, (current) => ({
          ...current,
          nextDueAt: period === null ? null : nextDueAt(current.id, current.lastRefreshAt ?? current.watchedAt, period),
        }));
      }
      await afterChange();
    },
    async clear() {
      const removed = await store.clear();
      await afterChange();
      return removed;
    },
    tick() {
      running ??= runTick().finally(() => {
        running = null;
      });
      return running;
    },
    reschedule,
  };
}
