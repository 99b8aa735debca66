import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { FounderClient } from '../e2e/support/server';

const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface LoadResult {
  target: 'server' | 'bare-hono';
  connections: number;
  requests: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  errors: number;
}

function startProcess(args: string[]): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve({ child, baseUrl: match[1] });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}

/**
 * Load from many simulated clients: each request carries an X-Forwarded-For address that changes
 * every 50 requests, so no client passes the 60/minute limit while the limiter stays on.
 */
async function load(url: string, connections: number, durationS: number): Promise<Omit<LoadResult, 'target'>> {
  let sent = 0;
  const result = await autocannon({
    url,
    connections,
    duration: durationS,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const client = Math.floor(sent++ / 50);
          const address = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
          return { ...request, headers: { ...request.headers, 'x-forwarded-for': address } };
        },
      },
    ],
  });
  return {
    connections,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export async function benchServer(options: { connections: number[]; durationS: number }): Promise<{
  results: LoadResult[];
  viewCount: { expected: number; actual: number; exact: boolean };
}> {
  const results: LoadResult[] = [];
  const bare = await startProcess([path.join(repoRoot, 'test/bench/bare-hono.ts')]);
  const real = await startProcess([path.join(repoRoot, 'server/cli.ts'), '--port', '0', '--memory', '--trust-proxy']);
  try {
    const founder = await FounderClient.signUp(real.baseUrl, 'Benchmark Pay Ltd');
    const link = await founder.createShareLink();
    const realUrl = `${real.baseUrl}/api/v1/compliance-status/${link.token}`;
    const bareUrl = `${bare.baseUrl}/api/v1/compliance-status/${link.token}`;
    let successes = 0;
    for (const connections of options.connections) {
      const baseline = await load(bareUrl, connections, options.durationS);
      results.push({ target: 'bare-hono', ...baseline });
      const measured = await load(realUrl, connections, options.durationS);
      results.push({ target: 'server', ...measured });
      successes += measured.requests - measured.non2xx;
    }
    const actual = await founder.viewCount(link.id);
    return { results, viewCount: { expected: successes, actual, exact: actual === successes } };
  } finally {
    await Promise.all([stop(bare.child), stop(real.child)]);
  }
}
