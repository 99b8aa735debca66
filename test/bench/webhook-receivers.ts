/**
 * Receivers and partner set-up for the webhook benchmarks: the server they run against, a local
 * receiver that answers 204 (at once, after a delay, or never), and the operator and partner calls
 * that point a partner's events at it.
 */
import http from 'node:http';
import path from 'node:path';
import { z } from 'zod';
import { listenLocal } from '../server/support/local-server';
import { OPERATOR_SECRET, startProcess } from './server';

const repoRoot = path.resolve(import.meta.dirname, '../..');

export { OPERATOR_SECRET };

/** `server/cli.ts` on a free port with `--dev` (loopback receivers) and the operator API: in memory, or on `databaseUrl`. */
export function startBenchServer(databaseUrl?: string): ReturnType<typeof startProcess> {
  const args = [path.join(repoRoot, 'server/cli.ts'), '--port', '0', '--dev', '--operator-secret', OPERATOR_SECRET];
  return databaseUrl === undefined ? startProcess([...args, '--memory']) : startProcess(args, { DATABASE_URL: databaseUrl });
}

export interface BenchReceiver {
  url: string;
  /** First arrival time (Date.now()) of each webhook-id. */
  arrivals: Map<string, number>;
  /** For each first arrival: its time less the event's `timestamp` (the change, on the server's clock). */
  latencies: number[];
  /** Each first arrival's raw body and headers, for checking signatures outside the timing. */
  deliveries: { raw: string; headers: Record<string, string> }[];
  /** Arrivals of an id seen before. */
  duplicates(): number;
  /** Requests received and not answered yet. */
  open(): number;
  close(): Promise<void>;
}

const eventBody = z.object({ timestamp: z.string() });

/** A receiver on 127.0.0.1 answering 204 after `delayMs` (default at once), or never (`hang`). */
export async function startBenchReceiver(options: { delayMs?: () => number; hang?: boolean } = {}): Promise<BenchReceiver> {
  const arrivals = new Map<string, number>();
  const latencies: number[] = [];
  const deliveries: BenchReceiver['deliveries'] = [];
  let duplicates = 0;
  let open = 0;
  const server = http.createServer((request, response) => {
    open += 1;
    response.on('close', () => (open -= 1));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      const now = Date.now();
      if (arrivals.has(id)) duplicates += 1;
      else {
        const raw = Buffer.concat(chunks).toString('utf8');
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
        arrivals.set(id, now);
        latencies.push(now - Date.parse(eventBody.parse(JSON.parse(raw)).timestamp));
        deliveries.push({ raw, headers });
      }
      if (options.hang) return;
      const answer = () => response.writeHead(204).end();
      const delay = options.delayMs?.();
      if (delay === undefined) answer();
      else setTimeout(answer, delay);
    });
  });
  const listening = await listenLocal(server);
  return {
    url: `${listening.base}/webhook`,
    arrivals,
    latencies,
    deliveries,
    duplicates: () => duplicates,
    open: () => open,
    close: listening.close,
  };
}

export async function post(url: string, bearer: string, payload: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  if (!response.ok) throw new Error(`POST ${url} → ${response.status}: ${await response.text()}`);
  return response.json();
}

/** A partner (from the operator API) whose events go to `receiverUrl`; follows each token. */
export async function partnerFollowing(
  base: string,
  operatorSecret: string,
  receiverUrl: string,
  tokens: readonly string[],
): Promise<{ key: string; secret: string }> {
  const key = z
    .object({ data: z.object({ partner_key: z.object({ key: z.string() }) }) })
    .parse(await post(`${base}/api/operator/partner-keys`, operatorSecret, { name: 'Bench Fund', quota_per_minute: 100_000 }))
    .data.partner_key.key;
  const endpoint = z
    .object({ data: z.object({ endpoint: z.object({ secret: z.string() }) }) })
    .parse(await post(`${base}/api/v1/webhook-endpoints`, key, { url: receiverUrl })).data.endpoint;
  for (const token of tokens) await post(`${base}/api/v1/follows`, key, { token });
  return { key, secret: endpoint.secret };
}

/** The value at `p` per cent of a sorted list (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}
