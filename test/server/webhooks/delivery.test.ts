/**
 * Webhook delivery: Standard Webhooks signatures checked with the library's own verifier; retries
 * on the server's clock while the receiver is down, then delivery once it is back (nothing lost, the
 * same webhook-id); an endpoint disabled after failing for days, and replay; a server restarted in
 * the middle of a retry, with the dev clock bringing the retry forward.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { manualClock } from '../../../server/platform/clock';
import type { Database } from '../../../server/platform/db/driver';
import type { DatabaseTarget } from '../../../server/platform/db/open';
import { endpointSchema } from '../../../server/webhooks/schemas';
import { MAX_ATTEMPTS, retrySchedule } from '../../../server/webhooks/retry';
import { startServer } from '../../../server/start';
import { TEST_DATABASE_URL } from '../support/db';
import { founderWithLink, START, type Founder } from '../support/harness';
import {
  addEndpoint,
  bodies,
  createPartner,
  follow,
  startReceiver,
  webhookBody,
  type Partner,
  type Receiver,
  type V1App,
  withV1App,
  withReceiver,
  callServer,
  followOverHttp,
  devServerOptions,
} from '../support/v1';

let db: Database;
let t: V1App;
let receiver: Receiver;
withV1App((app, database) => {
  t = app;
  db = database;
});
withReceiver((started) => {
  receiver = started;
});

const endpointEnvelope = z.object({ data: z.object({ endpoint: endpointSchema }) });

async function setUp(name: string): Promise<{ founder: Founder; partner: Partner; endpoint: { id: string; secret: string } }> {
  const { founder, link } = await founderWithLink(t, { name });
  const partner = await createPartner(t);
  const endpoint = await addEndpoint(partner, receiver.url);
  await follow(partner, link.token, { endpoint_id: endpoint.id });
  receiver.received.length = 0;
  receiver.respond = () => ({ status: 204 });
  return { founder, partner, endpoint };
}

const patch = (founder: Founder, body: Record<string, unknown>) => founder.call('PATCH', '/api/founder/organisation', body);

describe('signed delivery', () => {
  it('headers and body follow Standard Webhooks; the library verifies the signature with the endpoint secret', async () => {
    const { founder, endpoint } = await setUp('Signed Ltd');
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await patch(founder, { readiness_score: 84 })).status).toBe(200);
    const report = await t.tick();
    expect(report.delivered).toBe(1);
    const [delivery] = receiver.received;
    expect(delivery?.headers['content-type']).toBe('application/json');
    expect(delivery?.headers['webhook-id']).toMatch(/^evt_/);
    expect(delivery?.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(delivery?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const verified = new Webhook(endpoint.secret).verify(delivery?.body ?? '', delivery?.headers ?? {});
    const body = webhookBody.parse(verified);
    expect(body).toMatchObject({
      type: 'snapshot.scores_changed',
      timestamp: t.clock.now().toISOString(),
      data: {
        event_id: delivery?.headers['webhook-id'],
        company: { name: 'Signed Ltd' },
        changes: [{ field: 'scores.readiness_score', before: 76, after: 84, summary: 'Readiness score 76 → 84 (+8)' }],
      },
    });
    // A tampered body or another secret does not verify.
    expect(() => new Webhook(endpoint.secret).verify(`${delivery?.body} `, delivery?.headers ?? {})).toThrow();
    expect(() =>
      new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(delivery?.body ?? '', delivery?.headers ?? {}),
    ).toThrow();
    // Delivered once: a later tick sends nothing more.
    expect((await t.tick()).delivered).toBe(0);
    expect(receiver.received).toHaveLength(1);
  });
});

describe('which endpoint', () => {
  it('a follow that names none uses the endpoint the partner registers later', async () => {
    const { founder, link } = await founderWithLink(t, { name: 'Late Endpoint Ltd' });
    const partner = await createPartner(t);
    await follow(partner, link.token);
    receiver.received.length = 0;
    const endpoint = await addEndpoint(partner, receiver.url);
    await patch(founder, { readiness_score: 78 });
    await t.tick();
    expect(receiver.received).toHaveLength(1);
    expect(() =>
      new Webhook(endpoint.secret).verify(receiver.received[0]?.body ?? '', receiver.received[0]?.headers ?? {}),
    ).not.toThrow();
  });
});

describe('retries', () => {
  it('while the receiver is down: retried on the server clock with back-off, the same webhook-id; all delivered once it is back', async () => {
    const { founder, partner, endpoint } = await setUp('Flaky Ltd');
    receiver.respond = () => ({ status: 503 });
    await patch(founder, { readiness_score: 80 });
    await patch(founder, { readiness_score: 85 });
    await t.tick();
    expect(receiver.received).toHaveLength(2);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    // Not due yet: nothing is tried.
    await t.tick();
    expect(receiver.received).toHaveLength(2);
    const schedule = retrySchedule();
    expect(schedule.slice(0, 3)).toEqual([10_000, 40_000, 160_000]);
    t.clock.advance(schedule[0] ?? 0);
    await t.tick();
    expect(receiver.received.slice(2).map((r) => r.headers['webhook-id'])).toEqual(ids);
    const failing = endpointEnvelope.parse(await (await partner.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).json());
    expect(failing.data.endpoint).toMatchObject({ status: 'enabled', failure_streak: 4, messages: { pending: 2 } });
    expect(failing.data.endpoint.last_error).toBe('answered 503');

    receiver.respond = () => ({ status: 200 });
    t.clock.advance(schedule[1] ?? 0);
    await t.tick();
    expect(receiver.received.slice(4).map((r) => r.headers['webhook-id'])).toEqual(ids);
    const ok = endpointEnvelope.parse(await (await partner.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).json());
    expect(ok.data.endpoint).toMatchObject({ status: 'enabled', failure_streak: 0, messages: { pending: 0, delivered: 2 } });
    const attempts = await db.query('SELECT attempts FROM webhook_messages WHERE endpoint_id = $1 ORDER BY seq', [endpoint.id]);
    expect(attempts.rows).toEqual([{ attempts: 3 }, { attempts: 3 }]);
  });

  it('an endpoint that keeps failing is disabled (status visible); new events wait; replay re-enables and sends them with their ids', async () => {
    const { founder, partner, endpoint } = await setUp('Dead Endpoint Ltd');
    receiver.respond = () => ({ status: 500 });
    await patch(founder, { readiness_score: 74 }); // one event (no label change)
    await t.tick();
    for (const delay of retrySchedule()) {
      t.clock.advance(delay);
      await t.tick();
    }
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    const firstId = receiver.received[0]?.headers['webhook-id'];
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([firstId]));
    const disabled = endpointEnvelope.parse(await (await partner.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).json());
    expect(disabled.data.endpoint).toMatchObject({ status: 'disabled', messages: { failed: 1, pending: 0 } });
    expect(disabled.data.endpoint.disabled_reason).toMatch(/72 hours|attempts/);

    // While disabled: a new event is kept, not sent.
    await patch(founder, { readiness_score: 72 });
    await t.tick();
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);

    receiver.respond = () => ({ status: 204 });
    receiver.received.length = 0;
    const replay = await partner.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/replay`, {});
    expect(replay.status).toBe(200);
    const replayed = z.object({ data: z.object({ replayed: z.number(), endpoint: endpointSchema }) }).parse(await replay.json());
    expect(replayed.data).toMatchObject({ replayed: 1, endpoint: { status: 'enabled', failure_streak: 0 } });
    expect(t.nudges()).toBeGreaterThan(0);
    await t.tick();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([firstId, expect.stringMatching(/^evt_/)]);

    // Replaying delivered messages (`status: all`) sends them again with the same ids: receivers drop duplicates by id.
    receiver.received.length = 0;
    await partner.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/replay`, { status: 'all' });
    await t.tick();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toContain(firstId);
    const before = bodies(receiver).length;
    expect(before).toBe(2);
  });

  it('enable without replay: pending messages go out again', async () => {
    const { founder, partner, endpoint } = await setUp('Re-enabled Ltd');
    await db.query("UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = 'test' WHERE id = $1", [endpoint.id]);
    await patch(founder, { readiness_score: 78 });
    await t.tick();
    expect(receiver.received).toHaveLength(0);
    expect((await partner.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/enable`, {})).status).toBe(200);
    await t.tick();
    expect(receiver.received).toHaveLength(1);
  });
});

describe('restart in the middle of a retry', () => {
  it('a new server over the same database sends the pending retry when it falls due; the dev clock brings it forward', async () => {
    const local = await startReceiver();
    onTestFinished(() => local.close());
    let target: DatabaseTarget;
    if (TEST_DATABASE_URL) {
      const schema = `test_restart_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      onTestFinished(async () => {
        const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await cleanup.connect();
        await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
        await cleanup.end();
      });
      target = { kind: 'postgres', connectionString: TEST_DATABASE_URL, schema };
    } else {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'lens-restart-'));
      onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
      target = { kind: 'pglite', dataDir };
    }
    const options = devServerOptions(target);
    const first = await startServer({ ...options, clock: manualClock(START) });
    const { founderKey, partnerKey: key } = await followOverHttp(first.url, local.url);

    local.respond = () => ({ status: 503 });
    expect((await callServer(first.url, 'PATCH', '/api/founder/organisation', founderKey, { readiness_score: 58 })).status).toBe(
      200,
    );
    await waitFor(() => local.received.length === 1, 'the first attempt');
    const id = local.received[0]?.headers['webhook-id'];
    await first.close();

    // The receiver is back; a new server starts on the same data, its clock where the first one stopped.
    local.respond = () => ({ status: 204 });
    const second = await startServer({ ...options, clock: manualClock(START) });
    onTestFinished(() => second.close());
    // The new server has the pending message, its retry due 10 s ± 20 % after the first attempt: not yet.
    const message = z
      .object({
        data: z.object({
          message: z.object({ status: z.string(), next_attempt_at: z.string(), attempts: z.array(z.unknown()) }),
        }),
      })
      .parse(await (await callServer(second.url, 'GET', `/api/v1/webhook-messages/${String(id)}`, key)).json()).data.message;
    expect(message.status).toBe('pending');
    expect(message.attempts).toHaveLength(1);
    expect(Date.parse(message.next_attempt_at)).toBeGreaterThanOrEqual(Date.parse(START) + 8_000);
    expect(local.received).toHaveLength(1);
    const moved = await fetch(`${second.url}/api/dev/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 12_001 }), // the first retry: 10 s ± 20 % jitter
    });
    expect(moved.status).toBe(200);
    await waitFor(() => local.received.length === 2, 'the retry after the restart');
    expect(local.received[1]?.headers['webhook-id']).toBe(id);
    // The receiver has it; the server records the answer as the send ends, a moment later.
    const statuses = async () =>
      z
        .object({ data: z.object({ events: z.array(z.object({ delivery: z.object({ status: z.string() }) })) }) })
        .parse(await (await callServer(second.url, 'GET', '/api/v1/events', key)).json())
        .data.events.map((e) => e.delivery.status);
    await expect.poll(statuses, { timeout: 10_000 }).toEqual(['delivered']);
  });
});

async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
