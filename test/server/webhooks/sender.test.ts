import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../../server/start';
import { createHttpSender } from '../../../server/webhooks/sender';
import { listenLocal, type LocalServer } from '../support/local-server';
import { callServer, devServerOptions, followOverHttp } from '../support/v1';

let receiver: LocalServer | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

/** A receiver that answers 200 and keeps the connection alive; says when its connection closes. */
async function keepAliveReceiver() {
  let requests = 0;
  const server = http.createServer((request, response) => {
    requests += 1;
    request.resume();
    request.on('end', () => response.end('ok'));
  });
  server.keepAliveTimeout = 60_000;
  let openedConnections = 0;
  let closedConnections = 0;
  server.on('connection', (socket) => {
    openedConnections += 1;
    socket.on('close', () => (closedConnections += 1));
  });
  receiver = await listenLocal(server);
  return {
    url: `${receiver.base}/hook`,
    opened: () => openedConnections,
    closed: () => closedConnections,
    requests: () => requests,
  };
}

const until = async (condition: () => boolean) => {
  for (let tries = 0; tries < 100 && !condition(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
};

describe('the HTTP sender', () => {
  it('keeps its connection to a receiver alive between sends, and close() ends it (the server is stopping)', async () => {
    const hook = await keepAliveReceiver();
    const sender = createHttpSender({ allowLoopback: true });
    const request = { url: hook.url, headers: { 'content-type': 'application/json' }, body: '{}' };
    expect(await sender.send(request)).toEqual({ ok: true, status: 200 });
    expect(await sender.send(request)).toEqual({ ok: true, status: 200 });
    // Kept alive: nothing closed after two sends.
    expect(await until(() => hook.closed() > 0)).toBe(false);
    sender.close();
    expect(await until(() => hook.closed() === 1)).toBe(true);
  });

  it('a stopping server closes the connection its sender kept alive to a receiver', async () => {
    const hook = await keepAliveReceiver();
    const server = await startServer(devServerOptions({ kind: 'pglite' }));
    try {
      const { founderKey } = await followOverHttp(server.url, hook.url);
      const patched = await callServer(server.url, 'PATCH', '/api/founder/organisation', founderKey, { readiness_score: 77 });
      expect(patched.status).toBe(200);
      // The change's events (its scores and its band) arrive, and their connections are kept alive.
      expect(await until(() => hook.requests() === 2)).toBe(true);
      expect(await until(() => hook.closed() > 0)).toBe(false);
    } finally {
      await server.close();
    }
    expect(hook.opened()).toBeGreaterThan(0);
    expect(await until(() => hook.closed() === hook.opened())).toBe(true);
  });
});
