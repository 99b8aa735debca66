import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordOutcome } from '@/lib/background/watchlist/outcome';
import { openWatchStore, type WatchStore } from '@/lib/background/watchlist/store';
import type { SignatureVerdict } from '@/lib/core/schemas/results';
import { SAVABLE_COPY } from '@/test/fixtures/signing';
import { watchRecordSchema } from '@/lib/core/schemas/watchlist';
import { FIXTURE_NOW } from '@/test/fixtures/snapshot';
import { buildWatch, readyFrom } from '@/test/fixtures/watchlist';

/**
 * A refresh's signature (issue #36): each history point keeps its answer's verdict (never the copy),
 * and the watch keeps the verifiable copy of its last refresh only, so the copy it offers always
 * matches the figures it shows.
 */

let store: WatchStore;
beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  store = await openWatchStore();
});
afterEach(() => store.close());

async function refresh(watchId: string, signature: SignatureVerdict | undefined, at: number) {
  const watch = await store.get(watchId);
  if (!watch) throw new Error('no watch');
  const outcome = { ...readyFrom({ fetchedAt: at }), ...(signature ? { signature } : {}) };
  return (await recordOutcome(store, { watch, outcome, source: 'user', period: null, at })).watch;
}

describe('a refresh’s signature', () => {
  it('each point keeps its verdict without the copy; the watch keeps the last verified refresh’s copy, and drops it when the next is not verified', async () => {
    const created = await store.create(buildWatch(1), null);
    const verified = await refresh(
      created.id,
      { state: 'verified', kid: 'kid-1', signedAt: FIXTURE_NOW, copy: SAVABLE_COPY },
      FIXTURE_NOW,
    );
    expect(verified.copy).toEqual(SAVABLE_COPY);
    expect(verified.latest?.signature).toEqual({ state: 'verified', kid: 'kid-1', signedAt: FIXTURE_NOW });
    expect(watchRecordSchema.parse(verified)).toEqual(verified);

    const invalid = await refresh(
      created.id,
      { state: 'invalid', reason: 'digest-mismatch', message: 'the body is not the one signed' },
      FIXTURE_NOW + 1000,
    );
    expect(invalid.copy).toBeUndefined();
    expect('copy' in invalid).toBe(false);
    expect(invalid.latest?.signature).toMatchObject({ state: 'invalid', reason: 'digest-mismatch' });
    expect(invalid.previous?.signature?.state).toBe('verified');

    // A snapshot cached before signatures were checked: no verdict on its point.
    const unknown = await refresh(created.id, undefined, FIXTURE_NOW + 2000);
    expect(unknown.latest?.signature).toBeUndefined();
    const history = await store.history(created.id);
    expect(history.map((point) => point.signature?.state ?? null)).toEqual(['verified', 'invalid', null]);
    expect(JSON.stringify(history)).not.toContain('body_base64');
  });
});
