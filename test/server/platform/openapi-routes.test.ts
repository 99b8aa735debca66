/**
 * `GET /api/openapi.json` is generated from the routes (server/platform/http/routes.ts `serve`), and
 * this holds it: every route the app answers is in the document, and every operation the document
 * lists is answered (not 404 "No route", not 405). Pages outside the API are named below.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATOR_SECRET } from '../support/v1';
import { makeApp, withSharedApp, type TestApp } from '../support/harness';
import type { Database } from '../../../server/platform/db/driver';

let db: Database;
withSharedApp((_app, database) => {
  db = database;
});

/** Routed, on purpose not in the API's document: the demo page, its redirect, and unknown token shapes. */
const NOT_API = ['GET /', 'GET /demo', 'GET /api/v1/compliance-status/*', 'GET /share/*'];

const documentSchema = z.object({ paths: z.record(z.string(), z.record(z.string(), z.unknown())) });
const OPERATIONS = ['get', 'put', 'post', 'delete', 'patch'];

/** `METHOD /path/{param}` of every handler the router holds (middleware and 405 answers are `ALL`). */
function routed(t: TestApp): Set<string> {
  return new Set(
    t.app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method} ${route.path.replace(/:([^/]+)/g, '{$1}')}`),
  );
}

async function documented(t: TestApp): Promise<Set<string>> {
  const doc = documentSchema.parse(await (await t.request('/api/openapi.json')).json());
  return new Set(
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => OPERATIONS.includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    ),
  );
}

const difference = (a: Set<string>, b: Set<string>) => [...a].filter((item) => !b.has(item)).sort();

describe('the OpenAPI document and the router', () => {
  it('every route is documented and every documented operation is routed (dev API and operator API on)', async () => {
    const t = makeApp(db, { config: { dev: true, operatorSecret: OPERATOR_SECRET } });
    const routes = routed(t);
    const operations = await documented(t);
    expect(operations.size).toBeGreaterThan(30);
    expect(difference(routes, operations)).toEqual([...NOT_API].sort());
    expect(difference(operations, routes)).toEqual([]);
  });

  it('each documented operation answers from its route: never "No route", never 405', async () => {
    const t = makeApp(db, { config: { dev: true, operatorSecret: OPERATOR_SECRET } });
    for (const operation of await documented(t)) {
      const [method = '', template = ''] = operation.split(' ');
      const path = template.replace('{token}', 'A'.repeat(43)).replace(/\{[^}]+\}/g, 'x_1');
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (path.startsWith('/api/operator/')) headers.authorization = `Bearer ${OPERATOR_SECRET}`;
      const response = await t.request(path, { method, headers, body: method === 'GET' ? undefined : '{}' });
      const text = await response.text();
      expect(response.status, `${operation}: ${text}`).not.toBe(405);
      expect(text, operation).not.toContain('No route for');
    }
  });

  it('without --dev and without an operator secret, neither API is routed nor documented', async () => {
    const t = makeApp(db, { config: { dev: false } });
    const operations = await documented(t);
    expect([...operations].filter((op) => op.includes('/api/dev/') || op.includes('/api/operator/'))).toEqual([]);
    expect([...routed(t)].filter((op) => op.includes('/api/dev/') || op.includes('/api/operator/'))).toEqual([]);
  });

  it('bites: a route added without a declaration shows up as undocumented', async () => {
    const t = makeApp(db);
    t.app.get('/api/undeclared', (c) => c.json({}));
    expect(difference(routed(t), await documented(t))).toContain('GET /api/undeclared');
  });
});
