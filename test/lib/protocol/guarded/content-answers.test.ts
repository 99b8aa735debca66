import { MAX_BADGE_STYLE } from '@/lib/core/limits';
import fc from 'fast-check';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { contentProtocol, contentPushProtocol } from '@/lib/protocol/content';
import { CARD_EVENTS, MAX_CARD_COORDINATE, MAX_FRAME_HOPS } from '@/lib/protocol/guarded/card';
import { CARD_ANCHOR_SOURCE, parseCardAnchor } from '@/lib/protocol/guarded/card-anchor';
import { CARD_MESSAGE_SOURCE, parseCardFrameMessage } from '@/lib/protocol/guarded/card-frame';
import {
  INVALID_BADGE,
  toBadgeChange,
  toBadgeFace,
  toBadgeText,
  toCardEvent,
  toCloseCard,
  toContentSettings,
  toMoveCard,
  toOpenCardAnswer,
  toShowCard,
} from '@/lib/protocol/guarded/content-answers';
import { FRAME_LINKS_SIGNAL, isFrameLinksSignal } from '@/lib/protocol/guarded/frame-signals';
import { cardAnchorMessageSchema, cardFrameMessageSchema, frameLinksSignalSchema } from '@/lib/protocol/guarded-schemas';
import { MAX_BADGE_FACE_TEXT } from '@/lib/core/limits';
import { TONES } from '@/lib/core/palette';
import { SNAPSHOT_ERROR_CODES, badgeFaceSchema } from '@/lib/core/schemas/results';
import { FIXTURE_NOW } from '@/test/fixtures/snapshot';

/**
 * The hand-written guards of lib/protocol/guarded stand in for zod where zod does not fit (the content
 * script's 15 KB budget, docs/security.md). Properties: they never throw, and for the fields they keep
 * they reject exactly what the zod schemas reject; what they accept is what zod would have produced.
 */

/** What zod (`badgeFaceSchema`, what the background sends a content script) makes of a value. */
function zodView(value: unknown) {
  const parsed = badgeFaceSchema.safeParse(value);
  return parsed.success ? parsed.data : INVALID_BADGE;
}

const look = {
  text: fc.string({ maxLength: MAX_BADGE_FACE_TEXT }),
  tone: fc.constantFrom(...TONES),
  dashed: fc.boolean(),
  mark: fc.boolean(),
  label: fc.string({ maxLength: 200 }),
};
const readyResult = fc.record({ state: fc.constant('ready'), ...look });
const errorResult = fc.record(
  {
    state: fc.constant('error'),
    code: fc.constantFrom(...SNAPSHOT_ERROR_CODES),
    retryAt: fc.integer({ min: 0, max: FIXTURE_NOW * 2 }),
    withdrawn: fc.constant(true),
    ...look,
  },
  { requiredKeys: ['state', 'code', 'text', 'tone', 'dashed', 'mark', 'label'] },
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

const LOOK_PATHS = [['text'], ['tone'], ['dashed'], ['mark'], ['label']] as const;
const READY_PATHS = [['state'], ...LOOK_PATHS] as const;
const ERROR_PATHS = [['state'], ['code'], ['retryAt'], ['withdrawn'], ...LOOK_PATHS] as const;

const candidate = fc.oneof(
  readyResult,
  errorResult,
  fc.tuple(readyResult, fc.constantFrom(...READY_PATHS), hostile, fc.boolean()).map(([v, p, h, r]) => mutate(v, p, h, r)),
  fc.tuple(errorResult, fc.constantFrom(...ERROR_PATHS), hostile, fc.boolean()).map(([v, p, h, r]) => mutate(v, p, h, r)),
  hostile,
);

describe('content-script guards agree with zod (properties)', () => {
  it('toBadgeFace never throws and accepts exactly what zod accepts of a badge face', () => {
    fc.assert(
      fc.property(candidate, (value) => {
        let badge: unknown;
        expect(() => {
          badge = toBadgeFace(value);
        }).not.toThrow();
        expect(badge).toEqual(zodView(value));
      }),
      { numRuns: 5_000 },
    );
  });

  it('every tone and error code from lib is accepted (no drift between the guard tables and zod enums)', () => {
    for (const tone of TONES) {
      for (const code of SNAPSHOT_ERROR_CODES) {
        const value = { state: 'error', code, text: '!', tone, dashed: false, mark: true, label: 'x' };
        expect(toBadgeFace(value)).toEqual(value);
      }
    }
  });

  it('the settings and badge-text guards never throw, and keep only what the schemas allow', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 3 }), (value) => {
        const settings = toContentSettings(value);
        if (settings) {
          expect(settings.hoverDelayMs).toBeGreaterThanOrEqual(300);
          expect(settings.hoverDelayMs).toBeLessThanOrEqual(1500);
        }
        const text = toBadgeText(value);
        if (text) expect(Object.values(text.strings).every((string) => typeof string === 'string')).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('the settings guard drops malformed services; the badge-text guard drops what is not a string', () => {
    const settings = toContentSettings({
      hoverDelayMs: 400,
      services: [
        { id: 'a', name: 'A', origin: 'https://a.example', apiPathTemplate: '/api/{token}', sharePathTemplates: ['/s/{token}'] },
        { id: 'b', origin: 42 },
      ],
    });
    expect(settings?.services.map((service) => service.id)).toEqual(['a']);
    expect(toContentSettings({ services: 'x' })).toBeNull();
    expect(
      toBadgeText({ locale: 'fr', strings: { 'badge.brand': 'CL', 'badge.hint': 42, long: 'x'.repeat(5000) }, style: '.b{}' }),
    ).toEqual({
      locale: 'fr',
      strings: { 'badge.brand': 'CL' },
      style: '.b{}',
    });
    expect(toBadgeText({ strings: {} })).toBeNull();
    // The stylesheet is required, and bounded like the schema bounds it.
    expect(toBadgeText({ locale: 'fr', strings: {} })).toBeNull();
    expect(toBadgeText({ locale: 'fr', strings: {}, style: 'x'.repeat(MAX_BADGE_STYLE + 1) })).toBeNull();
    const textSchema = contentProtocol.getPageSettings.output.shape.text;
    expect(textSchema.safeParse({ locale: 'fr', strings: {}, style: 'x'.repeat(MAX_BADGE_STYLE + 1) }).success).toBe(false);
    expect(textSchema.safeParse({ strings: {} }).success).toBe(false);
  });

  it("openCard's answer: a card not drawn unless it says so, and nothing else kept (badges hear badgeChanged)", () => {
    expect(toOpenCardAnswer({ shown: true })).toEqual({ shown: true });
    expect(toOpenCardAnswer({ shown: true, badge: { text: '<img src=x onerror=alert(1)>' } })).toEqual({ shown: true });
    expect(toOpenCardAnswer({ shown: 'yes' })).toEqual({ shown: false });
    expect(toOpenCardAnswer('nonsense')).toEqual({ shown: false });
  });
});

const hex32 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 });
const coordinate = fc.double({ min: -MAX_CARD_COORDINATE, max: MAX_CARD_COORDINATE, noNaN: true });
const length = fc.double({ min: 0, max: MAX_CARD_COORDINATE, noNaN: true });
/** A card to draw: a subframe's with the key it posted, the top frame's own without. */
const hostedCard = fc.record(
  {
    nonce: hex32,
    key: hex32,
    hops: fc.integer({ min: 0, max: MAX_FRAME_HOPS }),
    rect: fc.record({ left: coordinate, top: coordinate, right: coordinate, bottom: coordinate }),
    viewport: fc.record({ width: length, height: length }),
    at: fc.record({ x: coordinate, y: coordinate }),
    focus: fc.boolean(),
  },
  { requiredKeys: ['nonce', 'hops', 'rect', 'viewport', 'at', 'focus'] },
);
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
  ['at'],
  ['at', 'x'],
  ['at', 'y'],
  ['focus'],
] as const;
const cardEvent = fc.record({ nonce: hex32, event: fc.constantFrom(...CARD_EVENTS) });
const CARD_EVENT_PATHS = [['nonce'], ['event']] as const;
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

describe('the guards of the card messages agree with zod (properties)', () => {
  it('toShowCard (the top frame reads showCard) accepts exactly what the protocol schema accepts', () => {
    expectAgreement(toShowCard, contentPushProtocol.showCard.input, hostedCard, HOSTED_CARD_PATHS, 5_000);
  });

  it('toCardEvent (the frame reads cardEvent) accepts exactly what the protocol schema accepts', () => {
    expectAgreement(toCardEvent, contentPushProtocol.cardEvent.input, cardEvent, CARD_EVENT_PATHS, 3_000);
  });

  it('toMoveCard (the top frame reads moveCard) accepts exactly what the protocol schema accepts', () => {
    const move = fc.record({ nonce: hex32, rect: hostedCard.map((card) => card.rect) });
    expectAgreement(toMoveCard, contentPushProtocol.moveCard.input, move, [['nonce'], ['rect'], ['rect', 'top']], 3_000);
  });

  it('toBadgeChange (every frame showing the link reads badgeChanged) keys the link as lib/core/links does; its face is read as toBadgeFace reads one', () => {
    const change = fc.record({ origin: fc.string({ minLength: 1 }), token: fc.string({ minLength: 1 }), badge: candidate });
    fc.assert(
      fc.property(fc.oneof(change, hostile, fc.record({ origin: hostile, token: fc.string(), badge: candidate })), (value) => {
        let read: unknown;
        expect(() => {
          read = toBadgeChange(value);
        }).not.toThrow();
        const origin: unknown = typeof value === 'object' && value !== null && 'origin' in value ? value.origin : undefined;
        const token: unknown = typeof value === 'object' && value !== null && 'token' in value ? value.token : undefined;
        if (typeof origin !== 'string' || typeof token !== 'string') {
          expect(read).toBeNull();
          return;
        }
        expect(read).toEqual({
          key: `${origin}|${token}`,
          badge: zodView(typeof value === 'object' && value !== null && 'badge' in value ? value.badge : undefined),
        });
        // What the background sends is read whole: a face zod accepts is the face shown.
        const parsed = contentPushProtocol.badgeChanged.input.safeParse(value);
        if (parsed.success) expect(read).toEqual({ key: `${parsed.data.origin}|${parsed.data.token}`, badge: parsed.data.badge });
      }),
      { numRuns: 3_000 },
    );
  });

  it('toCloseCard (any frame reads closeCard) accepts exactly what the protocol schema accepts', () => {
    const close = fc.record({ nonce: hex32 });
    const zodNonce = (value: unknown) => {
      const parsed = contentPushProtocol.closeCard.input.safeParse(value);
      return parsed.success ? parsed.data : null;
    };
    fc.assert(
      fc.property(fc.oneof(close, hostile, fc.record({ nonce: fc.oneof(hostile, fc.string()) })), (value) => {
        expect(toCloseCard(value)).toEqual(zodNonce(value)?.nonce ?? null);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('the guards of what is posted between windows agree with zod (properties)', () => {
  it('parseCardFrameMessage (the card page posts to its framing document) accepts exactly the schema', () => {
    const message = fc.oneof(
      fc.record({
        source: fc.constant(CARD_MESSAGE_SOURCE),
        kind: fc.constant('size'),
        width: fc.double({ min: -10, max: 2000, noNaN: true }),
        height: fc.double({ min: -10, max: 2000, noNaN: true }),
      }),
      fc.record({
        source: fc.constant(CARD_MESSAGE_SOURCE),
        kind: fc.constant('close'),
        reason: fc.constantFrom('escape', 'button', 'navigate'),
      }),
      fc.record({
        source: fc.constant(CARD_MESSAGE_SOURCE),
        kind: fc.constant('hover'),
        inside: fc.oneof(fc.boolean(), hostile),
      }),
    );
    const paths = [['source'], ['kind'], ['width'], ['height'], ['reason'], ['inside']] as const;
    fc.assert(
      fc.property(
        fc.oneof(
          message,
          fc.tuple(message, fc.constantFrom(...paths), hostile, fc.boolean()).map(([v, p, h, r]) => mutate(v, p, h, r)),
          hostile,
        ),
        (value) => {
          const parsed = cardFrameMessageSchema.safeParse(value);
          const expected = parsed.success ? (({ source: _source, ...event }) => event)(parsed.data) : null;
          expect(parseCardFrameMessage(value)).toEqual(expected);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('parseCardAnchor (a subframe posts its anchor key to the top window) accepts exactly the schema', () => {
    const anchor = fc.record({ source: fc.constant(CARD_ANCHOR_SOURCE), key: fc.oneof(hex32, fc.string()) });
    fc.assert(
      fc.property(
        fc.oneof(
          anchor,
          fc.tuple(anchor, fc.constantFrom(['source'], ['key']), hostile, fc.boolean()).map(([v, p, h, r]) => mutate(v, p, h, r)),
          hostile,
        ),
        (value) => {
          const parsed = cardAnchorMessageSchema.safeParse(value);
          expect(parseCardAnchor(value)).toEqual(parsed.success ? parsed.data.key : null);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('isFrameLinksSignal (a sentinel posts to the windows above it) accepts exactly the schema', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constant(FRAME_LINKS_SIGNAL), fc.constant(`${FRAME_LINKS_SIGNAL} `), hostile, fc.string()),
        (value) => {
          expect(isFrameLinksSignal(value)).toBe(frameLinksSignalSchema.safeParse(value).success);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
