/**
 * Two server instances on one database deliver 1,000 events with no duplicate and none missing: each
 * has its own connection pool (PostgreSQL) and outbox worker, and both work the outbox at once. On
 * PGlite (one process) the two workers share the database: the claim logic is the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../../../server/platform/db/driver';
import { WebhookDispatcher } from '../../../server/webhooks/dispatcher';
import { createHttpSender } from '../../../server/webhooks/sender';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/db';
import { signUp } from '../support/harness';
import { addEndpoint, createPartner, follow, makeV1App, startReceiver, type Receiver } from '../support/v1';

let opened: TestDatabase;
let second: Database;
let receiver: Receiver;
beforeAll(async () => {
  opened = await openTestDatabase();
  second = await opened.openAnother();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  if (second !== opened.db) await second.close();
  await opened.close();
});

const LINKS = 100;
const CHANGES = 10;

describe(`two instances on one ${TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'} database`, () => {
  it('deliver 1,000 events once each: no duplicate, none missing', { timeout: 120_000 }, async () => {
    const t = makeV1App(opened.db);
    const founder = await signUp(t, { name: 'Busy Ltd' });
    await founder.createPack();
    const partner = await createPartner(t);
    const endpoint = await addEndpoint(partner, receiver.url);
    for (let i = 0; i < LINKS; i++) await follow(partner, (await founder.createLink()).token, { endpoint_id: endpoint.id });
    // Each change reaches every follow: 10 × 100 events, written while both workers run.
    const workers = [opened.db, second].map(
      (db) =>
        new WebhookDispatcher({
          db,
          clock: t.clock,
          sender: createHttpSender({ allowLoopback: true }),
          batchSize: 50,
          concurrency: 8,
        }),
    );
    let stop = false;
    const loops = workers.map(async (worker) => {
      while (!stop) {
        const report = await worker.tick();
        if (report.delivered + report.failed === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    for (let change = 1; change <= CHANGES; change++) {
      const response = await founder.call('PATCH', '/api/founder/organisation', { checklist_complete: change });
      expect(response.status).toBe(200);
    }
    const started = Date.now();
    while (receiver.received.length < LINKS * CHANGES && Date.now() - started < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 300)); // anything sent twice would show up now
    stop = true;
    await Promise.all(loops);

    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(LINKS * CHANGES);
    expect(new Set(ids).size).toBe(LINKS * CHANGES);
    const written = await opened.db.query('SELECT id FROM follow_events WHERE partner_id = $1', [partner.id]);
    expect(new Set(written.rows.map((row) => z.object({ id: z.string() }).parse(row).id))).toEqual(new Set(ids));
    const states = await opened.db.query(
      'SELECT status, attempts, count(*)::int AS n FROM webhook_messages WHERE partner_id = $1 GROUP BY status, attempts',
      [partner.id],
    );
    expect(states.rows).toEqual([{ status: 'delivered', attempts: 1, n: LINKS * CHANGES }]);
  });
});
