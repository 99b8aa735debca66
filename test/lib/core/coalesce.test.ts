import { describe, expect, it } from 'vitest';
import { coalesce } from '@/lib/core/coalesce';

/** A run that waits until the test lets it finish. */
function controlledRun() {
  const finishers: (() => void)[] = [];
  let runs = 0;
  const run = () => {
    runs += 1;
    return new Promise<void>((resolve) => finishers.push(resolve));
  };
  return {
    run,
    get runs() {
      return runs;
    },
    finishNext: async () => {
      finishers.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}

describe('coalesce', () => {
  it('runs at once, and any number of calls during a run cost one more run after it', async () => {
    const control = controlledRun();
    const request = coalesce(control.run);
    const first = request();
    expect(control.runs).toBe(1);
    const during = [request(), request(), request()];
    expect(control.runs).toBe(1);
    await control.finishNext();
    expect(control.runs).toBe(2);
    await control.finishNext();
    await Promise.all([first, ...during]);
    expect(control.runs).toBe(2);
    // Idle again: the next call runs at once.
    void request();
    expect(control.runs).toBe(3);
    await control.finishNext();
  });

  it('a failed run settles its callers and does not stop later runs', async () => {
    let runs = 0;
    const request = coalesce(async () => {
      runs += 1;
      if (runs === 1) throw new Error('tab gone');
    });
    await expect(request()).resolves.toBeUndefined();
    await request();
    expect(runs).toBe(2);
  });
});
