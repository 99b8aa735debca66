/**
 * Test receivers' HTTP servers: listening on 127.0.0.1 (a free port), and closed with every
 * connection they hold (a kept-alive socket or a request never answered would hold `close()` open).
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  /** `http://127.0.0.1:PORT` */
  base: string;
  close: () => Promise<void>;
}

export async function listenLocal(server: http.Server): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
