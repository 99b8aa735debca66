/**
 * CI guard for the DESIGN budget "loses no view-count increment under 100 concurrent requests for one
 * token", through a real port: the app served by @hono/node-server, the limiter on, the trusted-proxy
 * setting on and many client addresses in X-Forwarded-For (as the benchmark loads it). Counts, not
 * timings, are asserted.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { snapshotSuccessEnvelopeSchema } from '../../../lib/core/schemas/snapshot';
import { openTestDatabase, type TestDatabase } from '../support/db';
import { founderWithLink, makeApp, snapshotPath, type TestApp } from '../support/harness';

let testDb: TestDatabase;
let t: TestApp;
let server: ServerType;
let baseUrl: string;

beforeAll(async () => {
  testDb = await openTestDatabase();
  t = makeApp(testDb.db, { config: { trustProxy: true } });
  server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (server) {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
  }
  await testDb?.close();
});

const listed = z.object({
  data: z.object({ share_links: z.array(z.object({ id: z.string(), view_count: z.number() })) }),
});

async function listedViewCount(founder: { call(method: string, path: string): Promise<Response> }, id: string) {
  const body = listed.parse(await (await founder.call('GET', '/api/founder/share-links')).json());
  const link = body.data.share_links.find((entry) => entry.id === id);
  if (!link) throw new Error(`share link ${id} not listed`);
  return link.view_count;
}

/** A different client address per index; `perAddress` requests share one. */
const forwardedFor = (index: number, perAddress: number) => {
  const client = Math.floor(index / perAddress) + 1;
  return `203.0.${(client >> 8) & 255}.${client & 255}`;
};

/** Fires every request before awaiting any, so they are in flight together. */
async function burst(urls: { url: string; xff: string }[]): Promise<Response[]> {
  return Promise.all(urls.map(({ url, xff }) => fetch(url, { headers: { 'x-forwarded-for': xff, accept: 'application/json' } })));
}

describe('exact view counting under concurrent load through a real port (trust proxy, many clients)', () => {
  it('counts 150 concurrent API requests for one token exactly, handing out each number once', async () => {
    const { founder, link } = await founderWithLink(t);
    const N = 150;
    const responses = await burst(
      Array.from({ length: N }, (_, i) => ({ url: `${baseUrl}${snapshotPath(link.token)}`, xff: forwardedFor(i, 3) })),
    );
    const bodies = await Promise.all(
      responses.map(async (response) => ({ status: response.status, text: await response.text() })),
    );
    expect(bodies.map((b) => b.status)).toEqual(Array.from({ length: N }, () => 200));
    const numbers = bodies.map((b) => snapshotSuccessEnvelopeSchema.parse(JSON.parse(b.text)).meta.view_count);
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    expect(await listedViewCount(founder, link.id)).toBe(N);
  });

  it('mixes API and human share views and rate-limited clients: only successful responses count', async () => {
    const { founder, link } = await founderWithLink(t);
    const api = `${baseUrl}${snapshotPath(link.token)}`;
    const share = `${baseUrl}/share/${link.token}`;
    const requests = [
      // 60 addresses × 2 requests, alternating API and share view
      ...Array.from({ length: 120 }, (_, i) => ({ url: i % 2 === 0 ? api : share, xff: forwardedFor(i, 2) })),
      // one client behind a proxy chain: only the right-most (proxy-appended) entry is its address,
      // and it sends 70, so exactly 10 are refused
      ...Array.from({ length: 70 }, () => ({ url: api, xff: '198.51.100.7, 192.0.2.99' })),
    ];
    const responses = await burst(requests);
    const statuses = await Promise.all(
      responses.map(async (response) => {
        await response.arrayBuffer();
        return response.status;
      }),
    );
    const ok = statuses.filter((status) => status === 200).length;
    const limited = statuses.filter((status) => status === 429).length;
    expect({ ok, limited, other: statuses.length - ok - limited }).toEqual({ ok: 180, limited: 10, other: 0 });
    expect(await listedViewCount(founder, link.id)).toBe(180);
  });

  it('counts two tokens loaded at once independently', async () => {
    const a = await founderWithLink(t);
    const b = await founderWithLink(t);
    const responses = await burst(
      Array.from({ length: 200 }, (_, i) => ({
        url: `${baseUrl}${snapshotPath(i % 2 === 0 ? a.link.token : b.link.token)}`,
        xff: forwardedFor(i, 4),
      })),
    );
    const statuses = await Promise.all(responses.map(async (r) => (await r.arrayBuffer(), r.status)));
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(await listedViewCount(a.founder, a.link.id)).toBe(100);
    expect(await listedViewCount(b.founder, b.link.id)).toBe(100);
  });
});
