import fc from 'fast-check';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { toHostedCard } from '@/lib/content/top-frame/card-host';
import { toBadgeResult, toContentSettings, toHostedCardEvent } from '@/lib/content/annotator/client';
import { HOSTED_CARD_EVENTS, MAX_CARD_COORDINATE, MAX_FRAME_HOPS } from '@/lib/core/limits';
import { contentPushProtocol } from '@/lib/protocol/content';
import { parseCardFrameMessage } from '@/lib/protocol/card-frame';
import { READINESS_LABELS, RISK_BANDS } from '@/lib/core/labels';
import { SNAPSHOT_ERROR_CODES, badgeSummarySchema } from '@/lib/core/schemas/results';
import { FIXTURE_NOW } from '@/test/fixtures/snapshot';

/**
 * The content script's hand-written guards (lib/content/guards.ts, used by `toBadgeResult`) stand in
 * for zod, which does not fit the 15 KB budget (docs/security.md). Properties: they never throw, and
 * for the fields they keep they reject exactly what lib's zod schemas reject; what they accept is what
 * zod would have produced.
 */

/** What zod (`badgeSummarySchema`, what the background sends a content script) makes of a value. */
const INVALID = { state: 'error', code: 'INVALID_RESPONSE' };

function zodView(value: unknown) {
  const parsed = badgeSummarySchema.safeParse(value);
  if (!parsed.success) return INVALID;
  if (parsed.data.state === 'ready') return parsed.data;
  const { code, retryAt, expiredAt } = parsed.data;
  return { state: 'error', code, retryAt, expiredAt };
}

const readyResult = fc.record({
  state: fc.constant('ready'),
  score: fc.integer({ min: 0, max: 100 }),
  label: fc.constantFrom(...READINESS_LABELS),
  band: fc.constantFrom(...RISK_BANDS),
});
const errorResult = fc.record(
  {
    state: fc.constant('error'),
    code: fc.constantFrom(...SNAPSHOT_ERROR_CODES),
    retryAt: fc.integer({ min: 0, max: FIXTURE_NOW * 2 }),
    expiredAt: fc.integer({ min: 0, max: FIXTURE_NOW * 2 }).map((ms) => new Date(ms).toISOString()),
  },
  { requiredKeys: ['state', 'code'] },
);

const hostile = fc.oneof(
  fc.constantFrom<unknown>(
    -1,
    101,
    50.5,
    '50',
    NaN,
    Infinity,
    null,
    undefined,
    true,
    '',
    'critical',
    'HIGH',
    'Regulator Ready',
    'investor_ready',
    'NOT_FOUND',
    'FOO',
    'x'.repeat(65),
    -5,
    1.5,
    1e20,
    '2026-06-18',
    'yesterday',
    '2026-06-18T10:00:00Z',
    '2026-06-18T10:00:00.000+01:00',
    {},
    [],
    [1],
    { __proto__: { state: 'ready' } },
    Object.create(null),
  ),
  fc.anything({ maxDepth: 2 }),
);

/** Replaces one kept (or structural) field with a hostile value, or deletes it. */
function mutate(
  value: Record<string, unknown>,
  path: readonly string[],
  replacement: unknown,
  remove: boolean,
): Record<string, unknown> {
  const copy = structuredClone(value);
  let node: unknown = copy;
  for (const key of path.slice(0, -1))
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  const last = path.at(-1);
  if (typeof node === 'object' && node !== null && last !== undefined) {
    if (remove) delete (node as Record<string, unknown>)[last];
    else (node as Record<string, unknown>)[last] = replacement;
  }
  return copy;
}

const READY_PATHS = [['state'], ['score'], ['label'], ['band']] as const;
const ERROR_PATHS = [['state'], ['code'], ['retryAt'], ['expiredAt']] as const;

const candidate = fc.oneof(
  readyResult,
  errorResult,
  fc.tuple(readyResult, fc.constantFrom(...READY_PATHS), hostile, fc.boolean()).map(([v, p, h, r]) => mutate(v, p, h, r)),
  fc.tuple(errorResult, fc.constantFrom(...ERROR_PATHS), hostile, fc.boolean()).map(([v, p, h, r]) => mutate(v, p, h, r)),
  hostile,
);

describe('content-script guards agree with zod (properties)', () => {
  it('toBadgeResult never throws and accepts exactly what zod accepts of a badge summary', () => {
    fc.assert(
      fc.property(candidate, (value) => {
        let badge: unknown;
        expect(() => {
          badge = toBadgeResult(value);
        }).not.toThrow();
        expect(badge).toEqual(zodView(value));
      }),
      { numRuns: 5_000 },
    );
  });

  it('valid labels and bands from lib are all accepted (no drift between the guard tables and zod enums)', () => {
    for (const label of READINESS_LABELS) {
      for (const band of RISK_BANDS) {
        const value = { state: 'ready', score: 50, label, band };
        expect(toBadgeResult(value)).toEqual({ state: 'ready', score: 50, label, band });
      }
    }
  });

  it('the settings and card-frame message parsers never throw on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 3 }), (value) => {
        expect(() => parseCardFrameMessage(value)).not.toThrow();
        try {
          const settings = toContentSettings(value);
          expect(settings.hoverDelayMs).toBeGreaterThanOrEqual(100);
          expect(settings.hoverDelayMs).toBeLessThanOrEqual(5000);
        } catch (error) {
          // The one documented failure: an unexpected shape is an Error, never a TypeError.
          expect(error).toBeInstanceOf(Error);
          expect((error as Error).message).toBe('getPageSettings: unexpected answer');
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

const hex32 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 });
const coordinate = fc.double({ min: -MAX_CARD_COORDINATE, max: MAX_CARD_COORDINATE, noNaN: true });
const length = fc.double({ min: 0, max: MAX_CARD_COORDINATE, noNaN: true });
const hostedCard = fc.record({
  nonce: hex32,
  key: hex32,
  hops: fc.integer({ min: 0, max: MAX_FRAME_HOPS }),
  rect: fc.record({ left: coordinate, top: coordinate, right: coordinate, bottom: coordinate }),
  viewport: fc.record({ width: length, height: length }),
  focus: fc.boolean(),
});
const HOSTED_CARD_PATHS = [
  ['nonce'],
  ['key'],
  ['hops'],
  ['rect'],
  ['rect', 'left'],
  ['rect', 'bottom'],
  ['viewport'],
  ['viewport', 'width'],
  ['viewport', 'height'],
  ['focus'],
] as const;
const hostedCardEvent = fc.record({ nonce: hex32, event: fc.constantFrom(...HOSTED_CARD_EVENTS) });
const HOSTED_CARD_EVENT_PATHS = [['nonce'], ['event']] as const;
const outOfRange = fc.constantFrom<unknown>(-1, MAX_FRAME_HOPS + 1, MAX_CARD_COORDINATE * 2, -MAX_CARD_COORDINATE * 2, 'open');

/**
 * Holds `guard` to `schema`: on valid values, on valid values with one field made hostile or out of
 * range (or removed), and on hostile values, it answers what zod parses, or null where zod refuses.
 */
function expectAgreement<Value extends Record<string, unknown>>(
  guard: (value: unknown) => unknown,
  schema: z.ZodType,
  valid: fc.Arbitrary<Value>,
  paths: readonly (readonly string[])[],
  numRuns: number,
): void {
  fc.assert(
    fc.property(
      fc.oneof(
        valid,
        fc
          .tuple(valid, fc.constantFrom(...paths), fc.oneof(hostile, outOfRange), fc.boolean())
          .map(([v, p, h, r]) => mutate(v, p, h, r)),
        hostile,
      ),
      (value) => {
        const parsed = schema.safeParse(value);
        expect(guard(value)).toEqual(parsed.success ? parsed.data : null);
      },
    ),
    { numRuns },
  );
}

describe('the guards of the card the top frame draws for a subframe agree with zod (properties)', () => {
  it('toHostedCard (the top frame reads showHostedCard) accepts exactly what the protocol schema accepts', () => {
    expectAgreement(toHostedCard, contentPushProtocol.showHostedCard.input, hostedCard, HOSTED_CARD_PATHS, 5_000);
  });

  it('toHostedCardEvent (the frame reads cardEvent) accepts exactly what the protocol schema accepts', () => {
    expectAgreement(toHostedCardEvent, contentPushProtocol.cardEvent.input, hostedCardEvent, HOSTED_CARD_EVENT_PATHS, 3_000);
  });
});
