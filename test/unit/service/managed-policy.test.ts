import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createManagedPolicyReader } from '@/lib/settings';

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
});
