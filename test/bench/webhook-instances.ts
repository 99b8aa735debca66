/**
 * Throughput to slow receivers on two server instances sharing one PostgreSQL (issue #34 item 1):
 * `partners` partners, each with a receiver answering 204 after `delayMs`, follow `follows` links of one
 * company, which changes `changes` times through instance A; A and B both deliver. Reports events per
 * second from the first change to the last arrival, and duplicates (must be 0: exactly once).
 *
 * Needs PostgreSQL: TEST_DATABASE_URL (a throwaway schema is made in it), or, when that is unset,
 * this file runs itself under scripts/with-postgres.sh (a throwaway cluster).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { z } from 'zod';
import { FounderClient } from '../e2e/support/server';
import { stop } from './server';
import {
  OPERATOR_SECRET,
  partnerFollowing,
  percentile,
  startBenchReceiver,
  startBenchServer,
  waitFor,
  type BenchReceiver,
} from './webhook-receivers';

const repoRoot = path.resolve(import.meta.dirname, '../..');

const optionsSchema = z.object({
  partners: z.int().min(1),
  follows: z.int().min(1),
  changes: z.int().min(1),
  delayMs: z.int().min(0),
});
export type WebhookInstancesOptions = z.infer<typeof optionsSchema>;

const resultSchema = z.object({
  instances: z.literal(2),
  partners: z.int(),
  receiver_delay_ms: z.int(),
  events: z.int(),
  delivered: z.int(),
  duplicates: z.int(),
  seconds: z.number(),
  events_per_s: z.number(),
  change_to_delivery_p50_ms: z.number(),
  change_to_delivery_p99_ms: z.number(),
});
export type WebhookInstancesResult = z.infer<typeof resultSchema>;

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function measure(databaseUrl: string, options: WebhookInstancesOptions): Promise<WebhookInstancesResult> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  await withAdmin(databaseUrl, (c) => c.query(`CREATE SCHEMA ${schema}`));
  try {
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return await measureOn(url.toString(), options);
  } finally {
    await withAdmin(databaseUrl, (c) => c.query(`DROP SCHEMA ${schema} CASCADE`));
  }
}

async function measureOn(databaseUrl: string, options: WebhookInstancesOptions): Promise<WebhookInstancesResult> {
  const receivers: BenchReceiver[] = [];
  // One after the other: the second finds the migrations done.
  const a = await startBenchServer(databaseUrl);
  const b = await startBenchServer(databaseUrl).catch(async (error: unknown) => {
    await stop(a.child);
    throw error;
  });
  try {
    const founder = await FounderClient.signUp(a.baseUrl, 'Slow Receivers Ltd');
    const tokens: string[] = [];
    for (let i = 0; i < options.follows; i++) tokens.push((await founder.createShareLink()).token);
    for (let p = 0; p < options.partners; p++) {
      const receiver = await startBenchReceiver({ delayMs: () => options.delayMs });
      receivers.push(receiver);
      await partnerFollowing(a.baseUrl, OPERATOR_SECRET, receiver.url, tokens);
    }
    const events = options.partners * options.follows * options.changes;
    const started = Date.now();
    for (let change = 1; change <= options.changes; change++) await founder.updateProfile({ checklist_complete: change });
    const arrived = () => receivers.reduce((n, r) => n + r.arrivals.size, 0);
    await waitFor(() => arrived() >= events, 300_000);
    const finished = Math.max(...receivers.flatMap((r) => [...r.arrivals.values()]));
    const latencies = receivers.flatMap((r) => r.latencies).sort((x, y) => x - y);
    const seconds = (finished - started) / 1000;
    return {
      instances: 2,
      partners: options.partners,
      receiver_delay_ms: options.delayMs,
      events,
      delivered: arrived(),
      duplicates: receivers.reduce((n, r) => n + r.duplicates(), 0),
      seconds: Math.round(seconds * 100) / 100,
      events_per_s: Math.round((arrived() / seconds) * 10) / 10,
      change_to_delivery_p50_ms: percentile(latencies, 50),
      change_to_delivery_p99_ms: percentile(latencies, 99),
    };
  } finally {
    await Promise.all([stop(a.child), stop(b.child)]);
    await Promise.all(receivers.map((r) => r.close()));
  }
}

/** The case, on TEST_DATABASE_URL, or under a throwaway PostgreSQL (scripts/with-postgres.sh); a reason when neither can run. */
export async function benchWebhookInstances(
  options: WebhookInstancesOptions,
): Promise<WebhookInstancesResult | { skipped: string }> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (databaseUrl) return measure(databaseUrl, options);
  const child = spawn(
    'bash',
    [
      path.join(repoRoot, 'scripts/with-postgres.sh'),
      process.execPath,
      '--import',
      'tsx',
      import.meta.filename,
      JSON.stringify(options),
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const last = stdout.trim().split('\n').at(-1) ?? '';
  if (code !== 0)
    return { skipped: `needs PostgreSQL (scripts/with-postgres.sh exited ${code}): ${stderr.trim().split('\n').at(-1) ?? ''}` };
  return resultSchema.parse(JSON.parse(last));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('run under scripts/with-postgres.sh (TEST_DATABASE_URL)');
  const result = await measure(databaseUrl, optionsSchema.parse(JSON.parse(process.argv[2] ?? '{}')));
  console.log(JSON.stringify(result));
}
