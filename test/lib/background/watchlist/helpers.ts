import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { type vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { openWatchStore, type WatchStore } from '@/lib/background/watchlist/store';
import { createWatchlist, WATCH_ALARM, type WatchDigestEntry, type Watchlist } from '@/lib/background/watchlist/watchlist';
import type { FetchLike } from '@/lib/background/snapshot-service';
import { DEFAULT_WATCH_SETTINGS, type WatchSettings } from '@/lib/core/watchlist/schedule';
import { buildErrorEnvelope, FIXTURE_NOW, fixtureToken } from '@/test/fixtures/snapshot';
import { createHarness, jsonResponse, ManualClock, okResponse, ORIGIN } from '../snapshot-service/helpers';

/** What the fake server answers for each token: a snapshot with these scores, or an error status. */
export type Answer =
  | { readiness?: number; fundraise?: number; viewCount?: number; gaps?: 'default' | 'none'; disclaimer?: string }
  | { status: 404 | 410 | 500 }
  | { status: 429; retryAfter: string }
  | { throws: true };

export const link = (i: number) => ({ origin: ORIGIN, token: fixtureToken(i) });

export interface WatchlistHarness {
  watchlist: Watchlist;
  store: WatchStore;
  clock: ManualClock;
  fetch: ReturnType<typeof vi.fn<FetchLike>>;
  answers: Map<string, Answer>;
  settings: WatchSettings;
  budget: { perMinute: number };
  online: { value: boolean };
  notified: WatchDigestEntry[][];
  service: ReturnType<typeof createHarness>['service'];
  /** Fetches made for one link. */
  fetchesOf(i: number): number;
  /** When the watchlist's alarm is set for (undefined: no alarm). */
  alarmAt(): Promise<number | undefined>;
  /** A new watchlist over the same store, service storage and clock: a restarted worker. */
  restart(): Watchlist;
}

let ids = 0;

/** The real watchlist over fake-indexeddb, the real snapshot service over a fake fetch, fake alarms. */
export async function watchlistHarness(options: { settings?: Partial<WatchSettings>; perMinute?: number } = {}) {
  globalThis.indexedDB = new IDBFactory();
  const answers = new Map<string, Answer>();
  const respond: FetchLike = async (url) => {
    const token = url.split('/').pop() ?? '';
    const answer = answers.get(token) ?? {};
    if ('throws' in answer) throw new TypeError('Failed to fetch');
    if ('status' in answer) {
      const code =
        answer.status === 404 ? 'NOT_FOUND' : answer.status === 410 ? 'EXPIRED' : answer.status === 429 ? 'RATE_LIMITED' : 'X';
      return jsonResponse(buildErrorEnvelope(code), {
        status: answer.status,
        headers: answer.status === 429 ? { 'retry-after': answer.retryAfter } : {},
      });
    }
    return okResponse({
      now: clock.time,
      token,
      scores: { readiness_score: answer.readiness ?? 68, fundraise_score: answer.fundraise ?? 57 },
      meta: { view_count: answer.viewCount ?? 1 },
      // The pack of the link's creation: it does not move from one refresh to the next.
      verification: { pack_generated_at: new Date(FIXTURE_NOW - 24 * 3600_000).toISOString() },
      ...(answer.gaps === 'none' ? { top_gaps: [] } : {}),
      ...(answer.disclaimer ? { disclaimer: answer.disclaimer } : {}),
    });
  };
  const budget = { perMinute: options.perMinute ?? 30 };
  const clock = new ManualClock();
  const snapshot = createHarness(respond, { clock, settings: { requestBudgetPerMinute: budget.perMinute } });
  const settings: WatchSettings = { ...DEFAULT_WATCH_SETTINGS, ...options.settings };
  const online = { value: true };
  const notified: WatchDigestEntry[][] = [];
  const store = await openWatchStore();
  const build = () =>
    createWatchlist({
      store,
      service: snapshot.service,
      getSettings: async () => settings,
      getRequestBudget: async () => budget.perMinute,
      alarms: fakeBrowser.alarms,
      notify: async (digest) => {
        notified.push(digest);
      },
      isOnline: () => online.value,
      now: clock.now,
      newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    });
  const harness: WatchlistHarness = {
    watchlist: build(),
    store,
    clock,
    fetch: snapshot.fetch,
    answers,
    settings,
    budget,
    online,
    notified,
    service: snapshot.service,
    fetchesOf: (i) => snapshot.fetch.mock.calls.filter(([url]) => url.endsWith(fixtureToken(i))).length,
    alarmAt: async () => (await fakeBrowser.alarms.get(WATCH_ALARM))?.scheduledTime,
    restart: build,
  };
  return harness;
}

/** Opens a link the way a hover does (one fetch into the cache), then watches it. */
export async function openAndWatch(harness: WatchlistHarness, i: number) {
  await harness.service.getSnapshot(link(i));
  return harness.watchlist.watch(link(i));
}

/** Moves the clock to the alarm and fires it; returns the tick's report (null: no alarm set). */
export async function fireAlarm(harness: WatchlistHarness) {
  const at = await harness.alarmAt();
  if (at === undefined) return null;
  if (at > harness.clock.time) await harness.clock.advance(at - harness.clock.time);
  return harness.watchlist.tick();
}
