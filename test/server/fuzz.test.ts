/**
 * Server fuzzing (issue 6, hostile input): random methods, paths, headers and bodies through the
 * whole app in process (`app.request`). Whatever comes in, the server never answers 5xx, never leaks
 * a stack trace or a file path, never logs an unhandled error, and always answers with the spec's
 * JSON envelope (parsed with zod), except the HTML routes (`GET /share/*`, `GET /demo`), the OpenAPI
 * document, the `/` redirect and bodiless answers (HEAD, 204 preflights).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVER_ERROR_CODES } from '../../server/platform/http/errors';
import { openTestDatabase, type TestDatabase } from './support/db';
import { BASE, founderWithLink, makeApp, type Founder, type TestApp } from './support/harness';

let testDb: TestDatabase;
let t: TestApp;
let founder: Founder;
let token: string;
let linkId: string;

beforeAll(async () => {
  testDb = await openTestDatabase();
  t = makeApp(testDb.db, { config: { dev: true, trustProxy: true } });
  const created = await founderWithLink(t);
  founder = created.founder;
  token = created.link.token;
  linkId = created.link.id;
});
afterAll(async () => {
  await testDb?.close();
});

// ---- what every answer must look like ----

const errorEnvelope = z.strictObject({ success: z.literal(false), error: z.string().min(1), code: z.enum(SERVER_ERROR_CODES) });
const successEnvelope = z.strictObject({
  success: z.literal(true),
  data: z.record(z.string(), z.unknown()),
  meta: z.record(z.string(), z.unknown()),
});
const envelope = z.union([successEnvelope, errorEnvelope]);
const openApiDocument = z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) });

/** Stack frames ("    at fn (file:1:2)"), source locations, absolute paths, JS and PostgreSQL error texts. */
const LEAKS = [
  /\n\s*at\s/,
  /\bat \S+ \(/,
  /\.[cm]?[jt]sx?:\d+:\d+/,
  /node_modules/,
  /\/work\//,
  /file:\/\//,
  /\b(?:Type|Range|Syntax|Reference|URI|Zod)Error\b/,
  /invalid byte sequence|syntax error at or near|violates .* constraint|does not exist/,
];

interface Fuzzed {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

function decodedPath(url: string): string {
  // As the harness sends it: `${BASE}${path}`.
  const { pathname } = new URL(`${BASE}${url}`);
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

/** What `new Request()` does to a method: the six standard ones are upper-cased, the rest kept as given. */
function normalisedMethod(method: string): string {
  const upper = method.toUpperCase();
  return ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'].includes(upper) ? upper : method;
}

async function send(request: Fuzzed): Promise<{ status: number; contentType: string; text: string; path: string }> {
  const init: RequestInit & { ip: string } = {
    method: request.method,
    headers: request.headers,
    ip: `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  };
  const method = normalisedMethod(request.method);
  if (request.body !== undefined && method !== 'GET' && method !== 'HEAD') init.body = request.body;
  const response = await t.request(request.path, init);
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
    path: decodedPath(request.path),
  };
}

/** Asserts the invariants; returns a label for the answer's kind (for coverage checks). */
function check(request: Fuzzed, answer: Awaited<ReturnType<typeof send>>): string {
  const method = normalisedMethod(request.method);
  const context = `${method} ${request.path} → ${answer.status} ${answer.contentType}\n${answer.text.slice(0, 500)}`;
  expect(answer.status, context).toBeGreaterThanOrEqual(200);
  expect(answer.status, context).toBeLessThan(500);
  expect(LEAKS.filter((leak) => leak.test(answer.text)).map(String), context).toEqual([]);

  if (method === 'HEAD' || answer.status === 204) {
    expect(answer.text, context).toBe('');
    return 'empty';
  }
  if (answer.status === 302) {
    expect(answer.path, context).toBe('/');
    return 'redirect';
  }
  if (answer.contentType.startsWith('text/html')) {
    expect(method, context).toBe('GET');
    // (Hono's `/share/*` also matches `/share` itself)
    expect(answer.path.startsWith('/share/') || answer.path === '/share' || answer.path === '/demo', context).toBe(true);
    expect(answer.text, context).toMatch(/^<!doctype html>/i);
    return 'html';
  }
  expect(answer.contentType, context).toMatch(/^application\/json/);
  const json: unknown = JSON.parse(answer.text);
  if (method === 'GET' && answer.path === '/api/openapi.json') {
    openApiDocument.parse(json);
    return 'openapi';
  }
  const parsed = envelope.safeParse(json);
  expect(parsed.success, `${context}\n${parsed.success ? '' : parsed.error.message}`).toBe(true);
  return parsed.success && parsed.data.success ? 'success' : 'error';
}

function expectNoUnhandledErrors(): void {
  expect(t.logs.map((log) => `${log.message}: ${String(log.error)}`)).toEqual([]);
}

// ---- generators ----

const printable = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

const SEGMENTS = [
  '',
  '.',
  '..',
  '%2e%2e',
  '%2F',
  '%00',
  '%',
  '%ZZ',
  '%E0%A4%A',
  '%C0%AF',
  '%FF',
  '%u0041',
  '~',
  '*',
  ':',
  ';',
  '@',
  '!',
  '$',
  "'",
  'é',
  '%C3%A9',
  '\u{1F600}',
  'A'.repeat(43),
  'A'.repeat(42) + '=',
  'tok_000001_' + 'x'.repeat(32),
  'a'.repeat(3000),
  'revoke',
  'share-links',
  'organisation',
  'organisations',
  'compliance-status',
  'v1',
  'api',
  'share',
  'demo',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${7*7}',
  '{{7*7}}',
];

const segment = fc.oneof(
  fc.constantFrom(...SEGMENTS),
  printable(20).map((s) => encodeURIComponent(s)),
  printable(12).map((s) => s.replace(/[?#]/g, '')),
  fc.string({ unit: 'binary', maxLength: 8 }).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'))),
);

const PREFIXES = [
  '/api/v1/compliance-status/',
  '/api/v1/compliance-status',
  '/api/v1/',
  '/share/',
  '/share',
  '/api/founder/organisations',
  '/api/founder/organisation',
  '/api/founder/organisation/',
  '/api/founder/dd-packs',
  '/api/founder/share-links',
  '/api/founder/share-links/',
  '/api/dev/clock',
  '/api/dev/reset',
  '/api/health',
  '/api/openapi.json',
  '/demo',
  '/',
  '//',
  '/API/V1/',
];

/** `{token}` and `{link}` are filled with the live token and link id (so real handlers run too). */
const path = fc
  .tuple(
    fc.constantFrom(
      ...PREFIXES,
      '/api/v1/compliance-status/{token}',
      '/share/{token}',
      '/api/founder/share-links/{link}/revoke',
      '/api/founder/share-links/{segment}/revoke',
    ),
    fc.array(segment, { maxLength: 3 }),
    fc.option(
      printable(30).map((q) => `?${q.replace(/#/g, '')}`),
      { nil: '' },
    ),
  )
  .chain(([prefix, segments, query]) => segment.map((one) => [prefix.replace('{segment}', one), segments, query] as const))
  .map(([prefix, segments, query]) => {
    const joined = segments.length > 0 ? `${prefix}${prefix.endsWith('/') ? '' : '/'}${segments.join('/')}` : prefix;
    return `${joined}${query}`;
  });

const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
const method = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,10}$/).filter((m) => !FORBIDDEN_METHODS.has(m)) },
  { weight: 1, arbitrary: fc.constantFrom('get', 'post', 'Patch', 'PROPFIND', 'M-SEARCH') },
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/problem+json',
  'application/jsonx',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  '',
  ';',
  'application/json; charset=utf-16',
];

const headers = fc
  .record(
    {
      'content-type': fc.oneof(fc.constantFrom(...CONTENT_TYPES), printable(40)),
      authorization: fc.oneof(
        fc.constant('{founder}'),
        fc.constantFrom('Bearer', 'Bearer ', 'Bearer  x', 'Basic dXNlcjpwYXNz', 'bearer {founder}', 'Bearer {founder} extra'),
        printable(60),
      ),
      'x-forwarded-for': fc.oneof(fc.ipV4(), fc.ipV6(), printable(40), fc.constantFrom(', , ,', '::ffff:10.0.0.1', 'unknown')),
      accept: fc.oneof(fc.constantFrom('application/json', 'text/html', '*/*', ''), printable(30)),
      origin: fc.oneof(fc.constantFrom('https://evil.test', 'null', 'chrome-extension://abcdefghijklmnop'), printable(30)),
      'access-control-request-method': fc.constantFrom('GET', 'POST', 'DELETE', 'X'),
      'access-control-request-headers': fc.constantFrom('content-type', 'authorization, x-evil', ''),
      'x-http-method-override': fc.constantFrom('DELETE', 'PATCH', 'GET'),
      cookie: printable(40),
    },
    { requiredKeys: [] },
  )
  .map((record) =>
    Object.fromEntries(
      Object.entries(record).map(([name, value]) => [
        name,
        value === '{founder}' ? `Bearer ${founder.key}` : value.replace('{founder}', founder.key),
      ]),
    ),
  );

const PROFILE_KEYS = [
  'name',
  'subscription_tier',
  'readiness_score',
  'fundraise_score',
  'checklist_complete',
  'checklist_total',
  'product_classification',
  'primary_regulator',
  'secondary_regulators',
  'arip_stage',
  'gaps',
  'advance_ms',
  'label',
  '__proto__',
  'constructor',
];
const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'nul\u0000inside',
    '\ud800',
    'a\udfffb',
    '\u202e',
    'x'.repeat(5000),
    -1,
    101,
    1.5,
    1e308,
    -0,
    Number.MAX_SAFE_INTEGER,
    'growth',
    'scale',
    'starter',
    'PAYMENT',
    'CBN',
    'formal_application',
    null,
    true,
    [],
    {},
  ),
  fc.array(
    fc.record(
      {
        title: fc.oneof(fc.string(), fc.constant('\u0000')),
        severity: fc.constantFrom('critical', 'high', 'medium', 'low'),
        regulatory_basis: fc.string(),
      },
      { requiredKeys: [] },
    ),
    { maxLength: 4 },
  ),
);
const jsonObjectBody = fc
  .dictionary(fc.oneof(fc.constantFrom(...PROFILE_KEYS), fc.string({ maxLength: 10 })), hostileValue, { maxKeys: 6 })
  .map((value) => JSON.stringify(value));

const body = fc.oneof(
  jsonObjectBody,
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom(
    '',
    '{',
    '{"a":',
    'null',
    '[]',
    '"\\u0000"',
    '{"name":"\\u0000","subscription_tier":"growth"}',
    '['.repeat(5000),
    '1e999',
  ),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => new Uint8Array(bytes)),
);

const request: fc.Arbitrary<Fuzzed> = fc
  .record({ method, path, headers, body: fc.option(body, { nil: undefined }) })
  .map((r) => ({
    ...r,
    path: r.path.replaceAll('{token}', token).replaceAll('{link}', linkId),
  }));

// ---- properties ----

describe('server fuzzing: never a 5xx, never a stack, always an envelope (or the HTML pages)', () => {
  it('random methods, paths, headers and bodies', async () => {
    const kinds = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const kind = check(r, await send(r));
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }),
      { numRuns: 3_000 },
    );
    expectNoUnhandledErrors();
    // The generator reaches the real handlers, not only 404s.
    expect([...kinds.keys()].sort()).toEqual(expect.arrayContaining(['error', 'html', 'success', 'empty']));
  }, 180_000);

  it('authenticated founder API: hostile JSON bodies get envelopes; a refused PATCH changes nothing', async () => {
    const endpoints = fc.constantFrom(
      { method: 'POST', path: '/api/founder/organisations' },
      { method: 'PATCH', path: '/api/founder/organisation' },
      { method: 'POST', path: '/api/founder/share-links' },
      { method: 'POST', path: '/api/founder/dd-packs' },
      { method: 'POST', path: '/api/dev/clock' },
    );
    const readOrganisation = async () => (await founder.call('GET', '/api/founder/organisation')).text();
    const before = await readOrganisation();
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(endpoints, jsonObjectBody, async (endpoint, payload) => {
        const r: Fuzzed = {
          method: endpoint.method,
          path: endpoint.path,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${founder.key}` },
          body: payload,
        };
        const organisationBefore = endpoint.method === 'PATCH' ? await readOrganisation() : '';
        const answer = await send(r);
        const kind = check(r, answer);
        if (kind === 'error') rejected += 1;
        if (kind === 'error' && endpoint.method === 'PATCH') expect(await readOrganisation()).toBe(organisationBefore);
        // A PATCH that was accepted changed the profile; put it back so the next run starts equal.
        if (endpoint.path === '/api/founder/organisation' && answer.status === 200) {
          const original = z
            .object({ data: z.object({ organisation: z.record(z.string(), z.unknown()) }) })
            .parse(JSON.parse(before));
          const { name, subscription_tier } = original.data.organisation;
          await founder.call('PATCH', endpoint.path, { name, subscription_tier });
        }
      }),
      { numRuns: 600 },
    );
    expectNoUnhandledErrors();
    expect(rejected).toBeGreaterThan(100);
  }, 180_000);

  it('strings Postgres cannot store (NUL, lone surrogates) are refused with 400, not a 500', async () => {
    const nasty = fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\udc00\ud800');
    await fc.assert(
      fc.asyncProperty(nasty, fc.constantFrom('name', 'gap-title', 'gap-basis', 'label', 'regulator'), async (bad, where) => {
        const bodies: Record<string, { method: string; path: string; payload: unknown }> = {
          name: {
            method: 'POST',
            path: '/api/founder/organisations',
            payload: { name: `Org ${bad}`, subscription_tier: 'growth' },
          },
          'gap-title': {
            method: 'PATCH',
            path: '/api/founder/organisation',
            payload: { gaps: [{ title: `T${bad}`, severity: 'high', regulatory_basis: 'x' }] },
          },
          'gap-basis': {
            method: 'PATCH',
            path: '/api/founder/organisation',
            payload: { gaps: [{ title: 'T', severity: 'high', regulatory_basis: `B${bad}` }] },
          },
          label: { method: 'POST', path: '/api/founder/share-links', payload: { label: `L${bad}` } },
          regulator: { method: 'PATCH', path: '/api/founder/organisation', payload: { primary_regulator: `CBN${bad}` } },
        };
        const chosen = bodies[where];
        if (!chosen) throw new Error(where);
        const r: Fuzzed = {
          method: chosen.method,
          path: chosen.path,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${founder.key}` },
          body: JSON.stringify(chosen.payload),
        };
        const answer = await send(r);
        expect(check(r, answer)).toBe('error');
        expect(answer.status, answer.text).toBe(400);
      }),
      { numRuns: 60 },
    );
    expectNoUnhandledErrors();
  }, 120_000);

  it('a share-link id PostgreSQL cannot compare (%00, invalid UTF-8) is 404, not a 500', async () => {
    for (const id of ['%00', 'link_%00', '%ED%A0%80', '%C0%80', '%FF', 'a'.repeat(101)]) {
      const r: Fuzzed = {
        method: 'POST',
        path: `/api/founder/share-links/${id}/revoke`,
        headers: { authorization: `Bearer ${founder.key}` },
      };
      const answer = await send(r);
      expect(check(r, answer), answer.text).toBe('error');
      expect(answer.status, `${id}: ${answer.text}`).toBe(404);
    }
    expectNoUnhandledErrors();
  });

  it('hostile tokens on the snapshot and share routes: 404 envelope or HTML page, never a view', async () => {
    const hostileToken = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))),
      fc.constantFrom(...SEGMENTS),
      fc.stringMatching(/^[A-Za-z0-9_-]{16,128}$/),
      fc.constant(token).map((tk) => `${tk}%00`),
      fc.constant(token).map((tk) => tk.toLowerCase()),
      fc.constant(token).map((tk) => `${tk}/`),
    );
    const viewCount = async () => {
      const listed = z
        .object({ data: z.object({ share_links: z.array(z.object({ id: z.string(), view_count: z.number() })) }) })
        .parse(await (await founder.call('GET', '/api/founder/share-links')).json());
      return listed.data.share_links.find((l) => l.id === linkId)?.view_count;
    };
    const before = await viewCount();
    await fc.assert(
      fc.asyncProperty(hostileToken, fc.constantFrom('/api/v1/compliance-status/', '/share/'), async (tk, prefix) => {
        fc.pre(tk !== token);
        const r: Fuzzed = { method: 'GET', path: `${prefix}${tk}`, headers: {} };
        const answer = await send(r);
        const kind = check(r, answer);
        if (answer.status === 200) throw new Error(`hostile token ${JSON.stringify(tk)} was accepted`);
        // (dot segments such as `%2e%2e` resolve to `/`, which redirects to the demo page)
        expect(['error', 'html', 'redirect']).toContain(kind);
      }),
      { numRuns: 800 },
    );
    expect(await viewCount()).toBe(before);
    expectNoUnhandledErrors();
  }, 180_000);
});
