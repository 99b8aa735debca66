/**
 * Version 1 delivery, end to end: founder changes (PATCH) on a company that one partner follows
 * through many share links, each change written as events in its transaction, then signed and sent
 * by the server's outbox worker to a local receiver in this process. Reports events per second from
 * the first change to the last delivery, and the time from a change to its delivery.
 */
import { Webhook } from 'standardwebhooks';
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

export interface WebhookBenchResult {
  follows: number;
  changes: number;
  events: number;
  delivered: number;
  duplicates: number;
  seconds: number;
  /** How long the founder's PATCHes took (each writes its events in its own transaction). */
  changes_written_s: number;
  events_per_s: number;
  change_to_delivery_p50_ms: number;
  change_to_delivery_p99_ms: number;
  signatures_checked: number;
}

export async function benchWebhooks(options: { follows: number; changes: number }): Promise<WebhookBenchResult> {
  const receiver = await startBenchReceiver();
  const server = await startBenchServer();
  try {
    const base = server.baseUrl;
    const founder = await FounderClient.signUp(base, 'Webhook Bench Ltd');
    const tokens: string[] = [];
    for (let i = 0; i < options.follows; i++) tokens.push((await founder.createShareLink()).token);
    const endpoint = await partnerFollowing(base, OPERATOR_SECRET, receiver.url, tokens);

    const expected = options.follows * options.changes;
    const started = Date.now();
    // Checklist moves change only the scores: one event per follow per change.
    for (let change = 1; change <= options.changes; change++) await founder.updateProfile({ checklist_complete: change });
    const changesWritten = Date.now();
    await waitFor(() => receiver.arrivals.size >= expected, 120_000);
    const finished = Math.max(...receiver.arrivals.values());
    const seconds = (finished - started) / 1000;
    const latencies = [...receiver.latencies].sort((a, b) => a - b);
    // Every delivery is checked with the library's verifier (outside the timing).
    const verifier = new Webhook(endpoint.secret);
    let checked = 0;
    for (const delivery of receiver.deliveries) {
      verifier.verify(delivery.raw, delivery.headers);
      checked += 1;
    }
    return {
      follows: options.follows,
      changes: options.changes,
      events: expected,
      delivered: receiver.arrivals.size,
      duplicates: receiver.duplicates(),
      seconds: Math.round(seconds * 100) / 100,
      changes_written_s: Math.round((changesWritten - started) / 10) / 100,
      events_per_s: Math.round(receiver.arrivals.size / seconds),
      change_to_delivery_p50_ms: percentile(latencies, 50),
      change_to_delivery_p99_ms: percentile(latencies, 99),
      signatures_checked: checked,
    };
  } finally {
    await stop(server.child);
    await receiver.close();
  }
}
