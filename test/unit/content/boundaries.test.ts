import { describe, expect, it } from 'vitest';
import { CARD_MESSAGE_SOURCE, parseCardFrameMessage } from '@/lib/protocol/card-frame';
import { toBadgeResult, toBadgeText, toContentSettings } from '@/lib/content/client';
import { badgeTextFor } from '@/lib/core/i18n/badge';
import { placeCard } from '@/lib/content/position';
import { createCardHandlers } from '@/lib/protocol/card';
import { snapshotResultSchema, toBadgeSummary, type SnapshotResult } from '@/lib/core/schemas/results';
import type { StorageAreaAdapter } from '@/lib/background/snapshot-service/storage-area';
import { buildSnapshot, FIXTURE_TOKEN } from '@/test/fixtures/snapshot';
import { MAX_PEEK_BATCH } from '@/lib/core/limits';

describe('toBadgeResult (content-script check of background answers)', () => {
  it('keeps only score, label and band of a valid ready result', () => {
    const result: SnapshotResult = snapshotResultSchema.parse({
      status: 'ready',
      snapshot: buildSnapshot({ scores: { readiness_score: 76, fundraise_score: 50 } }),
      meta: { token_status: 'active', view_count: 3 },
      fetchedAt: 1,
      fromCache: false,
    });
    // The background reduces the result; the content script checks what arrives.
    const summary = toBadgeSummary(result);
    expect(summary).toEqual({ status: 'ready', score: 76, label: 'Good Standing', band: 'medium' });
    expect(toBadgeResult(summary)).toEqual(summary);
  });

  it('passes error codes and times through', () => {
    expect(toBadgeResult({ status: 'error', code: 'EXPIRED', message: 'x', expiredAt: '2026-11-20T10:00:00.000Z' })).toEqual({
      status: 'error',
      code: 'EXPIRED',
      retryAt: undefined,
      expiredAt: '2026-11-20T10:00:00.000Z',
    });
  });

  it.each([
    ['not an object', 'ready'],
    ['null', null],
    ['unknown status', { status: 'weird' }],
    ['score out of range', { status: 'ready', score: 101, label: 'Critical', band: 'high' }],
    ['unknown label', { status: 'ready', score: 10, label: 'Great', band: 'high' }],
    ['unknown band', { status: 'ready', score: 10, label: 'Critical', band: 'huge' }],
    ['a full snapshot instead of a summary', { status: 'ready', snapshot: { scores: { readiness_score: 10, readiness_label: 'Critical', fundraise_risk_band: 'high' } } }],
    ['missing code', { status: 'error' }],
    ['bad retryAt', { status: 'error', code: 'RATE_LIMITED', retryAt: 'soon' }],
  ])('turns a malformed answer (%s) into INVALID_RESPONSE', (_name, value) => {
    expect(toBadgeResult(value)).toEqual({ status: 'error', code: 'INVALID_RESPONSE' });
  });

  it('reads the settings it needs and drops malformed services', () => {
    const settings = toContentSettings({
      hoverDelayMs: 400,
      services: [
        { id: 'a', name: 'A', origin: 'https://a.example', apiPathTemplate: '/api/{token}', sharePathTemplates: ['/s/{token}'] },
        { id: 'b', origin: 42 },
      ],
    });
    expect(settings.services.map((service) => service.id)).toEqual(['a']);
    expect(() => toContentSettings({ services: 'x' })).toThrow();
  });

  it('takes the badge strings the background sends, keeping only strings and a locale Intl accepts', () => {
    const sent = badgeTextFor('fr', 'fr-SN');
    expect(toBadgeText(sent)).toEqual({ locale: 'fr-SN', strings: sent.strings });
    const odd = toBadgeText({ locale: 'not a locale!', strings: { 'badge.brand': 'CL', 'badge.hint': 42, long: 'x'.repeat(5000) } });
    expect(odd).toEqual({ locale: 'en', strings: { 'badge.brand': 'CL' } });
    expect(() => toBadgeText({ strings: {} })).toThrow();
    expect(() => toBadgeText(null)).toThrow();
  });
});

describe('card frame messages', () => {
  it('accepts size and close messages of the card page only in their exact shapes', () => {
    expect(parseCardFrameMessage({ source: CARD_MESSAGE_SOURCE, kind: 'size', width: 360, height: 420 })).toEqual({
      source: CARD_MESSAGE_SOURCE,
      kind: 'size',
      width: 360,
      height: 420,
    });
    expect(parseCardFrameMessage({ source: CARD_MESSAGE_SOURCE, kind: 'close', reason: 'escape' })?.kind).toBe('close');
    expect(parseCardFrameMessage({ source: CARD_MESSAGE_SOURCE, kind: 'size', width: 5000, height: 10 })).toBeNull();
    expect(parseCardFrameMessage({ source: 'someone-else', kind: 'close', reason: 'escape' })).toBeNull();
    expect(parseCardFrameMessage({ source: CARD_MESSAGE_SOURCE, kind: 'close', reason: 'navigate' })).toBeNull();
    expect(parseCardFrameMessage('close')).toBeNull();
  });
});

describe('placeCard', () => {
  const viewport = { width: 1280, height: 800 };
  const size = { width: 360, height: 480 };

  it('goes below the badge, left-aligned, when there is room', () => {
    expect(placeCard({ left: 100, top: 100, right: 140, bottom: 116 }, size, viewport)).toEqual({
      left: 100,
      top: 122,
      height: 480,
      side: 'below',
    });
  });

  it('flips above near the bottom and shifts left near the right edge', () => {
    const placement = placeCard({ left: 1200, top: 700, right: 1240, bottom: 716 }, size, viewport);
    expect(placement.side).toBe('above');
    expect(placement.top).toBe(700 - 6 - 480);
    expect(placement.left).toBe(1240 - 360);
  });

  it('never leaves the viewport, shrinking the height if it must', () => {
    const small = { width: 400, height: 300 };
    const placement = placeCard({ left: 10, top: 140, right: 50, bottom: 156 }, size, small);
    expect(placement.left).toBeGreaterThanOrEqual(8);
    expect(placement.left + 360).toBeLessThanOrEqual(400 - 8 + 1);
    expect(placement.top).toBeGreaterThanOrEqual(8);
    expect(placement.top + placement.height).toBeLessThanOrEqual(300 - 8);
  });
});

describe('card binding in the background', () => {
  function memoryArea(): StorageAreaAdapter & { data: Record<string, unknown> } {
    const data: Record<string, unknown> = {};
    return {
      data,
      async get(keys) {
        return Object.fromEntries(keys.filter((key) => key in data).map((key) => [key, data[key]]));
      },
      async set(items) {
        Object.assign(data, items);
      },
      async remove(keys) {
        for (const key of keys) delete data[key];
      },
    };
  }
  const extensionOrigin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
  const contentScript = (tabId: number) => ({ tab: { id: tabId }, frameId: 0, url: 'https://mail.google.com/mail/u/0/' });
  const cardPage = (tabId: number) => ({ tab: { id: tabId }, frameId: 7, url: `${extensionOrigin}/card.html` });
  const request = { origin: 'https://comply.example', token: FIXTURE_TOKEN };

  it('answers the card page with the link its own tab opened, and nothing for other tabs', async () => {
    const handlers = createCardHandlers({ area: memoryArea(), extensionOrigin, peek: async () => null });
    await handlers.openCard(request, contentScript(5));
    expect(await handlers.getCardForTab(undefined, cardPage(5))).toEqual(request);
    expect(await handlers.getCardForTab(undefined, cardPage(6))).toBeNull();
    await handlers.closeCard(undefined, contentScript(5));
    expect(await handlers.getCardForTab(undefined, cardPage(5))).toBeNull();
  });

  it('refuses openCard from extension pages and getCardForTab from content scripts', async () => {
    const handlers = createCardHandlers({ area: memoryArea(), extensionOrigin, peek: async () => null });
    await expect(handlers.openCard(request, cardPage(5))).rejects.toThrow(/content-script/);
    await expect(handlers.getCardForTab(undefined, contentScript(5))).rejects.toThrow(/extension-page/);
  });

  it('rejects malformed requests and tokens of the wrong shape', async () => {
    const handlers = createCardHandlers({ area: memoryArea(), extensionOrigin, peek: async () => null });
    await expect(handlers.openCard({ origin: 'https://comply.example' }, contentScript(5))).rejects.toThrow(/Malformed/);
    await expect(handlers.openCard({ ...request, token: '../../etc' }, contentScript(5))).rejects.toThrow(/token/);
  });

  it('peeks at many links in one message, answering null for ones the service refuses', async () => {
    const seen: string[] = [];
    const handlers = createCardHandlers({
      area: memoryArea(),
      extensionOrigin,
      peek: async (r) => {
        seen.push(r.token);
        if (r.origin !== request.origin) throw new Error('not configured');
        return null;
      },
    });
    const answers = await handlers.peekBadges([request, { origin: 'https://evil.example', token: FIXTURE_TOKEN }], contentScript(5));
    expect(answers).toEqual([null, null]);
    expect(seen).toHaveLength(2);
    await expect(handlers.peekBadges(Array.from({ length: MAX_PEEK_BATCH + 1 }, () => request), contentScript(5))).rejects.toThrow(/Malformed/);
  });

  it('content scripts get badge summaries; full cached snapshots only go to extension pages', async () => {
    const cached: SnapshotResult = snapshotResultSchema.parse({
      status: 'ready',
      snapshot: buildSnapshot({ scores: { readiness_score: 95, fundraise_score: 90 } }),
      meta: { token_status: 'active', view_count: 3 },
      fetchedAt: 1,
      fromCache: true,
    });
    const handlers = createCardHandlers({ area: memoryArea(), extensionOrigin, peek: async () => cached });
    expect(await handlers.peekBadges([request], contentScript(5))).toEqual([
      { status: 'ready', score: 95, label: 'Regulator Ready', band: 'investor_ready' },
    ]);
    await expect(handlers.peekSnapshots([request], contentScript(5))).rejects.toThrow(/extension page/);
    expect(await handlers.peekSnapshots([request], { url: `${extensionOrigin}/popup.html` })).toEqual([cached]);
  });

  it('forgets stale bindings', async () => {
    let now = 0;
    const handlers = createCardHandlers({ area: memoryArea(), extensionOrigin, peek: async () => null, maxAgeMs: 1000, now: () => now });
    await handlers.openCard(request, contentScript(5));
    now = 2000;
    expect(await handlers.getCardForTab(undefined, cardPage(5))).toBeNull();
  });
});
