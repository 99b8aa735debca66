import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpSender } from '../../../server/webhooks/sender';

let receiver: http.Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  receiver = null;
});

/** A receiver that answers 200 and keeps the connection alive; says when its connection closes. */
async function keepAliveReceiver() {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('ok'));
  });
  server.keepAliveTimeout = 60_000;
  let closedConnections = 0;
  server.on('connection', (socket) => socket.on('close', () => (closedConnections += 1)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver = server;
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, closed: () => closedConnections };
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
});
