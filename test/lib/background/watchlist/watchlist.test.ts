import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { UnwatchableLinkError } from '@/lib/background/watchlist/watchlist';
import { MAX_DISCLAIMER_LENGTH } from '@/lib/core/limits';
import { jitterMs, OFFLINE_RETRY_MS } from '@/lib/core/watchlist/schedule';
import { FIXTURE_NOW } from '@/test/fixtures/snapshot';
import { fireAlarm, link, openAndWatch, watchlistHarness, type WatchlistHarness } from './helpers';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let h: WatchlistHarness;
beforeEach(async () => {
  fakeBrowser.reset();
  h = await watchlistHarness();
});
afterEach(() => h.store.close());

describe('watching', () => {
  it('records the snapshot already shown as the first point, with no fetch; watching again changes nothing', async () => {
    await h.service.getSnapshot(link(1));
    expect(h.fetch).toHaveBeenCalledTimes(1);
    const watch = await h.watchlist.watch(link(1));
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(watch.latest).toMatchObject({ source: 'watch', readinessScore: 68, at: FIXTURE_NOW });
    // The fake service does not sign: said on the point, and there is no copy to save.
    expect(watch.latest?.signature).toEqual({ state: 'unsigned' });
    expect(watch.copy).toBeUndefined();
    expect(watch.company).toBe('Kobo Ledger Ltd');
    expect(watch.disclaimer).toContain('due diligence');
    expect(await h.watchlist.watch(link(1))).toEqual(watch);
    expect((await h.watchlist.list()).records).toHaveLength(1);
    expect(await h.watchlist.find(link(1))).toEqual(watch);
  });

  it('a snapshot with the longest disclaimer allowed can be watched, its disclaimer whole; a longer one is not a snapshot', async () => {
    h.answers.set(link(3).token, { disclaimer: 'd'.repeat(MAX_DISCLAIMER_LENGTH) });
    await h.service.getSnapshot(link(3));
    expect((await h.watchlist.watch(link(3))).disclaimer).toHaveLength(MAX_DISCLAIMER_LENGTH);
    h.answers.set(link(4).token, { disclaimer: 'd'.repeat(MAX_DISCLAIMER_LENGTH + 1) });
    expect(await h.service.getSnapshot(link(4))).toMatchObject({ status: 'error', code: 'INVALID_RESPONSE' });
    await expect(h.watchlist.watch(link(4))).resolves.toMatchObject({ company: null });
  });

  it('a link not in the cache is watched without figures, still without a fetch', async () => {
    const watch = await h.watchlist.watch(link(2));
    expect(h.fetch).not.toHaveBeenCalled();
    expect(watch.latest).toBeNull();
    expect(watch.company).toBeNull();
  });

  it('refuses a link that has ended, an unconfigured origin and a malformed token, with their reason', async () => {
    h.answers.set(link(3).token, { status: 404 });
    await h.service.getSnapshot(link(3));
    await expect(h.watchlist.watch(link(3))).rejects.toBeInstanceOf(UnwatchableLinkError);
    await expect(h.watchlist.watch({ origin: 'https://evil.example', token: link(4).token })).rejects.toThrow(/not a configured/);
    await expect(h.watchlist.watch({ origin: link(4).origin, token: '../x' })).rejects.toThrow(/valid share token/);
    expect((await h.watchlist.list()).records).toEqual([]);
  });
});

describe('cadence and the alarm', () => {
  it('daily: the alarm is set one day (plus the watch’s place in the day) after watching; each round fetches once, then exactly one day later', async () => {
    const watch = await openAndWatch(h, 1);
    const due = FIXTURE_NOW + DAY + jitterMs(watch.id, DAY);
    expect(watch.nextDueAt).toBe(due);
    expect(await h.alarmAt()).toBe(due);

    // Firing early (the browser may) fetches nothing.
    expect(await h.watchlist.tick()).toMatchObject({ fetched: 0 });
    expect(h.fetchesOf(1)).toBe(1);

    h.answers.set(link(1).token, { readiness: 74 });
    expect(await fireAlarm(h)).toMatchObject({ fetched: 1 });
    expect(h.fetchesOf(1)).toBe(2);
    const after = await h.store.get(watch.id);
    expect(after?.latest).toMatchObject({ readinessScore: 74, source: 'scheduled' });
    expect(after?.previous?.readinessScore).toBe(68);
    expect(after?.nextDueAt).toBe(due + DAY);
    expect(await h.alarmAt()).toBe(after?.nextDueAt);
  });

  it('weekly: one fetch a week', async () => {
    h.settings.cadence = 'weekly';
    await openAndWatch(h, 1);
    for (let i = 0; i < 3; i++) await fireAlarm(h);
    expect(h.fetchesOf(1)).toBe(4);
    expect(h.clock.time - FIXTURE_NOW).toBeGreaterThanOrEqual(3 * 7 * DAY);
  });

  it('manual only: no alarm, and a tick fetches nothing', async () => {
    h.settings.cadence = 'manual';
    const watch = await openAndWatch(h, 1);
    expect(watch.nextDueAt).toBeNull();
    expect(await h.alarmAt()).toBeUndefined();
    await h.clock.advance(30 * DAY);
    expect(await h.watchlist.tick()).toMatchObject({ skipped: 'manual', fetched: 0 });
    expect(h.fetchesOf(1)).toBe(1);
  });

  it('links watched in the same minute are refreshed spread over the next day, not in one burst', async () => {
    const watches = [];
    for (let i = 0; i < 12; i++) watches.push(await h.watchlist.watch(link(i)));
    const minutes = new Set(watches.map((watch) => Math.floor((watch.nextDueAt ?? 0) / MINUTE)));
    expect(minutes.size).toBeGreaterThanOrEqual(10);
    // The alarm wakes for the earliest; each round takes only those due.
    const first = await fireAlarm(h);
    expect(first?.fetched).toBeLessThan(12);
  });

  it('survives a worker restart: a new worker sets the alarm again from the stored due times', async () => {
    const watch = await openAndWatch(h, 1);
    await fakeBrowser.alarms.clearAll();
    const restarted = h.restart();
    await restarted.reschedule();
    expect(await h.alarmAt()).toBe(watch.nextDueAt);
  });
});

describe('back-off and pauses', () => {
  it('network failures back off (5 min, 15 min, 45 min) without ending the watch; a success resets them', async () => {
    const watch = await openAndWatch(h, 1);
    h.answers.set(link(1).token, { throws: true });
    await fireAlarm(h);
    let record = await h.store.get(watch.id);
    expect(record).toMatchObject({ status: 'active', failures: 1, lastError: { code: 'NETWORK' } });
    expect(record?.nextDueAt).toBe(h.clock.time + 5 * MINUTE);
    await fireAlarm(h);
    expect((await h.store.get(watch.id))?.nextDueAt).toBe(h.clock.time + 15 * MINUTE);
    await fireAlarm(h);
    expect((await h.store.get(watch.id))?.nextDueAt).toBe(h.clock.time + 45 * MINUTE);

    h.answers.set(link(1).token, { readiness: 70 });
    await fireAlarm(h);
    record = await h.store.get(watch.id);
    expect(record).toMatchObject({ failures: 0, lastError: null, status: 'active' });
    expect(record?.latest?.readinessScore).toBe(70);
  });

  it('a 500 is a transient failure too', async () => {
    const watch = await openAndWatch(h, 1);
    h.answers.set(link(1).token, { status: 500 });
    await fireAlarm(h);
    expect(await h.store.get(watch.id)).toMatchObject({ status: 'active', failures: 1 });
  });

  it('429 honours the service’s pause (Retry-After), is not counted as a failure, and pauses the other watches too', async () => {
    const a = await openAndWatch(h, 1);
    const b = await openAndWatch(h, 2);
    h.answers.set(link(1).token, { status: 429, retryAfter: '600' });
    h.answers.set(link(2).token, { status: 429, retryAfter: '600' });
    await h.clock.advance(DAY + 3 * HOUR);
    await h.watchlist.tick();
    const pauseEnd = h.clock.time + 600 * SECOND;
    // The first 429 pauses the origin: the other due watch is not even tried.
    expect(h.fetchesOf(1) + h.fetchesOf(2)).toBe(3);
    const records = await Promise.all([h.store.get(a.id), h.store.get(b.id)]);
    expect(records.every((record) => record?.failures === 0 && record.status === 'active')).toBe(true);
    expect(await h.alarmAt()).toBe(pauseEnd);
  });

  it('offline: no request at all, another look in 5 minutes', async () => {
    await openAndWatch(h, 1);
    h.online.value = false;
    await h.clock.advance(2 * DAY);
    expect(await h.watchlist.tick()).toMatchObject({ skipped: 'offline', fetched: 0 });
    expect(h.fetchesOf(1)).toBe(1);
    expect(await h.alarmAt()).toBe(h.clock.time + OFFLINE_RETRY_MS);
    h.online.value = true;
    expect(await fireAlarm(h)).toMatchObject({ fetched: 1 });
  });
});

describe('budget shared with hovers', () => {
  it('a round uses at most a quarter of the per-minute budget and carries the rest over a minute later; hovers still go at once', async () => {
    h.budget.perMinute = 8; // 2 per round, 4 kept for hovers
    const fresh = await watchlistHarness({ perMinute: 8 });
    h.store.close();
    h = fresh;
    for (let i = 0; i < 6; i++) await openAndWatch(h, i);
    await h.clock.advance(2 * DAY + 1);
    const report = await h.watchlist.tick();
    expect(report).toMatchObject({ fetched: 2, carried: 4 });
    expect(await h.alarmAt()).toBe(h.clock.time + MINUTE);
    // Hovers right after the round are not kept waiting.
    await Promise.all([100, 101, 102, 103].map((i) => h.service.getSnapshot(link(i))));
    expect(h.clock.waiting).toBe(0);
    // The carried watches are refreshed in the next rounds.
    await fireAlarm(h);
    await fireAlarm(h);
    expect([0, 1, 2, 3, 4, 5].map((i) => h.fetchesOf(i))).toEqual([2, 2, 2, 2, 2, 2]);
  });
});

describe('terminal states', () => {
  it.each([
    [404, 'NOT_FOUND'],
    [410, 'EXPIRED'],
  ] as const)('%s ends the watch for good: recorded, never fetched again', async (status, code) => {
    const watch = await openAndWatch(h, 1);
    h.answers.set(link(1).token, { status });
    await fireAlarm(h);
    const ended = await h.store.get(watch.id);
    expect(ended).toMatchObject({ status: 'ended', end: { code, at: h.clock.time }, nextDueAt: null });
    if (code === 'EXPIRED') expect(ended?.end?.expiredAt).toBe(watch.latest?.expiresAt);
    expect(await h.alarmAt()).toBeUndefined();
    await h.clock.advance(10 * DAY);
    await h.watchlist.tick();
    await h.watchlist.refreshAll();
    expect(h.fetchesOf(1)).toBe(2);
    expect(h.notified.flat()[0]?.changes).toEqual([{ kind: 'ended', code }]);
  });
});

describe('notifications', () => {
  it('one digest per round with the notable changes of the watches not muted', async () => {
    const a = await openAndWatch(h, 1);
    await openAndWatch(h, 2);
    const c = await openAndWatch(h, 3);
    await h.watchlist.setMuted(c.id, true);
    h.answers.set(link(1).token, { readiness: 80 }); // +12, label In Progress → Good Standing
    h.answers.set(link(2).token, { readiness: 70 }); // +2: not notable
    h.answers.set(link(3).token, { readiness: 30 }); // muted
    await h.clock.advance(DAY + 3 * HOUR);
    await h.watchlist.tick();
    expect(h.notified).toHaveLength(1);
    expect(h.notified[0]?.map((entry) => entry.watch.id)).toEqual([a.id]);
    expect(h.notified[0]?.[0]?.changes.map((change) => change.kind)).toEqual(['label', 'readiness']);
  });

  it('none when switched off globally, or when nothing notable changed', async () => {
    await openAndWatch(h, 1);
    await fireAlarm(h);
    expect(h.notified).toEqual([]);
    h.settings.notifications = false;
    h.answers.set(link(1).token, { readiness: 90, fundraise: 90 });
    await fireAlarm(h);
    expect(h.notified).toEqual([]);
  });
});

describe('the user’s own refreshes', () => {
  it('refresh one: one fetch, the change returned, and the schedule starts again from it', async () => {
    const watch = await openAndWatch(h, 1);
    await h.clock.advance(12 * HOUR);
    h.answers.set(link(1).token, { readiness: 62 });
    const { watch: after, changes } = await h.watchlist.refresh(watch.id);
    expect(changes).toEqual([{ kind: 'readiness', from: 68, to: 62, delta: -6 }]);
    expect(after.latest?.source).toBe('user');
    expect(after.nextDueAt).toBe(h.clock.time + DAY);
    expect(h.notified).toEqual([]);
  });

  it('refresh all: one fetch per active watch, ended ones skipped', async () => {
    for (const i of [1, 2, 3]) await openAndWatch(h, i);
    h.answers.set(link(3).token, { status: 404 });
    expect(await h.watchlist.refreshAll()).toEqual({ refreshed: 2, ended: 1, failed: 0 });
    expect(await h.watchlist.refreshAll()).toEqual({ refreshed: 2, ended: 0, failed: 0 });
    expect([1, 2, 3].map((i) => h.fetchesOf(i))).toEqual([3, 3, 2]);
  });

  it('unwatch and clear delete the history and the alarm', async () => {
    const a = await openAndWatch(h, 1);
    await openAndWatch(h, 2);
    expect(await h.watchlist.unwatch(a.id)).toBe(true);
    expect(await h.store.history(a.id)).toEqual([]);
    expect(await h.watchlist.clear()).toBe(1);
    expect(await h.alarmAt()).toBeUndefined();
    await expect(h.watchlist.refresh(a.id)).rejects.toThrow(/not in the watchlist/);
  });
});
