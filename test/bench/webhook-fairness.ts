/**
 * Delivery latency to a fast receiver while another partner's endpoint hangs (issue #34 item 2): one
 * server, a partner whose receiver takes requests and never answers, with `queued` events waiting for
 * it; then another partner's company changes `changes` times, one at a time, and each change's event
 * is timed from the founder's PATCH to its arrival at a receiver that answers at once.
 */
import { FounderClient } from '../e2e/support/server';
import { stop } from './server';
import {
  OPERATOR_SECRET,
  partnerFollowing,
  percentile,
  startBenchReceiver,
  startBenchServer,
  waitFor,
} from './webhook-receivers';
/** Followed links of the stuck partner; each founder change queues one event per link. */
const STUCK_LINKS = 25;

export interface WebhookFairnessResult {
  queued_for_hanging_endpoint: number;
  /** Requests the hanging receiver held open at most: its share of the send slots. */
  hanging_requests_open_max: number;
  changes: number;
  delivered: number;
  change_to_delivery_p50_ms: number;
  change_to_delivery_p99_ms: number;
  change_to_delivery_max_ms: number;
}

export async function benchWebhookFairness(options: { queued: number; changes: number }): Promise<WebhookFairnessResult> {
  const hanging = await startBenchReceiver({ hang: true });
  const fast = await startBenchReceiver();
  const server = await startBenchServer();
  try {
    const base = server.baseUrl;
    const busy = await FounderClient.signUp(base, 'Backlog Ltd');
    const stuckTokens: string[] = [];
    for (let i = 0; i < STUCK_LINKS; i++) stuckTokens.push((await busy.createShareLink()).token);
    await partnerFollowing(base, OPERATOR_SECRET, hanging.url, stuckTokens);
    for (let change = 1; change <= Math.ceil(options.queued / STUCK_LINKS); change++) {
      await busy.updateProfile({ checklist_complete: change });
    }
    // The worker is busy with the stuck endpoint before the other partner's changes begin.
    await waitFor(() => hanging.open() > 0, 30_000);

    const other = await FounderClient.signUp(base, 'Punctual Ltd');
    await partnerFollowing(base, OPERATOR_SECRET, fast.url, [(await other.createShareLink()).token]);
    let openMax = hanging.open();
    for (let change = 1; change <= options.changes; change++) {
      const before = fast.arrivals.size;
      await other.updateProfile({ checklist_complete: change });
      if (!(await waitFor(() => fast.arrivals.size > before, 60_000))) break;
      openMax = Math.max(openMax, hanging.open());
    }
    const latencies = [...fast.latencies].sort((a, b) => a - b);
    return {
      queued_for_hanging_endpoint: Math.ceil(options.queued / STUCK_LINKS) * STUCK_LINKS,
      hanging_requests_open_max: openMax,
      changes: options.changes,
      delivered: latencies.length,
      change_to_delivery_p50_ms: percentile(latencies, 50),
      change_to_delivery_p99_ms: percentile(latencies, 99),
      change_to_delivery_max_ms: latencies.at(-1) ?? Number.NaN,
    };
  } finally {
    await hanging.close(); // its sends fail at once, so the server stops without waiting out their timeout
    await stop(server.child);
    await fast.close();
  }
}
