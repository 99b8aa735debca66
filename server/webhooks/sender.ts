/**
 * One HTTP POST of a signed webhook. Injectable (`WebhookSender`), so tests can count, fail or slow
 * deliveries; the real one applies the registration's URL policy (url-policy.ts) again, to the URL and
 * to every address the host resolves to at connection time (DNS rebinding included), follows no
 * redirect (Node's http does not; a 3xx is a failed attempt), and bounds the connection, the response
 * time and the response size.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkUrl, guardedLookup } from './url-policy';

export interface DeliveryRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
}

export type DeliveryOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export interface WebhookSender {
  /** The longest one send can take (to connect, then to answer): a message's lease is sized from it. */
  readonly timeoutMs: number;
  /** Never throws; gives up when `signal` aborts (the dispatcher's deadline). */
  send(request: DeliveryRequest, signal?: AbortSignal): Promise<DeliveryOutcome>;
  /** Drops its kept-alive connections (the server is stopping). */
  close(): void;
}

export interface HttpSenderOptions {
  /** `--dev`: plain HTTP and loopback addresses allowed. */
  allowLoopback: boolean;
  /** Name resolution (tests inject one; default: the system's). */
  lookup?: LookupFunction;
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  /** Connections per receiving host and port (the dispatcher's send slots: no send waits for a socket). */
  maxSockets?: number;
  /** Bytes of the receiver's answer read at most (the rest is dropped with the connection). */
  maxResponseBytes?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_RESPONSE_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
const DEFAULT_MAX_SOCKETS = 16;

const failure = (error: string, status: number | null = null): DeliveryOutcome => ({ ok: false, status, error });

export function createHttpSender(options: HttpSenderOptions): WebhookSender {
  const policy = { allowLoopback: options.allowLoopback };
  const pool = { keepAlive: true, maxSockets: options.maxSockets ?? DEFAULT_MAX_SOCKETS };
  const agents = { http: new http.Agent(pool), https: new https.Agent(pool) };
  const lookups = {
    http: guardedLookup('http:', policy, options.lookup),
    https: guardedLookup('https:', policy, options.lookup),
  };
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const responseTimeoutMs = options.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  return {
    timeoutMs: connectTimeoutMs + responseTimeoutMs,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
    send(request, signal) {
      const checked = checkUrl(request.url, policy);
      if (!checked.ok) return Promise.resolve(failure(`refused: the URL ${checked.reason}`));
      const url = checked.url;
      const isHttps = url.protocol === 'https:';
      return new Promise<DeliveryOutcome>((resolve) => {
        let settled = false;
        const done = (outcome: DeliveryOutcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(connectTimer);
          clearTimeout(responseTimer);
          signal?.removeEventListener('abort', abort);
          resolve(outcome);
        };
        const req = (isHttps ? https : http).request(url, {
          method: 'POST',
          agent: isHttps ? agents.https : agents.http,
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
          lookup: isHttps ? lookups.https : lookups.http,
        });
        const abort = () => req.destroy(new Error('gave up: the delivery deadline passed'));
        if (signal?.aborted) abort();
        else signal?.addEventListener('abort', abort, { once: true });
        const connectTimer = setTimeout(() => {
          req.destroy(new Error(`connect timeout after ${connectTimeoutMs} ms`));
        }, connectTimeoutMs);
        let responseTimer: NodeJS.Timeout | undefined;
        const startResponseTimer = () => {
          clearTimeout(connectTimer);
          responseTimer ??= setTimeout(() => {
            req.destroy(new Error(`no complete response within ${responseTimeoutMs} ms`));
          }, responseTimeoutMs);
        };
        req.on('socket', (socket) => {
          // A reused keep-alive socket is already connected.
          if (!socket.connecting) startResponseTimer();
          else socket.once(isHttps ? 'secureConnect' : 'connect', startResponseTimer);
        });
        req.on('response', (response) => {
          const status = response.statusCode ?? 0;
          let received = 0;
          response.on('data', (chunk: Buffer) => {
            received += chunk.length;
            // The status is all we need: past the cap the rest is not read.
            if (received > maxResponseBytes) {
              response.destroy();
              settle(status, true);
            }
          });
          response.on('end', () => settle(status, false));
          response.on('error', () => settle(status, true));
        });
        req.on('error', (error) => done(failure(error.message)));
        const settle = (status: number, truncated: boolean) => {
          if (status >= 200 && status < 300) return done({ ok: true, status });
          if (status >= 300 && status < 400) return done(failure(`redirect (${status}) not followed`, status));
          done(failure(`answered ${status}${truncated ? ' (response cut at the size cap)' : ''}`, status));
        };
        req.end(request.body);
      });
    },
  };
}
