/**
 * In-process test harness: an app over a shared per-file database with its own clock and limiter,
 * and small clients that talk to it through `app.request` with a chosen client address.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { z } from 'zod';
import { createApp, type AppDeps, type WebhookDeps } from '../../../server/app';
import type { AppConfig, Logger } from '../../../server/platform/app-env';
import { manualClock, type Clock } from '../../../server/platform/clock';
import type { Database } from '../../../server/platform/db/driver';
import type { AllowedHosts } from '../../../server/platform/http/hosts';
import type { ServerApp } from '../../../server/platform/http/routes';
import { SPEC_RATE_LIMIT } from '../../../server/platform/rate-limit/middleware';
import type { ClockedStore } from '../../../server/platform/rate-limit/store';
import { rateLimitStoreFor } from '../../../server/start';
import { GROWTH_PROFILE } from '../../fixtures/founder';
import { openTestDatabase, type TestDatabase } from './db';

export const START = '2026-06-20T09:00:00.000Z';
export const BASE = 'http://lens.test';
/** The harness's host, allowed as an operator would with `--allowed-host lens.test`. */
export const BASE_HOSTS: AllowedHosts = { names: [new URL(BASE).hostname], anyIpAddress: false };

export interface TestApp {
  app: ServerApp;
  clock: Clock;
  store: ClockedStore;
  logs: { message: string; error: unknown }[];
  /** A request from client address `ip` (the socket address seen by the limiter). */
  request(path: string, init?: RequestInit & { ip?: string }): Promise<Response>;
}

export function makeApp(
  db: Database,
  options: {
    config?: Partial<AppConfig>;
    clock?: Clock;
    store?: ClockedStore;
    webhooks?: WebhookDeps;
    demo?: AppDeps['demo'];
    signAnswers?: boolean;
  } = {},
): TestApp {
  const clock = options.clock ?? manualClock(START);
  const store = options.store ?? rateLimitStoreFor(db, clock);
  const logs: TestApp['logs'] = [];
  const logger: Logger = { error: (message, error) => logs.push({ message, error }) };
  const app = createApp({
    db,
    clock,
    rateLimiter: { store, ...SPEC_RATE_LIMIT },
    webhooks: options.webhooks,
    demo: options.demo,
    signAnswers: options.signAnswers,
    config: {
      dev: true,
      trustProxy: false,
      serviceProfileUrl: 'https://service.example/',
      allowedHosts: BASE_HOSTS,
      logger,
      ...options.config,
    },
  });
  return {
    app,
    clock,
    store,
    logs,
    request(path, init = {}) {
      const { ip = uniqueIp(), ...rest } = init;
      // What @hono/node-server passes as env; getConnInfo reads the socket address from it.
      return Promise.resolve(app.request(`${BASE}${path}`, rest, { incoming: { socket: { remoteAddress: ip } } }));
    },
  };
}

let ipCounter = 0;
/** A client address no other test uses, so rate-limit buckets never collide between tests. */
export function uniqueIp(): string {
  ipCounter += 1;
  const n = ipCounter + Math.floor(Math.random() * 1_000) * 10_000;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export const errorBody = z.strictObject({ success: z.literal(false), error: z.string().min(1), code: z.string() });

export async function expectError(response: Response, status: number, code: string): Promise<z.infer<typeof errorBody>> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = errorBody.parse(JSON.parse(text));
  expect(body.code).toBe(code);
  return body;
}

export { GROWTH_PROFILE };

const created = z.object({
  success: z.literal(true),
  data: z.object({ organisation: z.looseObject({ id: z.string() }), founder_key: z.string() }),
});
const linkCreated = z.object({
  success: z.literal(true),
  data: z.object({
    share_link: z.object({
      id: z.string(),
      token: z.string(),
      api_url: z.string(),
      share_url: z.string(),
      expires_at: z.string(),
    }),
  }),
});

export interface Founder {
  key: string;
  orgId: string;
  call(method: string, path: string, body?: unknown): Promise<Response>;
  createPack(): Promise<{ id: string; generated_at: string; verification_hash: string }>;
  createLink(): Promise<{ id: string; token: string; api_url: string; share_url: string; expires_at: string }>;
}

/** Signs an organisation up through the founder API. */
export async function signUp(t: TestApp, body: Record<string, unknown> = {}): Promise<Founder> {
  const response = await t.request('/api/founder/organisations', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Test Org ${Math.random().toString(36).slice(2, 8)}`,
      subscription_tier: 'growth',
      ...GROWTH_PROFILE,
      ...body,
    }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  const parsed = created.parse(JSON.parse(text));
  const key = parsed.data.founder_key;
  const call = (method: string, path: string, payload?: unknown) =>
    t.request(path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
  return {
    key,
    orgId: parsed.data.organisation.id,
    call,
    async createPack() {
      const res = await call('POST', '/api/founder/dd-packs', {});
      expect(res.status).toBe(201);
      return z
        .object({
          data: z.object({ pack: z.object({ id: z.string(), generated_at: z.string(), verification_hash: z.string() }) }),
        })
        .parse(await res.json()).data.pack;
    },
    async createLink() {
      const res = await call('POST', '/api/founder/share-links', {});
      const text = await res.text();
      expect(res.status, text).toBe(201);
      return linkCreated.parse(JSON.parse(text)).data.share_link;
    },
  };
}

/** An organisation with a pack and one active link. */
export async function founderWithLink(t: TestApp, body: Record<string, unknown> = {}) {
  const founder = await signUp(t, body);
  const pack = await founder.createPack();
  const link = await founder.createLink();
  return { founder, pack, link };
}

export const snapshotPath = (token: string) => `/api/v1/compliance-status/${token}`;

const shareLinkList = z.object({
  data: z.object({ share_links: z.array(z.object({ id: z.string(), view_count: z.number() })) }),
});

/** `view_count` of one link as its founder sees it in `GET /api/founder/share-links`. */
export async function listedViewCount(founder: Founder, linkId: string): Promise<number | undefined> {
  const list = shareLinkList.parse(await (await founder.call('GET', '/api/founder/share-links')).json());
  return list.data.share_links.find((l) => l.id === linkId)?.view_count;
}

/** One database for a whole test file: opened before its tests, closed after; `onOpen` hands it to the file. */
export function withTestDatabase(onOpen: (db: Database) => void): void {
  let testDb: TestDatabase | undefined;
  beforeAll(async () => {
    testDb = await openTestDatabase();
    onOpen(testDb.db);
  });
  afterAll(async () => {
    await testDb?.close();
  });
}

/**
 * One database and one app for a whole test file: opened before its tests, closed after. `onOpen`
 * hands them to the file (`withSharedApp((app, database) => { t = app; db = database; })`).
 */
export function withSharedApp(onOpen: (app: TestApp, db: Database) => void): void {
  withTestDatabase((db) => onOpen(makeApp(db), db));
}
