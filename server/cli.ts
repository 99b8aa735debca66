/**
 * `npm run server -- [--port N] [--host H] [--allowed-host NAME]… [--memory | --data DIR] [--dev] [--seed [--reseed]]
 *   [--trust-proxy] [--operator-secret S]`, or `npm run server -- keys …` (server/partners/keys-cli.ts).
 * Thin: parse flags, start, stop on SIGINT/SIGTERM.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { messageOf } from '../lib/core/thrown';
import type { DatabaseTarget } from './platform/db/open';
import { allowedHostName } from './platform/http/hosts';
import { runKeysCommand } from './partners/keys-cli';
import { PortUnavailableError, startServer } from './start';

const USAGE =
  'usage: npm run server -- [--port N] [--host H] [--allowed-host NAME]... [--memory | --data DIR] [--dev] [--seed [--reseed]]\n' +
  '                         [--trust-proxy] [--operator-secret S]\n' +
  '       npm run server -- keys (create --name NAME [--quota N] | list | rotate ID [--grace-seconds N] | revoke ID)\n' +
  '                         [--memory | --data DIR] [--json]\n' +
  '       npm run server -- keys signing (rotate | list) [--memory | --data DIR] [--json]\n' +
  '  defaults: --port 8787 --host 127.0.0.1 --data .data/pglite; DATABASE_URL selects PostgreSQL\n' +
  '  --seed keeps the demo data of an earlier start (--reseed starts over); --operator-secret (or OPERATOR_SECRET)\n' +
  '  enables the operator API (partner keys)\n' +
  '  (an explicit --memory or --data wins over DATABASE_URL); PUBLIC_BASE_URL overrides link URLs\n' +
  '  answers Host localhost, 127.0.0.1, [::1], the --host name (any IP address for 0.0.0.0 or ::), the\n' +
  '  PUBLIC_BASE_URL host and each --allowed-host NAME (repeatable); other Host names get 421 (DNS rebinding)';

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function parse() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        'allowed-host': { type: 'string', multiple: true, default: [] },
        memory: { type: 'boolean', default: false },
        data: { type: 'string' },
        dev: { type: 'boolean', default: false },
        seed: { type: 'boolean', default: false },
        reseed: { type: 'boolean', default: false },
        'trust-proxy': { type: 'boolean', default: false },
        'operator-secret': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(messageOf(error));
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65_535) fail(`invalid --port: ${values.port}`);
  if (values.memory && values.data !== undefined) fail('use either --memory or --data, not both');
  const allowedHosts = z.array(allowedHostName).safeParse(values['allowed-host']);
  if (!allowedHosts.success) fail(`invalid --allowed-host: ${allowedHosts.error.issues[0]?.message ?? 'not a host name'}`);

  if (values.reseed && !values.seed) fail('--reseed goes with --seed');
  const operatorSecret = values['operator-secret'] ?? (process.env.OPERATOR_SECRET || undefined);
  if (operatorSecret === '') fail('--operator-secret needs a value');
  return {
    port,
    host: values.host,
    allowedHosts: allowedHosts.data,
    database: databaseTarget(values),
    dev: values.dev,
    seed: values.seed,
    reseed: values.reseed,
    trustProxy: values['trust-proxy'],
    operatorSecret,
  };
}

/** `--memory` or `--data DIR` when given; otherwise `DATABASE_URL` when set; otherwise `.data/pglite`. */
export function databaseTarget(values: { memory?: boolean; data?: string }): DatabaseTarget {
  const databaseUrl = process.env.DATABASE_URL;
  if (values.memory) return { kind: 'pglite' };
  if (values.data === undefined && databaseUrl) return { kind: 'postgres', connectionString: databaseUrl };
  const dataDir = path.resolve(values.data ?? '.data/pglite');
  mkdirSync(dataDir, { recursive: true });
  return { kind: 'pglite', dataDir };
}

async function main(): Promise<void> {
  if (process.argv[2] === 'keys') {
    process.exitCode = await runKeysCommand(process.argv.slice(3), { databaseTarget, usage: USAGE });
    return;
  }
  const options = parse();
  const lifetime = new AbortController();
  const server = await startServer({
    ...options,
    publicBaseUrl: process.env.PUBLIC_BASE_URL || undefined,
    signal: lifetime.signal,
  });
  const stop = (signal: string) => {
    if (lifetime.signal.aborted) process.exit(1); // a second signal: stop waiting
    console.log(`${signal}: shutting down`);
    lifetime.abort();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  server.closed.then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('shutdown failed:', error);
      process.exit(1);
    },
  );
}

main().catch((error: unknown) => {
  // A busy port is an everyday mistake, not a crash: one line, what to do, no stack.
  if (error instanceof PortUnavailableError) console.error(`server not started: ${error.message}`);
  else console.error('server failed to start:', error);
  process.exit(1);
});
