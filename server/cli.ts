/**
 * `npm run server -- [--port N] [--host H] [--allowed-host NAME]… [--memory | --data DIR] [--dev] [--seed] [--trust-proxy]`
 * Thin: parse flags, start, stop on SIGINT/SIGTERM.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { messageOf } from '../lib/core/thrown';
import type { DatabaseTarget } from './db/open';
import { allowedHostName } from './http/hosts';
import { startServer } from './start';

const USAGE =
  'usage: npm run server -- [--port N] [--host H] [--allowed-host NAME]... [--memory | --data DIR] [--dev] [--seed] [--trust-proxy]\n' +
  '  defaults: --port 8787 --host 127.0.0.1 --data .data/pglite; DATABASE_URL selects PostgreSQL\n' +
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
        'trust-proxy': { type: 'boolean', default: false },
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

  const databaseUrl = process.env.DATABASE_URL;
  let database: DatabaseTarget;
  if (values.memory) database = { kind: 'pglite' };
  else if (values.data === undefined && databaseUrl) database = { kind: 'postgres', connectionString: databaseUrl };
  else {
    const dataDir = path.resolve(values.data ?? '.data/pglite');
    mkdirSync(dataDir, { recursive: true });
    database = { kind: 'pglite', dataDir };
  }
  return {
    port,
    host: values.host,
    allowedHosts: allowedHosts.data,
    database,
    dev: values.dev,
    seed: values.seed,
    trustProxy: values['trust-proxy'],
  };
}

async function main(): Promise<void> {
  const options = parse();
  const server = await startServer({ ...options, publicBaseUrl: process.env.PUBLIC_BASE_URL || undefined });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1); // a second signal: stop waiting
    stopping = true;
    console.log(`${signal}: shutting down`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('server failed to start:', error);
  process.exit(1);
});
