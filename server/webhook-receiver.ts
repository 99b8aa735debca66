/**
 * `npm run webhook-receiver -- [--port 8788] [--host 127.0.0.1] (--secret whsec_… | --register PARTNER_KEY
 * [--server http://127.0.0.1:8787])`: a small local receiver for developers who integrate. It checks
 * each delivery's Standard Webhooks signature with the `standardwebhooks` library, drops a webhook-id
 * it has already seen (deliveries are at least once), and prints each event. `--register` registers
 * this receiver as an endpoint of the partner key (the server must run with `--dev` to accept a plain
 * http loopback URL) and uses the secret it gets back.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import { messageOf } from '../lib/core/thrown';
import { startLifetime } from './platform/lifetime';

const USAGE =
  'usage: npm run webhook-receiver -- [--port 8788] [--host 127.0.0.1] (--secret whsec_… | --register PARTNER_KEY [--server URL])\n' +
  '  --register: registers http://HOST:PORT/webhook as an endpoint of that partner key (server started with --dev)';

export interface ReceivedEvent {
  id: string;
  duplicate: boolean;
  body: unknown;
}

export interface WebhookReceiver {
  url: string;
  /** Settles once the receiver has closed (its port, then its connections). */
  closed: Promise<void>;
  /** Ends the receiver's lifetime, as an abort of its `signal` does, and waits for `closed`. */
  close(): Promise<void>;
}

const summaryOf = z.object({ type: z.string(), data: z.looseObject({ summary: z.string().optional() }) });

/** Starts the receiver; `onEvent` is told of every verified delivery, `print` gets the lines it logs. */
export async function startWebhookReceiver(options: {
  port: number;
  host: string;
  secret: () => string | null;
  print?: (line: string) => void;
  onEvent?: (event: ReceivedEvent) => void;
  /** The receiver's lifetime (as the server's, server/platform/lifetime.ts): aborting it closes the receiver. */
  signal?: AbortSignal;
}): Promise<WebhookReceiver> {
  const print = options.print ?? ((line: string) => console.log(line));
  const seen = new Set<string>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 1024 * 1024) chunks.push(chunk);
    });
    request.on('end', () => {
      const secret = options.secret();
      if (request.method !== 'POST' || secret === null) {
        response.writeHead(request.method === 'POST' ? 503 : 405).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      let verified: unknown;
      try {
        verified = new Webhook(secret).verify(body, headers);
      } catch (error) {
        print(`✗ refused a delivery: ${messageOf(error)}`);
        response.writeHead(400).end();
        return;
      }
      const id = headers['webhook-id'] ?? '';
      const duplicate = seen.has(id);
      seen.add(id);
      const parsed = summaryOf.safeParse(verified);
      const what = parsed.success ? `${parsed.data.type}  ${parsed.data.data.summary ?? ''}` : 'unknown body';
      print(`${duplicate ? '= already seen' : '✓ verified'} ${id}  ${what}`);
      if (!duplicate) print(JSON.stringify(verified, null, 2));
      options.onEvent?.({ id, duplicate, body: verified });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const { closed, close } = startLifetime(
    options.signal,
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://${host}:${port}/webhook`, closed, close };
}

const registered = z.object({ data: z.object({ endpoint: z.object({ id: z.string(), secret: z.string() }) }) });

/** Registers `url` as a webhook endpoint of the partner key; returns its id and signing secret. */
export async function registerEndpoint(server: string, partnerKey: string, url: string): Promise<{ id: string; secret: string }> {
  const response = await fetch(`${server.replace(/\/+$/, '')}/api/v1/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${partnerKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`the server answered ${response.status}: ${text}`);
  return registered.parse(JSON.parse(text)).data.endpoint;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '8788' },
        host: { type: 'string', default: '127.0.0.1' },
        secret: { type: 'string' },
        register: { type: 'string' },
        server: { type: 'string', default: 'http://127.0.0.1:8787' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${messageOf(error)}\n${USAGE}`);
    process.exit(2);
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65_535) {
    console.error(`invalid --port\n${USAGE}`);
    process.exit(2);
  }
  if ((values.secret === undefined) === (values.register === undefined)) {
    console.error(`give either --secret or --register\n${USAGE}`);
    process.exit(2);
  }
  let secret: string | null = values.secret ?? null;
  let receiver: WebhookReceiver;
  /** The receiver's lifetime: Ctrl+C or a TERM ends it. */
  const stopping = new AbortController();
  try {
    receiver = await startWebhookReceiver({ port, host: values.host, secret: () => secret, signal: stopping.signal });
  } catch (error) {
    // Before anything is registered: a busy port leaves the partner's endpoints as they were.
    if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
      console.error(
        `webhook receiver not started: port ${port} on ${values.host} is already in use, most likely by another ` +
          '`npm run webhook-receiver` (one started with `&` keeps running: stop it with `kill %1` in its shell, or Ctrl+C ' +
          'after `fg`), or choose another port with --port N (--port 0 picks a free one)',
      );
      process.exit(1);
    }
    throw error;
  }
  if (values.register !== undefined) {
    try {
      const endpoint = await registerEndpoint(values.server, values.register, receiver.url);
      secret = endpoint.secret;
      console.log(`registered ${receiver.url} as webhook endpoint ${endpoint.id} of that partner key`);
    } catch (error) {
      console.error(`could not register with ${values.server}: ${messageOf(error)}`);
      await receiver.close();
      process.exit(1);
    }
  }
  console.log(`listening on ${receiver.url} (each delivery's signature is checked; Ctrl+C to stop)`);
  process.once('SIGINT', () => stopping.abort());
  process.once('SIGTERM', () => stopping.abort());
  await receiver.closed;
  process.exit(0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error('webhook receiver failed:', error);
    process.exit(1);
  });
}
