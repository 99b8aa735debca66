/**
 * Starts the HTTP server: opens the database, builds the app, listens, optionally seeds. Used by the
 * CLI and by tests that need a real port.
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { createApp } from './app';
import type { DemoLink } from './dev/demo-page';
import { formatDemoKeys, formatDemoLinks, seedDemo, type DemoSeed } from './dev/seed';
import { partnerChores } from './partners/chores';
import { DEFAULT_SERVICE_PROFILE_URL } from './platform/app-env';
import { systemClock, type Clock } from './platform/clock';
import type { Database } from './platform/db/driver';
import { openDatabase, type DatabaseTarget } from './platform/db/open';
import { allowedHostsFor } from './platform/http/hosts';
import type { ServerApp } from './platform/http/routes';
import { MemoryRateLimitStore } from './platform/rate-limit/memory-store';
import { SPEC_RATE_LIMIT } from './platform/rate-limit/middleware';
import { SqlRateLimitStore } from './platform/rate-limit/sql-store';
import { ensureSigningKeys } from './signing/keys';
import type { ClockedStore } from './platform/rate-limit/store';
import { WebhookDispatcher } from './webhooks/dispatcher';
import { createHttpSender, type WebhookSender } from './webhooks/sender';
import { checkEndpointUrl, type HostResolver } from './webhooks/url-policy';
import { startLifetime } from './platform/lifetime';

export interface ServerOptions {
  port: number;
  host: string;
  database: DatabaseTarget;
  dev: boolean;
  seed: boolean;
  /** With `seed`: delete the kept demo data and seed it afresh (new tokens and keys). */
  reseed?: boolean;
  trustProxy: boolean;
  /** Enables the operator API (partner keys). */
  operatorSecret?: string;
  /** Webhook delivery (tests inject one); default: HTTPS with SSRF guards, loopback HTTP with `dev`. */
  webhookSender?: WebhookSender;
  /** Name resolution for endpoint URLs at registration (tests inject one). */
  resolve?: HostResolver;
  /** How often the outbox worker looks without a nudge. */
  webhookPollIntervalMs?: number;
  /** `--allowed-host`: extra `Host` names to answer (see `allowedHostsFor`). */
  allowedHosts?: readonly string[];
  publicBaseUrl?: string;
  serviceProfileUrl?: string;
  clock?: Clock;
  /** Where status lines go (stdout in the CLI). */
  print?: (line: string) => void;
  /** `AppDeps.signAnswers`: `false` for the benchmark's unsigned server only; never from the CLI. */
  signAnswers?: boolean;
  /** The server's lifetime: aborting it closes the server (as `close()` does). */
  signal?: AbortSignal;
}

export interface RunningServer {
  url: string;
  db: Database;
  demoLinks: readonly DemoLink[] | null;
  demo: DemoSeed | null;
  dispatcher: WebhookDispatcher;
  /**
   * Settles once the server has closed: the port, then the webhook deliveries under way, then the
   * database (rejects if one of them failed to close).
   */
  closed: Promise<void>;
  /** Ends the server's lifetime, as an abort of `ServerOptions.signal` does, and waits for `closed`. */
  close(): Promise<void>;
}

/** PGlite runs in this process only: count in memory. PostgreSQL may be shared: count in SQL. */
export function rateLimitStoreFor(db: Database, clock: Clock): ClockedStore {
  return db.driver === 'postgres' ? new SqlRateLimitStore(db, clock) : new MemoryRateLimitStore(clock);
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** The port could not be taken: another server holds it, or this user may not bind it. */
export class PortUnavailableError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: 'EADDRINUSE' | 'EACCES',
  ) {
    super(
      code === 'EADDRINUSE'
        ? `port ${port} on ${host} is already in use, most likely by another \`npm start\` or \`npm run server\`: ` +
            'use that server, stop it (Ctrl+C in its terminal), or choose another port with --port N (--port 0 picks a free one)'
        : `not allowed to listen on port ${port} on ${host}: choose a port above 1023 with --port N (--port 0 picks a free one)`,
    );
    this.name = 'PortUnavailableError';
  }
}

const portError = z.object({ code: z.enum(['EADDRINUSE', 'EACCES']) });

/** Until the app is ready (database opened, demo data seeded), the port answers 503. */
function starting(): Response {
  return new Response(
    JSON.stringify({ success: false, error: 'The server is starting: try again in a moment.', code: 'INTERNAL_ERROR' }),
    {
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': '1' },
    },
  );
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const print = options.print ?? ((line: string) => console.log(line));
  const clock = options.clock ?? systemClock();
  // The port first: a busy one must not cost a database opened beside another process's (PGlite
  // takes one process per data directory).
  let app: ServerApp | null = null;
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve(
      { fetch: (request, env) => (app ? app.fetch(request, env) : starting()), port: options.port, hostname: options.host },
      () => resolve(s),
    );
    s.once('error', (error: Error) => {
      const busy = portError.safeParse(error);
      reject(busy.success ? new PortUnavailableError(options.host, options.port, busy.data.code) : error);
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${urlHost(options.host)}:${address.port}`;
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Keep-alive sockets would hold close() open; end them.
      if ('closeAllConnections' in server) server.closeAllConnections();
    });

  let db: Database;
  try {
    db = await openDatabase(options.database);
  } catch (error) {
    await closeServer();
    throw error;
  }
  try {
    // The first start makes the snapshot signing key (server/signing), not the first reader.
    await ensureSigningKeys(db, clock.now());
  } catch (error) {
    await db.close();
    await closeServer();
    throw error;
  }
  let demoLinks: DemoLink[] | null = null;
  let demo: DemoSeed | null = null;
  const sender = options.webhookSender ?? createHttpSender({ allowLoopback: options.dev });
  const dispatcher = new WebhookDispatcher({
    db,
    clock,
    sender,
    chores: partnerChores(db),
    pollIntervalMs: options.webhookPollIntervalMs,
    logger: { error: (message, error) => console.error(message, error) },
  });
  app = createApp({
    db,
    clock,
    webhooks: {
      nudge: () => dispatcher.nudge(),
      checkUrl: (url) => checkEndpointUrl(url, { allowLoopback: options.dev, resolve: options.resolve }),
    },
    rateLimiter: { store: rateLimitStoreFor(db, clock), ...SPEC_RATE_LIMIT },
    config: {
      dev: options.dev,
      trustProxy: options.trustProxy,
      allowedHosts: allowedHostsFor({
        bindHost: options.host,
        extra: options.allowedHosts,
        publicBaseUrl: options.publicBaseUrl,
      }),
      publicBaseUrl: options.publicBaseUrl,
      serviceProfileUrl: options.serviceProfileUrl ?? DEFAULT_SERVICE_PROFILE_URL,
      operatorSecret: options.operatorSecret,
    },
    demo: { links: () => demoLinks },
    signAnswers: options.signAnswers,
  });

  const release = async (dispatching: Promise<void>): Promise<void> => {
    await closeServer();
    await dispatching;
    // The sender this server made goes with it (its keep-alive sockets); an injected one is the caller's.
    if (sender !== options.webhookSender) sender.close();
    await db.close();
  };

  try {
    if (options.seed) {
      const base = options.publicBaseUrl ?? url;
      demo = await seedDemo(db, clock, base, { reseed: options.reseed });
      demoLinks = demo.links;
      print(
        demo.kept
          ? `demo data kept from an earlier start (--reseed starts over): ${demoLinks.length} share links (demo page: ${base}/demo):`
          : `seeded ${demoLinks.length} demo share links (demo page: ${base}/demo):`,
      );
      for (const line of formatDemoLinks(demoLinks)) print(line);
      for (const line of formatDemoKeys(demo)) print(line);
    }
  } catch (error) {
    await release(Promise.resolve());
    throw error;
  }
  // `release` runs only once the lifetime has ended, always after this function returns: `dispatching` is set by then.
  const lifetime = startLifetime(options.signal, () => release(dispatching));
  const dispatching = dispatcher.run(lifetime.signal);
  print(`listening on ${url}`);
  return { url, db, demoLinks, demo, dispatcher, closed: lifetime.closed, close: lifetime.close };
}
