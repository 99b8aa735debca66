import { createServer, type ServerResponse } from 'node:http';
import { API_PATH_PREFIX, SHARE_PATH_PREFIX } from '@/lib/core/services';
import { JWKS_PATH } from '@/lib/core/signing/wire';

/**
 * A snapshot service that misbehaves in ways the bundled server never does: it holds an answer (a
 * slow network; the card shows that it is loading), answers 200 with data that is not a snapshot (the
 * extension must show "Unreadable answer", not the data), or answers every request 429 with a short
 * `Retry-After` (a pause that ends within a test). Its token names the behaviour; tokens must still
 * have the real shape for the extension to ask at all. It counts the requests for each token.
 * Started with an `upstream` (a bundled server), it answers every other token with the upstream's
 * signed answer, one figure changed after signing (a body that is not the one signed), and passes
 * the upstream's key set on unchanged.
 */
export interface MisbehavingService {
  baseUrl: string;
  /** A token whose request is held until the service stops. */
  slowToken: string;
  /** A token answered with a 200 that is not a snapshot. */
  garbageToken: string;
  /** Tokens (`limitedToken('a')`) answered 429 with `Retry-After: LIMITED_RETRY_AFTER_S`. */
  limitedToken(name: string): string;
  /** How many requests reached the service for `token`. */
  requestsFor(token: string): number;
  shareUrl(token: string): string;
  stop(): Promise<void>;
}

/** The pause a limited token's 429 asks for, in seconds: short enough to see it end. */
export const LIMITED_RETRY_AFTER_S = 8;

/** What the tampered answers change: the readiness score, to this. */
export const TAMPERED_READINESS = 99;

/** `upstream`'s answer at `path`, with its headers; the body's readiness score changed when `tamper`. */
async function relay(upstream: string, path: string, response: ServerResponse, tamper: boolean): Promise<void> {
  const answer = await fetch(`${upstream}${path}`);
  let body = await answer.text();
  if (tamper) body = body.replace(/"readiness_score":\d+/, `"readiness_score":${TAMPERED_READINESS}`);
  const headers: Record<string, string> = { 'access-control-allow-origin': '*' };
  for (const name of ['content-type', 'content-digest', 'token-free-digest', 'signature-input', 'signature', 'cache-control']) {
    const value = answer.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  response.writeHead(answer.status, headers);
  response.end(body);
}

export async function startMisbehavingService(options: { upstream?: string } = {}): Promise<MisbehavingService> {
  const held = new Set<ServerResponse>();
  const requests = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://service').pathname;
    const { upstream } = options;
    if (upstream && path === JWKS_PATH) {
      void relay(upstream, path, response, false).catch(() => response.destroy());
      return;
    }
    const token = path.startsWith(API_PATH_PREFIX) ? path.slice(API_PATH_PREFIX.length) : '';
    requests.set(token, (requests.get(token) ?? 0) + 1);
    if (token.startsWith('limited')) {
      response.writeHead(429, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'Retry-After',
        'retry-after': String(LIMITED_RETRY_AFTER_S),
      });
      response.end(JSON.stringify({ success: false, error: 'Too many requests', code: 'RATE_LIMITED' }));
      return;
    }
    if (token.startsWith('slow')) {
      held.add(response);
      response.on('close', () => held.delete(response));
      return;
    }
    if (token.startsWith('garbage')) {
      response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      response.end(JSON.stringify({ success: true, data: { company: 'SEC_NIGERIA', scores: 'lots' }, meta: {} }));
      return;
    }
    if (upstream && token) {
      void relay(upstream, path, response, true).catch(() => response.destroy());
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ success: false, error: 'No such share token', code: 'NOT_FOUND' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the misbehaving service has no port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    baseUrl,
    slowToken: `slow_${'s'.repeat(40)}`,
    garbageToken: `garbage_${'g'.repeat(40)}`,
    limitedToken: (name) => `limited_${name}_${'l'.repeat(40 - name.length)}`,
    requestsFor: (token) => requests.get(token) ?? 0,
    shareUrl: (token) => `${baseUrl}${SHARE_PATH_PREFIX}${token}`,
    stop: () =>
      new Promise((resolve) => {
        for (const response of held) response.destroy();
        server.close(() => resolve());
      }),
  };
}
