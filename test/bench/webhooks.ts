/**
 * Version 1 delivery, end to end: founder changes (PATCH) on a company that one partner follows
 * through many share links, each change written as events in its transaction, then signed and sent
 * by the server's outbox worker to a local receiver in this process. Reports events per second from
 * the first change to the last delivery, and the time from a change to its delivery.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import { FounderClient } from '../e2e/support/server';
import { startProcess, stop } from './server';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const OPERATOR_SECRET = 'bench-operator-secret';

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

const body = z.object({ timestamp: z.string() });

/** The value at `p` per cent of a sorted list (nearest rank). */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

async function post(url: string, key: string, payload: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  if (!response.ok) throw new Error(`POST ${url} → ${response.status}: ${await response.text()}`);
  return response.json();
}

export async function benchWebhooks(options: { follows: number; changes: number }): Promise<WebhookBenchResult> {
  const arrivals = new Map<string, number>();
  let duplicates = 0;
  const bodies: { id: string; timestamp: string; arrivedAt: number; raw: string; headers: Record<string, string> }[] = [];
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      const raw = Buffer.concat(chunks).toString('utf8');
      if (arrivals.has(id)) duplicates += 1;
      else {
        const arrivedAt = Date.now();
        arrivals.set(id, arrivedAt);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
        bodies.push({ id, timestamp: body.parse(JSON.parse(raw)).timestamp, arrivedAt, raw, headers });
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
  const server = await startProcess([
    path.join(repoRoot, 'server/cli.ts'),
    '--port',
    '0',
    '--memory',
    '--dev',
    '--operator-secret',
    OPERATOR_SECRET,
  ]);
  try {
    const base = server.baseUrl;
    const founder = await FounderClient.signUp(base, 'Webhook Bench Ltd');
    const tokens: string[] = [];
    for (let i = 0; i < options.follows; i++) tokens.push((await founder.createShareLink()).token);
    const key = z
      .object({ data: z.object({ partner_key: z.object({ key: z.string() }) }) })
      .parse(await post(`${base}/api/operator/partner-keys`, OPERATOR_SECRET, { name: 'Bench Fund', quota_per_minute: 100_000 }))
      .data.partner_key.key;
    const endpoint = z
      .object({ data: z.object({ endpoint: z.object({ secret: z.string() }) }) })
      .parse(await post(`${base}/api/v1/webhook-endpoints`, key, { url: receiverUrl })).data.endpoint;
    for (const token of tokens) await post(`${base}/api/v1/follows`, key, { token });

    const expected = options.follows * options.changes;
    const started = Date.now();
    // Checklist moves change only the scores: one event per follow per change.
    for (let change = 1; change <= options.changes; change++) await founder.updateProfile({ checklist_complete: change });
    const changesWritten = Date.now();
    while (arrivals.size < expected && Date.now() - started < 120_000) await new Promise((resolve) => setTimeout(resolve, 5));
    const finished = Math.max(...arrivals.values());
    const seconds = (finished - started) / 1000;
    const latencies = bodies.map((b) => b.arrivedAt - Date.parse(b.timestamp)).sort((a, b) => a - b);
    // Every delivery is checked with the library's verifier (outside the timing).
    const verifier = new Webhook(endpoint.secret);
    let checked = 0;
    for (const delivery of bodies) {
      verifier.verify(delivery.raw, delivery.headers);
      checked += 1;
    }
    return {
      follows: options.follows,
      changes: options.changes,
      events: expected,
      delivered: arrivals.size,
      duplicates,
      seconds: Math.round(seconds * 100) / 100,
      changes_written_s: Math.round((changesWritten - started) / 10) / 100,
      events_per_s: Math.round(arrivals.size / seconds),
      change_to_delivery_p50_ms: percentile(latencies, 50),
      change_to_delivery_p99_ms: percentile(latencies, 99),
      signatures_checked: checked,
    };
  } finally {
    await stop(server.child);
    receiver.closeAllConnections();
    receiver.close();
  }
}
