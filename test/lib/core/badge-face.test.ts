import { describe, expect, expectTypeOf, it } from 'vitest';
import { badgeFace, type FaceSource } from '@/lib/core/badge-face';
import { badgeLook } from '@/lib/core/badge-look';
import { snapshotResultSchema, toBadgeSummary, type BadgeSummary } from '@/lib/core/schemas/results';
import { buildSnapshot } from '@/test/fixtures/snapshot';
import { INVALID_BADGE } from '@/lib/protocol/guarded/content-answers';
import { EN_TEXT, FR_TEXT } from '../content/annotator/badge-text';

const NOW = Date.parse('2026-11-22T08:00:00.000Z');

describe('badge faces: what each state shows and says (the background words them)', () => {
  // [state, what the background knows, what the chip shows, its tone, dashed, its accessible name]
  const cases: [string, BadgeSummary, string, string, boolean, RegExp][] = [
    [
      "ready: the readiness score with its scale, in the label's tone",
      { state: 'ready', score: 76, label: 'Good Standing', band: 'medium' },
      '76/100',
      'blue',
      false,
      /readiness 76\/100, Good Standing; medium fundraising risk/,
    ],
    [
      'ready, but its signature fails: a mark, not the figures, and why in its name',
      { state: 'ready', score: 99, label: 'Regulator Ready', band: 'investor_ready', signatureFails: true },
      '!',
      'orange',
      false,
      /signature does not match the service’s key, so it may not be what the service sent/,
    ],
    ['not found', { state: 'error', code: 'NOT_FOUND' }, '?', 'neutral', true, /does not know this share link/],
    ['withdrawn', { state: 'error', code: 'NOT_FOUND', withdrawn: true }, '⊘', 'red', false, /founder has revoked/],
    [
      'expired with date',
      { state: 'error', code: 'EXPIRED', expiredAt: '2026-11-20T10:00:00.000Z' },
      '◷',
      'neutral',
      false,
      /expired on 20 November 2026/,
    ],
    ['expired without date', { state: 'error', code: 'EXPIRED' }, '◷', 'neutral', false, /this share link expired\./],
    ['rate limited', { state: 'error', code: 'RATE_LIMITED', retryAt: NOW + 90_000 }, '!', 'amber', false, /try again after \d/],
    ['rate limited, no time', { state: 'error', code: 'RATE_LIMITED' }, '!', 'amber', false, /try again shortly/],
    ['network', { state: 'error', code: 'NETWORK' }, '!', 'amber', false, /could not be reached/],
    ['timeout', { state: 'error', code: 'TIMEOUT' }, '!', 'amber', false, /did not answer in time/],
    ['invalid response', { state: 'error', code: 'INVALID_RESPONSE' }, '!', 'orange', false, /could not be verified/],
    ['not enabled', { state: 'error', code: 'FORBIDDEN_ORIGIN' }, '–', 'neutral', true, /not enabled/],
  ];

  it.each(cases)('%s', (_name, summary, text, tone, dashed, label) => {
    const face = badgeFace(summary, EN_TEXT);
    expect(face).toMatchObject({ state: summary.state, text, tone, dashed });
    expect(face.label).toMatch(label);
    if (summary.state === 'error') expect(face).toMatchObject({ code: summary.code });
  });

  it('a fetched answer carries its signature to its badge: one that fails shows no figures, the others show them', () => {
    const answer = (signature: unknown) =>
      snapshotResultSchema.parse({
        status: 'ready',
        snapshot: buildSnapshot(),
        meta: { token_status: 'active', view_count: 1 },
        fetchedAt: NOW,
        fromCache: false,
        signature,
      });
    const failing = toBadgeSummary(answer({ state: 'invalid', reason: 'bad-signature', message: 'does not verify' }));
    expect(failing).toMatchObject({ state: 'ready', signatureFails: true });
    expect(badgeFace(failing, EN_TEXT)).toMatchObject({ state: 'ready', text: '!', mark: true });
    expect(badgeFace(failing, FR_TEXT).label).toMatch(/signature ne correspond pas/);
    for (const signature of [{ state: 'unsigned' }, { state: 'unchecked', message: 'keys out of reach' }, undefined]) {
      const summary = toBadgeSummary(answer(signature));
      expect(summary).not.toHaveProperty('signatureFails');
      expect(badgeFace(summary, EN_TEXT).text).toMatch(/^\d+\/100$/);
    }
  });

  it('withdrawn, expired, not found and the unloaded chip look different from each other', () => {
    const looks = [
      badgeFace({ state: 'error', code: 'NOT_FOUND', withdrawn: true }, EN_TEXT),
      badgeFace({ state: 'error', code: 'EXPIRED' }, EN_TEXT),
      badgeFace({ state: 'error', code: 'NOT_FOUND' }, EN_TEXT),
      badgeLook({ state: 'idle' }),
    ].map(({ text, tone, dashed }) => `${text}|${tone}|${dashed}`);
    expect(new Set(looks).size).toBe(4);
  });

  it('keeps the state the page hooks carry: the code, withdrawn, and when a pause ends', () => {
    expect(badgeFace({ state: 'error', code: 'NOT_FOUND', withdrawn: true }, EN_TEXT)).toMatchObject({ withdrawn: true });
    expect(badgeFace({ state: 'error', code: 'NOT_FOUND' }, EN_TEXT)).not.toHaveProperty('withdrawn');
    expect(badgeFace({ state: 'error', code: 'RATE_LIMITED', retryAt: NOW }, EN_TEXT)).toMatchObject({ retryAt: NOW });
  });

  it('speaks French to a French reader: words and dates', () => {
    const ready = badgeFace({ state: 'ready', score: 76, label: 'Good Standing', band: 'investor_ready' }, FR_TEXT);
    expect(ready.text).toBe('76/100');
    expect(ready.label).toMatch(/préparation 76\/100, En règle/);
    expect(badgeFace({ state: 'error', code: 'EXPIRED', expiredAt: '2026-11-20T10:00:00.000Z' }, FR_TEXT).label).toMatch(
      /20 novembre 2026/,
    );
    for (const summary of [
      { state: 'error', code: 'NOT_FOUND' },
      { state: 'error', code: 'NETWORK' },
    ] as const) {
      expect(badgeFace(summary, FR_TEXT).label).not.toBe(badgeFace(summary, EN_TEXT).label);
    }
  });

  it('colours ready badges by readiness label, as the card and /share do', () => {
    const tone = (label: 'Critical' | 'In Progress' | 'Good Standing' | 'Regulator Ready') =>
      badgeFace({ state: 'ready', score: 50, label, band: 'high' }, EN_TEXT).tone;
    expect([tone('Critical'), tone('In Progress'), tone('Good Standing'), tone('Regulator Ready')]).toEqual([
      'red',
      'amber',
      'blue',
      'green',
    ]);
  });

  it("a malformed answer's face (the content script's own) looks like INVALID_RESPONSE's", () => {
    const { text, tone, dashed, mark } = badgeLook({ state: 'error', code: 'INVALID_RESPONSE' });
    expect(INVALID_BADGE).toMatchObject({ text, tone, dashed, mark, code: 'INVALID_RESPONSE' });
  });
});

describe('what a face is worded from', () => {
  it('is exactly the BadgeSummary the background holds (restated zod-free in lib/core; checked by tsc)', () => {
    expectTypeOf<FaceSource>().toEqualTypeOf<BadgeSummary>();
  });
});
