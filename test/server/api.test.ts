import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVER_ERROR_CODES } from '../../server/platform/http/errors';
import type { Database } from '../../server/platform/db/driver';
import { MIGRATIONS, migrate } from '../../server/platform/db/migrations';
import { expectError, founderWithLink, makeApp, withSharedApp, snapshotPath, type TestApp } from './support/harness';

let db: Database;
let t: TestApp;
withSharedApp((app, database) => {
  t = app;
  db = database;
});

/** A database whose every query fails with an internal-looking message. */
function failingDb(db: Database): Database {
  const fail = () => Promise.reject(new Error('connection to 10.1.2.3:5432 refused; secret=hunter2'));
  return { ...db, query: fail, transaction: fail };
}

describe('errors', () => {
  it('unknown route: 404 NOT_FOUND envelope', async () => {
    const response = await t.request('/api/nope');
    await expectError(response, 404, 'NOT_FOUND');
    expect(response.headers.get('cache-control')).toBe('no-store');
    await expectError(await t.request('/nothing/here', { method: 'POST' }), 404, 'NOT_FOUND');
  });

  it('wrong method: 405 METHOD_NOT_ALLOWED with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await t.request(snapshotPath('A'.repeat(43)), { method });
      await expectError(response, 405, 'METHOD_NOT_ALLOWED');
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
    const health = await t.request('/api/health', { method: 'POST' });
    await expectError(health, 405, 'METHOD_NOT_ALLOWED');
    expect(health.headers.get('allow')).toBe('GET, HEAD');
  });

  it('server fault: 500 INTERNAL_ERROR without stack or detail, logged server-side', async () => {
    const broken = makeApp(failingDb(db));
    for (const [path, init] of [
      [snapshotPath('A'.repeat(43)), {}],
      [
        '/api/founder/organisations',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x","subscription_tier":"growth"}' },
      ],
    ] as const) {
      const response = await broken.request(path, init);
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(JSON.parse(text)).toEqual({ success: false, error: 'Internal server error.', code: 'INTERNAL_ERROR' });
      expect(text).not.toMatch(/hunter2|10\.1\.2\.3|at |Error:|stack/);
    }
    // The snapshot's fault is logged twice: the read, then the signing key it could not read (no
    // snapshot answer goes out unsigned but this 500).
    expect(broken.logs.map((log) => log.message)).toEqual([
      `unhandled error on GET ${snapshotPath('A'.repeat(43))}`,
      `unhandled error on GET ${snapshotPath('A'.repeat(43))}`,
      'unhandled error on POST /api/founder/organisations',
    ]);
    expect(String(broken.logs[0]?.error)).toContain('hunter2');

    const page = await broken.request('/share/' + 'A'.repeat(43));
    expect(page.status).toBe(500);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).not.toContain('hunter2');
  });

  it('the error envelope has exactly success, error and code', async () => {
    const body: unknown = await (await t.request('/api/nope')).json();
    expect(Object.keys(z.record(z.string(), z.unknown()).parse(body)).sort()).toEqual(['code', 'error', 'success']);
  });
});

describe('migrations', () => {
  it('are recorded and not applied twice', async () => {
    expect(await migrate(db)).toEqual([]);
    const applied = await db.query('SELECT id FROM schema_migrations ORDER BY id');
    expect(applied.rows).toEqual(MIGRATIONS.map((m) => ({ id: m.id })));
  });
});

describe('dev API', () => {
  it('is 404 unless the server runs with --dev', async () => {
    const prod = makeApp(db, { config: { dev: false } });
    for (const path of ['/api/dev/clock', '/api/dev/reset']) {
      await expectError(
        await prod.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advance_ms":1}' }),
        404,
        'NOT_FOUND',
      );
    }
  });

  it('POST /api/dev/clock moves the clock forward and returns the new time; bad input is 400', async () => {
    const before = t.clock.now().getTime();
    const response = await t.request('/api/dev/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 1234 }),
    });
    expect(response.status).toBe(200);
    const body = z.object({ success: z.literal(true), data: z.object({ now: z.string() }) }).parse(await response.json());
    expect(body.data.now).toBe(new Date(before + 1234).toISOString());
    expect(t.clock.now().getTime()).toBe(before + 1234);
    for (const bad of [{ advance_ms: -1 }, { advance_ms: 'soon' }, {}, { advance_ms: 1.5 }]) {
      const error = await expectError(
        await t.request('/api/dev/clock', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(bad),
        }),
        400,
        'VALIDATION_ERROR',
      );
      expect(error.error).toContain('`advance_ms`');
    }
  });
});

describe('GET /api/health', () => {
  it('reports ok with database latency and driver', async () => {
    const response = await t.request('/api/health');
    expect(response.status).toBe(200);
    const body = z
      .object({
        success: z.literal(true),
        data: z.object({
          status: z.literal('ok'),
          database: z.object({ ok: z.literal(true), latency_ms: z.number().min(0), driver: z.enum(['pglite', 'postgres']) }),
          api_version: z.literal('2026-06-18'),
          uptime_s: z.number().int().min(0),
        }),
        meta: z.object({}),
      })
      .parse(await response.json());
    expect(body.data.database.driver).toBe(db.driver);
  });

  it('answers 503 degraded when the database fails', async () => {
    const broken = makeApp(failingDb(db));
    const response = await broken.request('/api/health');
    expect(response.status).toBe(503);
    const body = z
      .object({
        success: z.literal(true),
        data: z.object({ status: z.literal('degraded'), database: z.object({ ok: z.literal(false) }) }),
      })
      .parse(await response.json());
    expect(body.data.status).toBe('degraded');
  });
});

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document listing the snapshot, share, founder and health paths and every error code', async () => {
    const response = await t.request('/api/openapi.json');
    expect(response.status).toBe(200);
    const doc = z
      .object({
        openapi: z.string(),
        paths: z.record(z.string(), z.record(z.string(), z.object({ responses: z.record(z.string(), z.unknown()) }))),
      })
      .parse(await response.json());
    expect(doc.openapi).toMatch(/^3\.1\./);
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/api/v1/compliance-status/{token}',
      '/share/{token}',
      '/api/health',
      '/api/founder/organisations',
      '/api/founder/organisation',
      '/api/founder/dd-packs',
      '/api/founder/share-links',
      '/api/founder/share-links/{id}/revoke',
      '/api/dev/clock',
      '/api/dev/reset',
    ]) {
      expect(paths).toContain(path);
    }
    const snapshot = doc.paths['/api/v1/compliance-status/{token}']?.get;
    expect(Object.keys(snapshot?.responses ?? {})).toEqual(expect.arrayContaining(['200', '404', '410', '429', '500']));
    expect(doc.paths['/api/founder/share-links']?.post?.responses).toHaveProperty('409');
    expect(doc.paths['/api/founder/dd-packs']?.post?.responses).toHaveProperty('403');
    const text = JSON.stringify(doc);
    for (const code of SERVER_ERROR_CODES) expect(text).toContain(`"${code}"`);
    // The snapshot schema comes from lib: its labels appear as enums.
    expect(text).toContain('Regulator Ready');
    expect(text).toContain('investor_ready');
  });

  it('omits the dev API when not in dev mode', async () => {
    const prod = makeApp(db, { config: { dev: false } });
    const doc = z
      .object({ paths: z.record(z.string(), z.unknown()) })
      .parse(await (await prod.request('/api/openapi.json')).json());
    expect(Object.keys(doc.paths)).not.toContain('/api/dev/clock');
  });
});

describe('view counting on failures', () => {
  it('a 405 on the snapshot path counts no view', async () => {
    const { link } = await founderWithLink(t);
    await t.request(snapshotPath(link.token), { method: 'POST' });
    const response = await t.request(snapshotPath(link.token));
    expect(z.object({ meta: z.object({ view_count: z.number() }) }).parse(await response.json()).meta.view_count).toBe(1);
  });
});
