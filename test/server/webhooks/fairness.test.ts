/**
 * One endpoint cannot delay another's events (DESIGN, docs/api-decisions.md "Worker"): with hundreds of
 * events queued for a receiver that accepts connections and never answers, another partner's event
 * arrives within seconds, on one instance and on two sharing the database. The hanging endpoint holds
 * at most its share of the send slots. Issue #34 measured the other partner waiting over 60 s.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../server/platform/clock';
import type { Database } from '../../../server/platform/db/driver';
import { DEFAULT_PER_ENDPOINT, WebhookDispatcher } from '../../../server/webhooks/dispatcher';
import { createHttpSender } from '../../../server/webhooks/sender';
import { listenLocal } from '../support/local-server';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/db';
import { founderWithLink, signUp } from '../support/harness';
import { addEndpoint, createPartner, follow, makeV1App, startReceiver, type Receiver } from '../support/v1';

const QUEUED = 250;
const WITHIN_MS = 5_000;

let opened: TestDatabase;
let second: Database;
beforeAll(async () => {
  opened = await openTestDatabase();
  second = await opened.openAnother();
});
afterAll(async () => {
  if (second !== opened.db) await second.close();
  await opened.close();
});

/** An HTTP server that takes every request and never answers; counts the requests it holds open. */
async function startHangingReceiver(): Promise<{ url: string; open: () => number; close(): Promise<void> }> {
  let open = 0;
  const server = http.createServer((_request, response) => {
    open += 1;
    response.on('close', () => (open -= 1));
  });
  const listening = await listenLocal(server);
  return { url: `${listening.base}/webhook`, open: () => open, close: listening.close };
}

/** One server instance's outbox worker with the default sender (5 s to connect, 10 s to answer). */
function startWorker(db: Database, clock: Clock): { nudge(): void; stop(): Promise<void> } {
  const sender = createHttpSender({ allowLoopback: true });
  const worker = new WebhookDispatcher({ db, clock, sender });
  const lifetime = new AbortController();
  const running = worker.run(lifetime.signal);
  return {
    nudge: () => worker.nudge(),
    async stop() {
      lifetime.abort();
      await running;
      sender.close();
    },
  };
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!condition() && Date.now() - started < timeoutMs) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe(`a receiver that never answers, on ${TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`, () => {
  it.each([1, 2])(
    `${QUEUED} events queued for it; another partner's event arrives within 5 s (%i instance(s))`,
    { timeout: 120_000 },
    async (instances) => {
      const t = makeV1App(opened.db);
      const hanging = await startHangingReceiver();
      let receiver: Receiver | undefined;
      const workers: { nudge(): void; stop(): Promise<void> }[] = [];
      try {
        // The stuck partner: 25 followed links, changed 10 times, before any worker runs.
        const busy = await signUp(t);
        await busy.createPack();
        const stuck = await createPartner(t);
        const stuckEndpoint = await addEndpoint(stuck, hanging.url);
        for (let i = 0; i < 25; i++) await follow(stuck, (await busy.createLink()).token, { endpoint_id: stuckEndpoint.id });
        for (let change = 1; change <= QUEUED / 25; change++) {
          expect((await busy.call('PATCH', '/api/founder/organisation', { checklist_complete: change })).status).toBe(200);
        }
        // Another partner, following another company.
        receiver = await startReceiver();
        const other = await createPartner(t);
        const { founder, link } = await founderWithLink(t);
        await follow(other, link.token, { endpoint_id: (await addEndpoint(other, receiver.url)).id });

        for (const db of [opened.db, second].slice(0, instances)) workers.push(startWorker(db, t.clock));
        // The workers are busy with the stuck endpoint: its requests hang.
        await waitFor(() => hanging.open() >= DEFAULT_PER_ENDPOINT, 30_000);
        expect(hanging.open()).toBeGreaterThanOrEqual(DEFAULT_PER_ENDPOINT);

        const changed = Date.now();
        expect((await founder.call('PATCH', '/api/founder/organisation', { readiness_score: 80 })).status).toBe(200);
        workers[0]?.nudge(); // the founder route nudges the instance it ran on
        await waitFor(() => (receiver?.received.length ?? 0) > 0, 60_000);
        const waited = Date.now() - changed;
        expect(receiver.received.length, 'no delivery within 60 s').toBeGreaterThan(0);
        expect(waited).toBeLessThan(WITHIN_MS);
        // Its share of the slots, whatever its backlog (each instance's claim counts every live lease).
        expect(hanging.open()).toBeLessThanOrEqual(DEFAULT_PER_ENDPOINT * instances);
      } finally {
        await hanging.close(); // its sends fail at once, so the workers stop without waiting out the timeout
        await Promise.all(workers.map((worker) => worker.stop()));
        await receiver?.close();
      }
    },
  );
});
