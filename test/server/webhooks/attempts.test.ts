/**
 * What a partner sees of its deliveries (issue #34 item 5): every attempt of a message through the API,
 * as Svix and Stripe show them (when, the status or the error, how long it took), and what a receiver's
 * 410 Gone does (REST Hooks: the endpoint is disabled; nothing is lost).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GONE_REASON } from '../../../server/webhooks/dispatcher';
import { retrySchedule } from '../../../server/webhooks/retry';
import { endpointSchema, messageSchema } from '../../../server/webhooks/schemas';
import { partnerEventSchema } from '../../../server/partners/schemas';
import { expectError, founderWithLink, type Founder } from '../support/harness';
import {
  addEndpoint,
  createPartner,
  follow,
  type Partner,
  type Receiver,
  type V1App,
  withV1App,
  withReceiver,
} from '../support/v1';

let t: V1App;
let receiver: Receiver;
withV1App((app) => {
  t = app;
});
withReceiver((started) => {
  receiver = started;
});

const messageEnvelope = z.object({ data: z.object({ message: messageSchema }) });
const endpointEnvelope = z.object({ data: z.object({ endpoint: endpointSchema }) });
const eventsEnvelope = z.object({ data: z.object({ events: z.array(partnerEventSchema) }) });

async function setUp(): Promise<{ founder: Founder; partner: Partner; endpoint: { id: string } }> {
  const { founder, link } = await founderWithLink(t);
  const partner = await createPartner(t);
  const endpoint = await addEndpoint(partner, receiver.url);
  await follow(partner, link.token, { endpoint_id: endpoint.id });
  receiver.received.length = 0;
  return { founder, partner, endpoint };
}

/** A port nothing listens on: the attempt is refused before any answer. */
async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/webhook`;
}

const getMessage = async (partner: Partner, id: string) =>
  messageEnvelope.parse(await (await partner.call('GET', `/api/v1/webhook-messages/${id}`)).json()).data.message;

describe('GET /api/v1/webhook-messages/{id}', () => {
  it('every attempt of a message: when (server clock), the status or the error, how long; the next attempt while pending', async () => {
    const { founder, partner } = await setUp();
    const answers = [{ status: 503 }, { status: 500, delayMs: 300 }, { status: 204, delayMs: 50 }];
    receiver.respond = () => answers.shift() ?? { status: 204 };
    expect((await founder.call('PATCH', '/api/founder/organisation', { readiness_score: 80 })).status).toBe(200);
    const times: string[] = [];
    times.push(t.clock.now().toISOString());
    await t.tick();
    const id = receiver.received[0]?.headers['webhook-id'] ?? '';
    const pending = await getMessage(partner, id);
    expect(pending).toMatchObject({ id, type: 'snapshot.scores_changed', status: 'pending', delivered_at: null });
    expect(pending.attempts).toMatchObject([{ attempted_at: times[0], status: 503, error: 'answered 503', delivered: false }]);
    expect(pending.attempts[0]?.duration_ms).toBeGreaterThanOrEqual(0);
    const [first, second] = retrySchedule();
    expect(pending.next_attempt_at).toBe(new Date(t.clock.now().getTime() + (first ?? 0)).toISOString());

    t.clock.advance(first ?? 0);
    times.push(t.clock.now().toISOString());
    await t.tick();
    t.clock.advance(second ?? 0);
    times.push(t.clock.now().toISOString());
    await t.tick();

    const delivered = await getMessage(partner, id);
    expect(delivered).toMatchObject({ status: 'delivered', next_attempt_at: null, delivered_at: times[2] });
    expect(
      delivered.attempts.map(({ attempted_at, status, error, delivered: ok }) => ({ attempted_at, status, error, ok })),
    ).toEqual([
      { attempted_at: times[0], status: 503, error: 'answered 503', ok: false },
      { attempted_at: times[1], status: 500, error: 'answered 500', ok: false },
      { attempted_at: times[2], status: 204, error: null, ok: true },
    ]);
    // The slow answer took at least its 300 ms.
    expect(delivered.attempts[1]?.duration_ms).toBeGreaterThanOrEqual(300);

    // The events list carries the same state: how many attempts, the last one.
    const events = eventsEnvelope.parse(await (await partner.call('GET', '/api/v1/events')).json()).data.events;
    const event = events.find((e) => e.data.event_id === id);
    expect(event?.delivery).toMatchObject({
      mode: 'immediate',
      message_id: id,
      status: 'delivered',
      attempts: 3,
      next_attempt_at: null,
    });
    expect(event?.delivery.last_attempt).toEqual(delivered.attempts[2]);
  });

  it('an attempt with no answer has no status, and says what went wrong', async () => {
    const { founder, partner } = await setUp();
    const unreachable = await addEndpoint(partner, await closedPortUrl());
    const follows = z
      .object({ data: z.object({ follows: z.array(z.object({ id: z.string() })) }) })
      .parse(await (await partner.call('GET', '/api/v1/follows')).json()).data.follows;
    await partner.call('PATCH', `/api/v1/follows/${follows[0]?.id ?? ''}`, { endpoint_id: unreachable.id });
    await founder.call('PATCH', '/api/founder/organisation', { readiness_score: 79 });
    await t.tick();
    const events = eventsEnvelope.parse(await (await partner.call('GET', '/api/v1/events')).json()).data.events;
    const id = events.at(-1)?.delivery.message_id ?? '';
    const message = await getMessage(partner, id);
    expect(message.status).toBe('pending');
    expect(message.attempts).toHaveLength(1);
    expect(message.attempts[0]).toMatchObject({ status: null, delivered: false });
    expect(message.attempts[0]?.error).toMatch(/ECONNREFUSED/);
  });

  it("another partner's message, or an id that cannot be one, is 404", async () => {
    const { founder } = await setUp();
    await founder.call('PATCH', '/api/founder/organisation', { readiness_score: 81 });
    await t.tick();
    const id = receiver.received[0]?.headers['webhook-id'] ?? '';
    const stranger = await createPartner(t);
    await expectError(await stranger.call('GET', `/api/v1/webhook-messages/${id}`), 404, 'NOT_FOUND');
    await expectError(await stranger.call('GET', '/api/v1/webhook-messages/%00'), 404, 'NOT_FOUND');
  });
});

describe('410 Gone', () => {
  it('disables the endpoint at once (REST Hooks); the event is kept, not failed, and goes out once it is enabled', async () => {
    const { founder, partner, endpoint } = await setUp();
    receiver.respond = () => ({ status: 410 });
    await founder.call('PATCH', '/api/founder/organisation', { readiness_score: 82 });
    await t.tick();
    expect(receiver.received).toHaveLength(1);
    const id = receiver.received[0]?.headers['webhook-id'] ?? '';
    const gone = endpointEnvelope.parse(await (await partner.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).json());
    expect(gone.data.endpoint).toMatchObject({ status: 'disabled', disabled_reason: GONE_REASON, messages: { pending: 1 } });
    expect((await getMessage(partner, id)).attempts).toMatchObject([{ status: 410, error: 'answered 410', delivered: false }]);

    // Nothing more is sent to it, not even when the retry falls due.
    await founder.call('PATCH', '/api/founder/organisation', { readiness_score: 83 });
    t.clock.advance(retrySchedule()[0] ?? 0);
    await t.tick();
    expect(receiver.received).toHaveLength(1);

    // The partner turns it back on: both events arrive.
    receiver.respond = () => ({ status: 204 });
    expect((await partner.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/enable`, {})).status).toBe(200);
    await t.tick();
    expect(receiver.received.slice(1).map((r) => r.headers['webhook-id'])).toEqual(expect.arrayContaining([id]));
    expect(receiver.received).toHaveLength(3);
  });

  it('a 404 or 5xx does not disable: only 410 says the receiver is gone', async () => {
    const { founder, partner, endpoint } = await setUp();
    receiver.respond = () => ({ status: 404 });
    await founder.call('PATCH', '/api/founder/organisation', { readiness_score: 84 });
    await t.tick();
    const kept = endpointEnvelope.parse(await (await partner.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).json());
    expect(kept.data.endpoint).toMatchObject({ status: 'enabled', failure_streak: 1, last_error: 'answered 404' });
  });
});
