/**
 * Version 1 test support: an app with the operator API, an outbox worker the test drives (`tick`) on
 * the test's clock, partners made through the operator API, and a local webhook receiver that
 * records what arrives and answers what the test says.
 */
import http from 'node:http';
import { afterAll, beforeAll, expect } from 'vitest';
import { z } from 'zod';
import type { Database } from '../../../server/platform/db/driver';
import type { DatabaseTarget } from '../../../server/platform/db/open';
import { manualClock, type Clock } from '../../../server/platform/clock';
import { WebhookDispatcher } from '../../../server/webhooks/dispatcher';
import { createHttpSender, type WebhookSender } from '../../../server/webhooks/sender';
import { checkEndpointUrl, type HostResolver } from '../../../server/webhooks/url-policy';
import type { AppConfig } from '../../../server/platform/app-env';
import { partnerChores } from '../../../server/partners/chores';
import { listenLocal } from './local-server';
import { makeApp, START, withTestDatabase, type TestApp } from './harness';

export const OPERATOR_SECRET = 'operator-secret-for-tests';

export interface V1App extends TestApp {
  dispatcher: WebhookDispatcher;
  nudges: () => number;
  /** One pass of the outbox worker (expiries, digests, due deliveries) on the test's clock. */
  tick(): ReturnType<WebhookDispatcher['tick']>;
}

export function makeV1App(
  db: Database,
  options: {
    clock?: Clock;
    config?: Partial<AppConfig>;
    sender?: WebhookSender;
    resolve?: HostResolver;
  } = {},
): V1App {
  const clock = options.clock ?? manualClock(START);
  const dev = options.config?.dev ?? true;
  const dispatcher = new WebhookDispatcher({
    db,
    clock,
    sender: options.sender ?? createHttpSender({ allowLoopback: dev }),
    chores: partnerChores(db),
    random: () => 0.5,
  });
  let nudges = 0;
  const app = makeApp(db, {
    clock,
    config: { operatorSecret: OPERATOR_SECRET, ...options.config },
    webhooks: {
      nudge: () => {
        nudges += 1;
        dispatcher.nudge();
      },
      checkUrl: (url) => checkEndpointUrl(url, { allowLoopback: dev, resolve: options.resolve }),
    },
  });
  return { ...app, dispatcher, nudges: () => nudges, tick: () => dispatcher.tick() };
}

export async function operatorCall(t: TestApp, method: string, path: string, body?: unknown): Promise<Response> {
  return t.request(path, {
    method,
    headers: {
      authorization: `Bearer ${OPERATOR_SECRET}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const createdKey = z.object({
  data: z.object({ partner_key: z.object({ id: z.string(), name: z.string(), key: z.string(), quota_per_minute: z.number() }) }),
});

export interface Partner {
  id: string;
  key: string;
  call(method: string, path: string, body?: unknown, init?: { ip?: string }): Promise<Response>;
}

export async function createPartner(t: TestApp, body: { name?: string; quota_per_minute?: number } = {}): Promise<Partner> {
  const response = await operatorCall(t, 'POST', '/api/operator/partner-keys', {
    name: body.name ?? `Fund ${Math.random().toString(36).slice(2, 8)}`,
    quota_per_minute: body.quota_per_minute ?? 10_000,
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  const { id, key } = createdKey.parse(JSON.parse(text)).data.partner_key;
  return {
    id,
    key,
    call: (method, path, payload, init = {}) =>
      t.request(path, {
        method,
        ip: init.ip,
        headers: { authorization: `Bearer ${key}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      }),
  };
}

const endpointCreated = z.object({
  data: z.object({ endpoint: z.object({ id: z.string(), url: z.string(), secret: z.string() }) }),
});
const followCreated = z.object({
  data: z.object({ follow: z.object({ id: z.string(), status: z.string(), company: z.object({ name: z.string() }) }) }),
});

export async function addEndpoint(partner: Partner, url: string): Promise<{ id: string; secret: string }> {
  const response = await partner.call('POST', '/api/v1/webhook-endpoints', { url });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return endpointCreated.parse(JSON.parse(text)).data.endpoint;
}

export async function follow(
  partner: Partner,
  token: string,
  extra: { endpoint_id?: string | null; rules?: Record<string, unknown> } = {},
): Promise<{ id: string; status: string; company: { name: string } }> {
  const response = await partner.call('POST', '/api/v1/follows', { token, ...extra });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return followCreated.parse(JSON.parse(text)).data.follow;
}

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  json: unknown;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** What the next requests are answered with (default 204), after `delayMs` (default at once). */
  respond: (request: ReceivedWebhook) => { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (any free port) that records every request. */
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    respond: () => ({ status: 204 }),
    close: async () => undefined,
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = null;
      }
      const webhook = { headers, body, json: parsed };
      received.push(webhook);
      const answer = receiver.respond(webhook);
      const send = () => {
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body ?? '');
      };
      if (answer.delayMs === undefined) send();
      else setTimeout(send, answer.delayMs);
    });
  });
  const listening = await listenLocal(server);
  receiver.url = `${listening.base}/webhook`;
  receiver.close = listening.close;
  return receiver;
}

export const webhookBody = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.looseObject({
    event_id: z.string().optional(),
    follow_id: z.string().optional(),
    company: z.object({ name: z.string() }).optional(),
    summary: z.string(),
    changes: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown(), summary: z.string() })).optional(),
    reason: z.string().optional(),
    events: z.array(z.unknown()).optional(),
  }),
});
export type WebhookBody = z.infer<typeof webhookBody>;

export const bodies = (receiver: Receiver): WebhookBody[] => receiver.received.map((r) => webhookBody.parse(r.json));

/**
 * One database per test file with a v1 app on it, opened before the file's tests and closed after;
 * hands them to the file (`withV1App((app, database) => { t = app; db = database; })`), as
 * `withSharedApp` does for the snapshot API.
 */
export function withV1App(onOpen: (app: V1App, db: Database) => void): void {
  withTestDatabase((db) => onOpen(makeV1App(db), db));
}

/** One webhook receiver per test file, started before its tests and closed after. */
export function withReceiver(onStart: (receiver: Receiver) => void): void {
  let started: Receiver | undefined;
  beforeAll(async () => {
    started = await startReceiver();
    onStart(started);
  });
  afterAll(async () => {
    await started?.close();
  });
}

/**
 * `startServer` options for a server the tests reach over HTTP: a free port on 127.0.0.1, `--dev`
 * (plain-http webhooks to loopback), the operator API with OPERATOR_SECRET, the outbox polled every
 * 50 ms, nothing printed.
 */
export function devServerOptions(database: DatabaseTarget) {
  return {
    port: 0,
    host: '127.0.0.1',
    database,
    dev: true,
    seed: false,
    trustProxy: false,
    operatorSecret: OPERATOR_SECRET,
    webhookPollIntervalMs: 50,
    print: () => undefined,
  };
}

/** A request with a bearer key (and a JSON body) to a server started over HTTP (`startServer`). */
export const callServer = (base: string, method: string, route: string, key: string, body?: unknown): Promise<Response> =>
  fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/**
 * Over HTTP, on a server started with `--dev` and OPERATOR_SECRET: a founder with a DD pack and a share
 * link, a partner key whose webhook endpoint is `receiverUrl`, and its follow of that link.
 */
export async function followOverHttp(base: string, receiverUrl: string): Promise<{ founderKey: string; partnerKey: string }> {
  const signUp = await fetch(`${base}/api/founder/organisations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Over HTTP Ltd', subscription_tier: 'growth', readiness_score: 50 }),
  });
  const founderKey = z.object({ data: z.object({ founder_key: z.string() }) }).parse(await signUp.json()).data.founder_key;
  await callServer(base, 'POST', '/api/founder/dd-packs', founderKey, {});
  const link = z
    .object({ data: z.object({ share_link: z.object({ token: z.string() }) }) })
    .parse(await (await callServer(base, 'POST', '/api/founder/share-links', founderKey, {})).json()).data.share_link;
  const partnerKey = z
    .object({ data: z.object({ partner_key: z.object({ key: z.string() }) }) })
    .parse(
      await (await callServer(base, 'POST', '/api/operator/partner-keys', OPERATOR_SECRET, { name: 'Over HTTP Fund' })).json(),
    ).data.partner_key.key;
  expect((await callServer(base, 'POST', '/api/v1/webhook-endpoints', partnerKey, { url: receiverUrl })).status).toBe(201);
  expect((await callServer(base, 'POST', '/api/v1/follows', partnerKey, { token: link.token })).status).toBe(201);
  return { founderKey, partnerKey };
}
