/**
 * The server's lifetime is an `AbortSignal` (issue #35 item 2): aborting the one it was started with
 * closes it in order (the port, then the deliveries under way, then the database), as `close()` does.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../server/start';
import { startWebhookReceiver } from '../../server/webhook-receiver';
import { listenLocal, type LocalServer } from './support/local-server';
import { callServer, devServerOptions, followOverHttp } from './support/v1';

let receiver: LocalServer | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

describe('a server started with a signal', () => {
  it('closes when the signal aborts: a delivery under way ends first, then the port and the database are gone', async () => {
    const events: string[] = [];
    receiver = await listenLocal(
      http.createServer((request, response) => {
        request.resume();
        events.push('delivery began');
        setTimeout(() => {
          response.end('ok');
          events.push('delivery answered');
        }, 400);
      }),
    );
    const lifetime = new AbortController();
    const server = await startServer({ ...devServerOptions({ kind: 'pglite' }), signal: lifetime.signal });
    const { founderKey } = await followOverHttp(server.url, `${receiver.base}/hook`);
    expect((await callServer(server.url, 'PATCH', '/api/founder/organisation', founderKey, { readiness_score: 77 })).status).toBe(
      200,
    );
    while (!events.includes('delivery began')) await new Promise((resolve) => setTimeout(resolve, 10));

    lifetime.abort();
    await server.closed;
    events.push('closed');
    expect(events.indexOf('delivery answered')).toBeGreaterThan(-1);
    expect(events.indexOf('delivery answered')).toBeLessThan(events.indexOf('closed'));
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
    await expect(server.db.query('SELECT 1')).rejects.toThrow();
    // close() after the lifetime ended is the same settled promise, not a second teardown.
    await expect(server.close()).resolves.toBeUndefined();
  });

  it('an already aborted signal: the server closes as soon as it has started', async () => {
    const lifetime = new AbortController();
    lifetime.abort();
    const server = await startServer({ ...devServerOptions({ kind: 'pglite' }), signal: lifetime.signal });
    await server.closed;
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
  });
});

describe('the bundled webhook receiver started with a signal', () => {
  it('closes when the signal aborts: its port refuses, and close() after that settles too', async () => {
    const lifetime = new AbortController();
    const hooks = await startWebhookReceiver({
      port: 0,
      host: '127.0.0.1',
      secret: () => null,
      signal: lifetime.signal,
      print: () => undefined,
    });
    expect((await fetch(hooks.url)).status).toBe(405); // listening: a GET is not a delivery
    lifetime.abort();
    await hooks.closed;
    await expect(fetch(hooks.url)).rejects.toThrow();
    await hooks.close();
  });
});
