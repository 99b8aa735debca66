import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createManagedPolicyReader } from '@/lib/extension/settings';

const policy = (minutes: number) => ({ cacheTtlMinutes: minutes });

/** A managed-storage read that answers only when told to (the first read can take seconds). */
function slowRead() {
  const pending: ((value: unknown) => void)[] = [];
  let calls = 0;
  return {
    read: () => {
      calls += 1;
      return new Promise<unknown>((resolve) => pending.push(resolve));
    },
    answer: (value: unknown) => pending.shift()?.(value),
    calls: () => calls,
  };
}

beforeEach(() => {
  fakeBrowser.reset();
});

describe('managed policy reader', () => {
  it('reads the policy once per worker and keeps a session copy', async () => {
    const source = slowRead();
    const reader = createManagedPolicyReader(source.read);
    const first = reader.get();
    const second = reader.get();
    source.answer(policy(90));
    expect(await first).toEqual({ cacheTtlMinutes: 90 });
    expect(await second).toEqual({ cacheTtlMinutes: 90 });
    expect(source.calls()).toBe(1);
    expect(await fakeBrowser.storage.session.get('managedPolicyCache')).toEqual({ managedPolicyCache: { cacheTtlMinutes: 90 } });
  });

  it('a restarted worker answers from the session copy without waiting for the slow read, then uses the fresh one', async () => {
    const before = slowRead();
    const firstWorker = createManagedPolicyReader(before.read);
    const warm = firstWorker.get();
    before.answer(policy(90));
    await warm;

    const after = slowRead();
    const restarted = createManagedPolicyReader(after.read);
    expect(await restarted.get()).toEqual({ cacheTtlMinutes: 90 });
    expect(after.calls()).toBe(1);

    after.answer(policy(120));
    await expect.poll(() => restarted.get()).toEqual({ cacheTtlMinutes: 120 });
  });

  it('reload reads the changed policy at once; a broken policy value is ignored, not fatal', async () => {
    const source = slowRead();
    const reader = createManagedPolicyReader(source.read);
    const first = reader.get();
    source.answer(policy(90));
    await first;
    const reloaded = reader.reload();
    source.answer({ cacheTtlMinutes: 'soon', hoverDelayMs: 500 });
    expect(await reloaded).toEqual({ hoverDelayMs: 500 });
    expect(await reader.get()).toEqual({ hoverDelayMs: 500 });
  });

  describe('provisional answers for content scripts (the first read of a browser session is slow)', () => {
    it('while the first read is pending: the last policy seen in an earlier session, unsettled; then the read, settled', async () => {
      await fakeBrowser.storage.local.set({ lastManagedPolicy: policy(90) });
      const source = slowRead();
      const reader = createManagedPolicyReader(source.read);
      expect(await reader.provisional()).toEqual({ policy: { cacheTtlMinutes: 90 }, settled: false });
      // `get()` still waits for the real read; the snapshot service's `standIn()` does not (below).
      let gated = false;
      const gate = reader.get().then(() => (gated = true));
      await Promise.resolve();
      expect(gated).toBe(false);
      source.answer(policy(120));
      await gate;
      expect(await reader.provisional()).toEqual({ policy: { cacheTtlMinutes: 120 }, settled: true });
    });

    it('with no policy ever seen: no policy, unsettled', async () => {
      const reader = createManagedPolicyReader(slowRead().read);
      expect(await reader.provisional()).toEqual({ policy: {}, settled: false });
    });

    it('a restarted worker with the session copy answers settled at once', async () => {
      await fakeBrowser.storage.session.set({ managedPolicyCache: policy(60) });
      const reader = createManagedPolicyReader(slowRead().read);
      expect(await reader.provisional()).toEqual({ policy: { cacheTtlMinutes: 60 }, settled: true });
    });

    it('the last-policy copy is rewritten only when a read differs (content scripts look again on that change)', async () => {
      await fakeBrowser.storage.local.set({ lastManagedPolicy: policy(90) });
      const changes: unknown[] = [];
      fakeBrowser.storage.local.onChanged.addListener((change) => {
        if ('lastManagedPolicy' in change) changes.push(change.lastManagedPolicy?.newValue);
      });
      const source = slowRead();
      const reader = createManagedPolicyReader(source.read);
      const same = reader.get();
      source.answer(policy(90));
      await same;
      expect(changes).toEqual([]);
      const changed = reader.reload();
      source.answer(policy(180));
      await changed;
      await expect.poll(() => changes).toEqual([{ cacheTtlMinutes: 180 }]);
      expect(await fakeBrowser.storage.local.get('lastManagedPolicy')).toEqual({ lastManagedPolicy: { cacheTtlMinutes: 180 } });
    });
  });
});

describe('the policy the snapshot service fetches with (issue #33 item 10)', () => {
  it('while the first read of a session is pending: the last session’s, at once; then the read', async () => {
    await fakeBrowser.storage.local.set({ lastManagedPolicy: policy(90) });
    const source = slowRead();
    const reader = createManagedPolicyReader(source.read);
    expect(await reader.standIn()).toEqual({ cacheTtlMinutes: 90 });
    source.answer(policy(120));
    await reader.get();
    expect(await reader.standIn()).toEqual({ cacheTtlMinutes: 120 });
  });

  it('with no policy ever read: the read’s, not none (it waits for it)', async () => {
    const source = slowRead();
    const reader = createManagedPolicyReader(source.read);
    const standIn = reader.standIn();
    await vi.waitFor(() => expect(source.calls()).toBe(1));
    source.answer(policy(45));
    expect(await standIn).toEqual({ cacheTtlMinutes: 45 });
  });
});
