/**
 * The server's sections of `npm run bench`: snapshot throughput beside a bare Hono handler, signed
 * and with signing off, without and with a partner key, exact view counting (a deterministic budget),
 * and version 1's webhook delivery: from change to signed delivery, to a fast receiver while another
 * endpoint hangs, and to slow receivers from two instances on one PostgreSQL. `npm run bench --
 * --server-only` runs only these; `-- --signing-only` the snapshot section and the background's check.
 */
import { benchServer } from './server';
import { benchWebhookFairness } from './webhook-fairness';
import { benchWebhookInstances } from './webhook-instances';
import { benchWebhooks } from './webhooks';

interface SectionOptions {
  quick: boolean;
  elapsed: () => string;
  failures: string[];
}

/** 4. Server under load beside a bare Hono handler, signed and not, and exact view counting (deterministic budget). */
export async function runSnapshotSection({ quick, elapsed, failures }: SectionOptions) {
  const server = await benchServer({
    connections: quick ? [50] : [10, 50, 100],
    durationS: quick ? 3 : 8,
    exactAmount: quick ? 2_000 : 5_000,
  });
  console.log(
    `\nServer: GET /api/v1/compliance-status/{token} (limiter on, trusted proxy, a new X-Forwarded-For per 50 requests; "partner key": the same with Authorization: Bearer <partner key>) [${elapsed()}]`,
  );
  console.table(server.results);
  console.log(
    `exact counting: ${server.viewCount.requests} requests over ${server.viewCount.connections} connections → view_count ${server.viewCount.actual} (successful responses: ${server.viewCount.expected})`,
  );
  if (!server.viewCount.exact) failures.push('view counting was not exact under load');
  console.log(
    '\nSigning the snapshot answers (issue #36): the same server with signing off (createApp signAnswers: false), the same load; runs signed, off, off, signed; req/s the mean of two runs, p99 the worse. Goal: signed / off ≥ 0.9',
  );
  console.table(server.signing);
  return server;
}

export async function runServerSections(options: SectionOptions) {
  const { quick, elapsed, failures } = options;
  const server = await runSnapshotSection(options);

  // 5. Version 1: founder change → events in its transaction → outbox → signed POST to a local receiver.
  const webhooks = await benchWebhooks({ follows: 100, changes: quick ? 5 : 20 });
  console.log(
    `\nWebhooks: PATCH by the founder → signed delivery to a local receiver (one partner, one endpoint) [${elapsed()}]`,
  );
  console.table([webhooks]);
  if (webhooks.delivered !== webhooks.events || webhooks.duplicates > 0) {
    failures.push(
      `webhook delivery lost or repeated events: ${webhooks.delivered}/${webhooks.events}, ${webhooks.duplicates} duplicates`,
    );
  }

  // 6. One endpoint cannot delay another's events: latency to a fast receiver while another hangs.
  const webhookFairness = await benchWebhookFairness({ queued: 250, changes: quick ? 5 : 20 });
  console.log(
    `\nWebhooks, fairness: founder change → delivery to a fast receiver while another partner's receiver never answers, with events queued for it [${elapsed()}]`,
  );
  console.table([webhookFairness]);
  if (webhookFairness.delivered !== webhookFairness.changes) {
    failures.push(
      `webhook fairness: ${webhookFairness.delivered}/${webhookFairness.changes} events reached the fast receiver within 60 s`,
    );
  }

  // 7. Two instances on one PostgreSQL, receivers answering after a second: throughput, exactly once.
  const webhookInstances = await benchWebhookInstances({ partners: 8, follows: 25, changes: quick ? 1 : 2, delayMs: 1_000 });
  console.log(`\nWebhooks, two instances on one PostgreSQL, receivers answering after 1 s [${elapsed()}]`);
  console.table([webhookInstances]);
  if (
    'duplicates' in webhookInstances &&
    (webhookInstances.duplicates > 0 || webhookInstances.delivered !== webhookInstances.events)
  ) {
    failures.push(
      `webhook delivery on two instances lost or repeated events: ${webhookInstances.delivered}/${webhookInstances.events}, ${webhookInstances.duplicates} duplicates`,
    );
  }
  return { server, webhooks, webhookFairness, webhookInstances };
}
