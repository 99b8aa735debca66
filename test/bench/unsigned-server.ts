// The bench's comparison for signing (issue #36): the real server as `server/cli.ts --port 0 --memory
// --trust-proxy` starts it, but with `signAnswers: false`, so the snapshot route's throughput can be
// read with and without signing in the same run. Never a way to serve: no CLI flag reaches it.
import { startServer } from '../../server/start';

const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  database: { kind: 'pglite' },
  dev: false,
  seed: false,
  trustProxy: true,
  signAnswers: false,
});
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
