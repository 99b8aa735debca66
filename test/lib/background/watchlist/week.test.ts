import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSnapshotService } from '@/lib/background/snapshot-service';
import { openWatchStore } from '@/lib/background/watchlist/store';
import { createWatchlist, WATCH_ALARM } from '@/lib/background/watchlist/watchlist';
import { API_PATH_TEMPLATE, SHARE_PATH_TEMPLATE } from '@/lib/core/services';
import { DEFAULT_WATCH_SETTINGS, type WatchCadence } from '@/lib/core/watchlist/schedule';
import { manualClock } from '@/server/platform/clock';
import { openTestDatabase, type TestDatabase } from '@/test/server/support/db';
import { BASE, founderWithLink, makeApp, START, type Founder, type TestApp } from '@/test/server/support/harness';
import { ManualClock } from '../snapshot-service/helpers';

/**
 * "No fetch happens for a link the user has not chosen to watch; a watched link is never fetched more
 * often than its cadence plus the user's own refreshes." The real watchlist scheduler (alarms from
 * WXT's fake browser, fired at the times it sets them), the real snapshot service, and the real
 * bundled server app in-process on its own clock, moved together through a simulated week. Views are
 * counted by the server and read through the founder API, as a founder would see them.
 */

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});
beforeEach(() => {
  fakeBrowser.reset();
  globalThis.indexedDB = new IDBFactory();
});

const linksSchema = z.object({ data: z.object({ share_links: z.array(z.object({ id: z.string(), view_count: z.int() })) }) });

async function views(founder: Founder, linkId: string): Promise<number> {
  const body = linksSchema.parse(await (await founder.call('GET', '/api/founder/share-links')).json());
  return body.data.share_links.find((link) => link.id === linkId)?.view_count ?? -1;
}

async function simulate(cadence: WatchCadence, userRefreshAt: number | null) {
  const serverClock = manualClock(START);
  const t: TestApp = makeApp(database.db, { clock: serverClock });
  const clock = new ManualClock(Date.parse(START));
  const advanceTo = async (time: number) => {
    if (time <= clock.time) return;
    serverClock.advance(time - clock.time);
    await clock.advance(time - clock.time);
  };
  const watched = await founderWithLink(t, { name: 'Kobo Ledger Ltd' });
  const opened = await founderWithLink(t, { name: 'Abuja Remit Ltd' });

  const fetchedAt: number[] = [];
  const service = createSnapshotService({
    fetch: (url, init) => {
      if (url.endsWith(watched.link.token)) fetchedAt.push(clock.time);
      return Promise.resolve(t.app.request(url, init, { incoming: { socket: { remoteAddress: '10.77.0.1' } } }));
    },
    getSettings: async () => ({
      services: [
        { id: 'lens', name: 'Lens', origin: BASE, apiPathTemplate: API_PATH_TEMPLATE, sharePathTemplates: [SHARE_PATH_TEMPLATE] },
      ],
      cacheTtlMinutes: 60,
      requestBudgetPerMinute: 30,
      persistCache: false,
    }),
    hasHostPermission: async () => true,
    sessionArea: fakeBrowser.storage.session,
    localArea: fakeBrowser.storage.local,
    now: clock.now,
    sleep: clock.sleep,
  });
  const store = await openWatchStore();
  const watchlist = createWatchlist({
    store,
    service,
    getSettings: async () => ({ ...DEFAULT_WATCH_SETTINGS, cadence }),
    getRequestBudget: async () => 30,
    alarms: fakeBrowser.alarms,
    notify: async () => undefined,
    isOnline: () => true,
    now: clock.now,
  });

  // The user opens both links (a hover each: one view each), then watches one of them.
  const a = { origin: BASE, token: watched.link.token };
  const b = { origin: BASE, token: opened.link.token };
  await service.getSnapshot(a);
  await service.getSnapshot(b);
  const watch = await watchlist.watch(a);
  expect(await views(watched.founder, watched.link.id)).toBe(1);

  // A week and two days: the alarm is fired whenever it is set for; the user refreshes once.
  const start = clock.time;
  let userRefreshed = false;
  for (let rounds = 0; rounds < 1000; rounds++) {
    const alarm = await fakeBrowser.alarms.get(WATCH_ALARM);
    const next = Math.min(
      alarm?.scheduledTime ?? Infinity,
      userRefreshAt !== null && !userRefreshed ? start + userRefreshAt : Infinity,
    );
    if (next > start + WEEK + 2 * DAY) break;
    await advanceTo(next);
    if (userRefreshAt !== null && !userRefreshed && clock.time >= start + userRefreshAt) {
      userRefreshed = true;
      await watchlist.refresh(watch.id);
    } else {
      await watchlist.tick();
    }
  }
  const weekViews = fetchedAt.filter((at) => at < start + WEEK).length;
  const final = await store.get(watch.id);
  store.close();
  return {
    weekViews,
    fetchedAt,
    start,
    viewsWatched: await views(watched.founder, watched.link.id),
    viewsOpened: await views(opened.founder, opened.link.id),
    final,
  };
}

describe('a simulated week against the bundled server', () => {
  it('daily: the link not watched is never fetched again; the watched one about once a day, never sooner, then it ends at expiry', async () => {
    const run = await simulate('daily', null);
    expect(run.viewsOpened).toBe(1);
    // Opened once, then one refresh a day: six within the week (each a day plus its jitter after the last).
    expect(run.weekViews).toBe(1 + 6);
    for (let i = 1; i < run.fetchedAt.length; i++) expect(run.fetchedAt[i]! - run.fetchedAt[i - 1]!).toBeGreaterThanOrEqual(DAY);
    // The link lives 7 days: the refresh after that is a 410 (no view) and ends the watch; nothing after.
    expect(run.final).toMatchObject({ status: 'ended', end: { code: 'EXPIRED' } });
    expect(run.viewsWatched).toBe(1 + run.fetchedAt.length - 2);
  });

  it('daily with one refresh of the user’s own: exactly one more view, and the schedule does not add any', async () => {
    const run = await simulate('daily', 3.5 * DAY);
    expect(run.viewsOpened).toBe(1);
    const scheduledOrUser = run.fetchedAt.slice(1).filter((at) => at < run.start + WEEK);
    // At most one a day by schedule, plus the user's one; refreshes stay a day apart except around the user's.
    expect(scheduledOrUser.length).toBeLessThanOrEqual(7 + 1);
    const gaps = scheduledOrUser.map((at, i) => at - (i === 0 ? run.start : scheduledOrUser[i - 1]!));
    expect(gaps.filter((gap) => gap < DAY)).toHaveLength(1);
  });

  it('weekly: no refresh within the week (the first is due after it, when the link has expired)', async () => {
    const run = await simulate('weekly', null);
    expect(run.weekViews).toBe(1);
    expect(run.viewsWatched).toBe(1);
    expect(run.viewsOpened).toBe(1);
  });

  it('manual only: nothing but the user’s own refresh', async () => {
    const run = await simulate('manual', 2 * DAY);
    expect(run.viewsWatched).toBe(2);
    expect(run.viewsOpened).toBe(1);
  });
});
