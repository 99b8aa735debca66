// Baseline for the server benchmark: a bare Hono handler returning a constant body, so the numbers
// of the real server can be read against what this machine does with no work at all.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const body = JSON.stringify({ success: true, data: { ok: true }, meta: {} });
const app = new Hono();
app.get('/api/v1/compliance-status/:token', (c) => c.body(body, 200, { 'content-type': 'application/json' }));

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
