import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARIP_STAGE_CODES, GAP_SEVERITIES, PRODUCT_CLASSIFICATION_CODES } from '@/lib/core/labels';
import { snapshotResponseSchema, snapshotSuccessEnvelopeSchema } from '@/lib/core/schemas/snapshot';
import { fetchSnapshot, type HttpOptions } from '@/lib/background/snapshot-service/http';
import { snapshotResultSchema } from '@/lib/core/schemas/results';
import { FIXTURE_NOW, buildSuccessEnvelope } from '@/test/fixtures/snapshot';

/**
 * The response validator under hostile input (issue 6): lib's `snapshotSuccessEnvelopeSchema` and the
 * snapshot service's parse path (`fetchSnapshot`, lib/background/snapshot-service/http.ts) accept every valid
 * envelope, reject every mutation that breaks the schema, and never throw on arbitrary bodies.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// ---- valid envelopes ----

const iso = fc
  .integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2100-01-01T00:00:00Z') })
  .map((ms) => new Date(ms).toISOString());
const score = fc.integer({ min: 0, max: 100 });
const gap = fc.record({
  title: fc.string({ minLength: 1, maxLength: 40 }),
  severity: fc.constantFrom(...GAP_SEVERITIES),
  regulatory_basis: fc.string({ maxLength: 80 }),
});

const validEnvelope = fc
  .record({
    readiness: score,
    fundraise: score,
    complete: fc.integer({ min: 0, max: 500 }),
    extra: fc.integer({ min: 0, max: 500 }),
    gaps: fc.array(gap, { maxLength: 3 }),
    product: fc.option(fc.constantFrom(...PRODUCT_CLASSIFICATION_CODES), { nil: null }),
    arip: fc.option(fc.constantFrom(...ARIP_STAGE_CODES), { nil: null }),
    regulator: fc.option(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,12}$/), { nil: null }),
    secondary: fc.array(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,12}$/), { maxLength: 4 }),
    packAt: fc.option(iso, { nil: null }),
    hash: fc.option(fc.stringMatching(/^[0-9a-f]{8,12}$/), { nil: null }),
    name: fc.string({ minLength: 1, maxLength: 60 }),
    disclaimer: fc.string({ minLength: 1, maxLength: 200 }),
    views: fc.nat(),
    now: fc.integer({ min: FIXTURE_NOW - 365 * 86_400_000, max: FIXTURE_NOW + 365 * 86_400_000 }),
    unknownKey: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
  })
  .map((r) => {
    const envelope = buildSuccessEnvelope({
      now: r.now,
      company: { name: r.name },
      scores: {
        readiness_score: r.readiness,
        fundraise_score: r.fundraise,
        checklist_complete: r.complete,
        checklist_total: r.complete + r.extra,
      },
      licensing: {
        product_classification: r.product,
        product_classification_label: r.product === null ? null : `label ${r.product}`,
        primary_regulator: r.regulator,
        secondary_regulators: r.secondary,
        arip_stage: r.arip,
        arip_stage_label: r.arip === null ? null : `label ${r.arip}`,
      },
      verification: { pack_generated_at: r.packAt, pack_verification_hash: r.hash },
      top_gaps: r.gaps,
      disclaimer: r.disclaimer,
      meta: { view_count: r.views },
    });
    // A newer server may add fields: unknown keys are tolerated (and stripped).
    const json = JSON.parse(JSON.stringify(envelope)) as Json;
    if (r.unknownKey !== undefined && isObject(json)) json.future_field = r.unknownKey as Json;
    return json;
  });

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- breaking mutations: every one of them makes the envelope invalid ----

const BAD_TIMESTAMPS: Json[] = [
  '',
  'yesterday',
  '2026-06-18',
  '2026-06-18T10:00:00',
  '2026-13-01T00:00:00.000Z',
  '2026-06-31T00:00:00Z',
  '18/06/2026 10:00',
  1781776800000,
  null,
  {},
];
const BAD_SCORES: Json[] = [-1, 101, 50.5, '50', null, true, 1e9];
const BAD_STRING: Json[] = [null, 5, true, {}, []];
const BAD_NONEMPTY: Json[] = ['', null, 5, []];
const BAD_URL: Json[] = ['not a url', '', 5, null];

/** Required path → values that schema must refuse there. Deleting any of these paths breaks it too. */
const FIELDS: readonly { path: readonly (string | number)[]; bad: Json[] }[] = [
  { path: ['success'], bad: [false, 'true', 1, null] },
  { path: ['data'], bad: [null, [], 'snapshot', 1] },
  { path: ['meta'], bad: [null, [], 'meta'] },
  { path: ['meta', 'token_status'], bad: BAD_STRING },
  { path: ['meta', 'view_count'], bad: [-1, 1.5, '3', null] },
  { path: ['data', 'api_version'], bad: BAD_NONEMPTY },
  { path: ['data', 'company'], bad: [null, 'x', []] },
  { path: ['data', 'company', 'name'], bad: BAD_NONEMPTY },
  { path: ['data', 'scores'], bad: [null, [], 'scores'] },
  { path: ['data', 'scores', 'readiness_score'], bad: BAD_SCORES },
  { path: ['data', 'scores', 'readiness_label'], bad: ['Excellent', 'critical', 'REGULATOR READY', null, 3] },
  { path: ['data', 'scores', 'fundraise_score'], bad: BAD_SCORES },
  { path: ['data', 'scores', 'fundraise_risk_band'], bad: ['HIGH', 'very_high', 'investor-ready', null, 0] },
  { path: ['data', 'scores', 'fundraise_risk_label'], bad: BAD_STRING },
  { path: ['data', 'scores', 'checklist_completion_pct'], bad: [-1, 101, 1.5, '10', null] },
  { path: ['data', 'scores', 'checklist_complete'], bad: [-1, 1.5, '3', null] },
  { path: ['data', 'scores', 'checklist_total'], bad: [-1, 1.5, '3', null] },
  { path: ['data', 'licensing'], bad: [null, [], 'licensing'] },
  { path: ['data', 'licensing', 'product_classification'], bad: ['CRYPTO', 'dax', 5, ''] },
  { path: ['data', 'licensing', 'product_classification_label'], bad: [5, {}, []] },
  { path: ['data', 'licensing', 'primary_regulator'], bad: [5, {}, []] },
  { path: ['data', 'licensing', 'secondary_regulators'], bad: ['CBN', [1], [null], null, {}] },
  { path: ['data', 'licensing', 'arip_stage'], bad: ['stage_9', 'Formal Application', 3] },
  { path: ['data', 'licensing', 'arip_stage_label'], bad: [3, {}, []] },
  { path: ['data', 'verification'], bad: [null, [], 'verification'] },
  { path: ['data', 'verification', 'last_score_calculated_at'], bad: BAD_TIMESTAMPS },
  { path: ['data', 'verification', 'pack_generated_at'], bad: BAD_TIMESTAMPS.filter((v) => v !== null) },
  { path: ['data', 'verification', 'pack_verification_hash'], bad: [5, {}, []] },
  { path: ['data', 'verification', 'share_expires_at'], bad: BAD_TIMESTAMPS },
  { path: ['data', 'verification', 'snapshot_at'], bad: BAD_TIMESTAMPS },
  { path: ['data', 'top_gaps'], bad: [null, {}, 'gaps', [null], ['gap']] },
  { path: ['data', 'links'], bad: [null, [], 'links'] },
  { path: ['data', 'links', 'human_summary_url'], bad: BAD_URL },
  { path: ['data', 'links', 'service_profile_url'], bad: BAD_URL },
  { path: ['data', 'disclaimer'], bad: BAD_NONEMPTY },
];

const GAP_FIELDS: readonly { key: string; bad: Json[] }[] = [
  { key: 'title', bad: BAD_NONEMPTY },
  { key: 'severity', bad: ['low', 'CRITICAL', '', null, 1] },
  { key: 'regulatory_basis', bad: BAD_STRING },
];

type Mutation = { describe: string; apply(envelope: Json): boolean };

function parentOf(root: Json, path: readonly (string | number)[]): { [key: string]: Json } | Json[] | null {
  let node: Json | undefined = root;
  for (const key of path.slice(0, -1)) {
    if (Array.isArray(node) && typeof key === 'number') node = node[key];
    else if (isObject(node) && typeof key === 'string') node = node[key];
    else return null;
  }
  return isObject(node) || Array.isArray(node) ? node : null;
}

function setAt(root: Json, path: readonly (string | number)[], value: Json | undefined): boolean {
  const parent = parentOf(root, path);
  const key = path.at(-1);
  if (parent === null || key === undefined) return false;
  if (Array.isArray(parent) && typeof key === 'number') {
    if (value === undefined) parent.splice(key, 1);
    else parent[key] = value;
    return true;
  }
  if (isObject(parent) && typeof key === 'string') {
    if (value === undefined) delete parent[key];
    else parent[key] = value;
    return true;
  }
  return false;
}

const field = fc.constantFrom(...FIELDS);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  field.map((f) => ({ describe: `delete ${f.path.join('.')}`, apply: (e: Json) => setAt(e, f.path, undefined) })),
  field.chain((f) =>
    fc
      .constantFrom(...f.bad)
      .map((bad) => ({ describe: `${f.path.join('.')} = ${JSON.stringify(bad)}`, apply: (e: Json) => setAt(e, f.path, bad) })),
  ),
  fc.integer({ min: 4, max: 12 }).map((count) => ({
    describe: `${count} gaps`,
    apply: (e: Json) =>
      setAt(
        e,
        ['data', 'top_gaps'],
        Array.from({ length: count }, (_, i) => ({ title: `Gap ${i}`, severity: 'high', regulatory_basis: 'x' })),
      ),
  })),
  fc.constantFrom(...GAP_FIELDS).chain((g) =>
    fc.option(fc.constantFrom(...g.bad), { nil: undefined }).map((bad) => ({
      describe: bad === undefined ? `delete gap.${g.key}` : `gap.${g.key} = ${JSON.stringify(bad)}`,
      apply: (e: Json) => {
        const gaps = setAt(e, ['data', 'top_gaps'], [{ title: 'Gap', severity: 'high', regulatory_basis: 'basis' }]);
        return gaps && setAt(e, ['data', 'top_gaps', 0, g.key], bad);
      },
    })),
  ),
);

// ---- the service's parse path ----

function respondWith(status: number, body: string): HttpOptions {
  return {
    fetch: async () => new Response(body, { status, headers: { 'content-type': 'application/json' } }),
    now: () => FIXTURE_NOW,
    timeoutMs: 5_000,
    maxBodyBytes: 256 * 1024,
  };
}

const URL_ = 'http://127.0.0.1:8787/api/v1/compliance-status/q7Yv3kLm9Tz2Rb8Xw4Nc6Hd1Jf5Gs0PaUeVi-_oKtQy';

describe('snapshot envelope validation (properties)', () => {
  it('accepts every valid envelope, in the schema and through fetchSnapshot', async () => {
    await fc.assert(
      fc.asyncProperty(validEnvelope, async (envelope) => {
        expect(snapshotSuccessEnvelopeSchema.safeParse(envelope).success).toBe(true);
        const result = await fetchSnapshot(URL_, respondWith(200, JSON.stringify(envelope)));
        expect(result.status).toBe('ready');
        expect(snapshotResultSchema.safeParse(result).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects every schema-breaking mutation (missing field, wrong type, out-of-range score, bad enum, >3 gaps, bad timestamp)', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(validEnvelope, mutation, async (envelope, m) => {
        fc.pre(m.apply(envelope));
        seen.add(m.describe.split(' ')[0] ?? '');
        expect(snapshotSuccessEnvelopeSchema.safeParse(envelope).success, m.describe).toBe(false);
        const result = await fetchSnapshot(URL_, respondWith(200, JSON.stringify(envelope)));
        expect(result, m.describe).toMatchObject({ status: 'error', code: 'INVALID_RESPONSE', httpStatus: 200 });
        expect(snapshotResultSchema.safeParse(result).success).toBe(true);
      }),
      { numRuns: 2_000 },
    );
    expect(seen.size).toBeGreaterThan(10);
  });

  it('every listed mutation, once each, is refused', () => {
    const base = buildSuccessEnvelope();
    const cases: string[] = [];
    for (const f of FIELDS) {
      for (const bad of [undefined, ...f.bad]) {
        const envelope = JSON.parse(JSON.stringify(base)) as Json;
        expect(setAt(envelope, f.path, bad)).toBe(true);
        if (snapshotSuccessEnvelopeSchema.safeParse(envelope).success) cases.push(`${f.path.join('.')} = ${JSON.stringify(bad)}`);
      }
    }
    expect(cases).toEqual([]);
  });

  it('never throws on arbitrary JSON or text, whatever the status; the result always matches its own schema', async () => {
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 5 }).map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.constantFrom(
        '',
        '{',
        'null',
        '[]',
        '{"success":true}',
        '{"success":false}',
        '{"success":false,"error":"x","code":"NOT_FOUND"}',
        '\u0000',
        '\ufeff{}',
      ),
      validEnvelope.map((envelope) => JSON.stringify(envelope).slice(0, -1)),
    );
    const status = fc.oneof(fc.constantFrom(200, 404, 410, 429, 500, 503), fc.integer({ min: 200, max: 599 }));
    await fc.assert(
      fc.asyncProperty(status, body, async (code, text) => {
        expect(() => snapshotResponseSchema.safeParse(text)).not.toThrow();
        let json: unknown = undefined;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON
        }
        expect(() => snapshotResponseSchema.safeParse(json)).not.toThrow();
        const result = await fetchSnapshot(URL_, respondWith(code, text));
        expect(snapshotResultSchema.safeParse(result).success).toBe(true);
        if (code === 200) {
          const valid = snapshotSuccessEnvelopeSchema.safeParse(json).success;
          expect(result.status).toBe(valid ? 'ready' : 'error');
          if (!valid) expect(result).toMatchObject({ code: 'INVALID_RESPONSE' });
        } else {
          expect(result.status).toBe('error');
        }
      }),
      { numRuns: 1_500 },
    );
  });
});
