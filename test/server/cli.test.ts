import { spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { snapshotSuccessEnvelopeSchema } from '../../lib/core/schemas/snapshot';
import { TEST_DATABASE_URL } from './support/db';
import { repoRoot, startScript, stopProcess } from './support/processes';

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

// The CLI without DATABASE_URL: --memory is explicit anyway, this keeps the smoke test hermetic.
async function start(args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const { child, match, output } = await startScript('server/cli.ts', args, /^listening on (http:\/\/\S+)$/m);
  return { child, url: match[1] ?? '', output };
}

/** A GET with a chosen Host header (fetch cannot set one), to the server's real address. */
function getWithHost(
  base: string,
  pathName: string,
  host: string,
): Promise<{ status: number; contentType: string; body: string }> {
  const target = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { hostname: target.hostname, port: target.port, path: pathName, headers: { host } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'] ?? '', body }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** Writes raw bytes to the server and returns what it answers until it closes the connection. */
function rawRequest(base: string, text: string): Promise<string> {
  const target = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname, () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('npm run server (CLI)', () => {
  it('starts with --port 0 --memory --seed --dev, prints seeded links, serves them, stops on SIGTERM', async () => {
    const { child, url, output } = await start(['--port', '0', '--memory', '--seed', '--dev']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const line = output()
      .split('\n')
      .find((l) => l.startsWith('  active  '));
    const match = /^ {2}active {2}(.+) — (.+): (http\S+\/share\/\S+) {2}\(API: (http\S+)\)$/.exec(line ?? '');
    expect(match, output()).not.toBeNull();
    const apiUrl = match?.[4] ?? '';
    expect(apiUrl.startsWith(`${url}/api/v1/compliance-status/`)).toBe(true);

    const response = await fetch(apiUrl);
    expect(response.status).toBe(200);
    const body = snapshotSuccessEnvelopeSchema.parse(await response.json());
    expect(body.data.company.name).toBe(match?.[1]);
    expect(body.meta.view_count).toBe(1);
    expect(response.headers.get('ratelimit-remaining')).toBe('59');

    const share = await fetch(match?.[3] ?? '');
    expect(share.status).toBe(200);
    expect(await share.text()).toContain('<!doctype html>');

    const demo = await fetch(`${url}/demo`);
    expect(await demo.text()).toContain(match?.[3] ?? 'missing');

    const dev = await fetch(`${url}/api/dev/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"advance_ms":1000}',
    });
    expect(dev.status).toBe(200);
    const health = z
      .object({ data: z.object({ status: z.literal('ok') }) })
      .parse(await (await fetch(`${url}/api/health`)).json());
    expect(health.data.status).toBe('ok');

    expect(await stopProcess(child)).toBe(0);
  });

  // Three servers, one after another, each opening PGlite on disk: minutes on a busy machine.
  it(
    'reopens a --data dir with --seed: the demo links and keys of the first start keep working; --reseed replaces them',
    { timeout: 120_000 },
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'lens-pglite-'));
      onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
      const activeApiUrl = (output: string) => /^ {2}active {2}.*\(API: (http\S+)\)$/m.exec(output)?.[1] ?? '';
      const founderKeys = (output: string) => [...output.matchAll(/^ {2}founder key {2}(.+): (fk_\S+)$/gm)].map((m) => m[2]);
      const partnerKey = (output: string) => /^demo partner: .+, key (pk_\S+)$/m.exec(output)?.[1] ?? '';

      const first = await start(['--port', '0', '--data', dataDir, '--seed']);
      const firstUrl = activeApiUrl(first.output());
      expect((await fetch(firstUrl)).status).toBe(200);
      const firstKeys = founderKeys(first.output());
      expect(firstKeys.length).toBeGreaterThan(5);
      expect(partnerKey(first.output())).toMatch(/^pk_/);
      expect(await stopProcess(first.child)).toBe(0);

      // Kept: the same link (its view count goes on), the same founder and partner keys, which work.
      const second = await start(['--port', '0', '--data', dataDir, '--seed']);
      expect(second.output()).toContain('demo data kept from an earlier start');
      const keptUrl = activeApiUrl(second.output());
      expect(new URL(keptUrl).pathname).toBe(new URL(firstUrl).pathname);
      const kept = await fetch(new URL(new URL(keptUrl).pathname, second.url));
      expect(snapshotSuccessEnvelopeSchema.parse(await kept.json()).meta.view_count).toBe(2);
      expect(founderKeys(second.output())).toEqual(firstKeys);
      const asFounder = await fetch(`${second.url}/api/founder/organisation`, {
        headers: { authorization: `Bearer ${firstKeys[0]}` },
      });
      expect(asFounder.status).toBe(200);
      const asPartner = await fetch(`${second.url}/api/v1/follows`, {
        headers: { authorization: `Bearer ${partnerKey(second.output())}` },
      });
      expect(asPartner.status).toBe(200);
      expect(await stopProcess(second.child)).toBe(0);

      // --reseed: fresh links and keys; the old ones stop working.
      const third = await start(['--port', '0', '--data', dataDir, '--seed', '--reseed']);
      const fresh = await fetch(activeApiUrl(third.output()));
      expect(fresh.status).toBe(200);
      expect(snapshotSuccessEnvelopeSchema.parse(await fresh.json()).meta.view_count).toBe(1);
      expect((await fetch(new URL(new URL(firstUrl).pathname, third.url))).status).toBe(404);
      expect(founderKeys(third.output())).not.toEqual(firstKeys);
    },
  );

  it('keeps /api/dev/* at 404 without --dev', async () => {
    const { url } = await start(['--port', '0', '--memory']);
    const response = await fetch(`${url}/api/dev/reset`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('--allowed-host: over a real socket a foreign Host gets 421, loopback and the allowed name are answered; cross-site dev POSTs are refused', async () => {
    const { url } = await start([
      '--port',
      '0',
      '--memory',
      '--dev',
      '--allowed-host',
      'devbox.test',
      '--allowed-host',
      'Other.Test',
    ]);
    const port = new URL(url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `devbox.test:${port}`, 'other.test']) {
      expect((await getWithHost(url, '/api/health', host)).status, host).toBe(200);
    }
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `devbox.test.evil.example:${port}`,
    ]) {
      const api = await getWithHost(url, '/api/health', host);
      expect(api.status, host).toBe(421);
      expect(JSON.parse(api.body)).toMatchObject({ success: false, code: 'HOST_NOT_ALLOWED' });
      const demo = await getWithHost(url, '/demo', host);
      expect(demo.status, host).toBe(421);
      expect(demo.contentType).toMatch(/^text\/html/);
      expect(demo.body).toContain('data-status="421"');
    }
    // HTTP/1.0 without Host: the server's own address stands in for it.
    expect(await rawRequest(url, 'GET /api/health HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.[01] 200 /);

    // A script's body-less reset (the DESIGN contract) works; a page's cross-site one does not.
    expect((await fetch(`${url}/api/dev/reset`, { method: 'POST' })).status).toBe(200);
    const crossSite = await fetch(`${url}/api/dev/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    expect(
      (await fetch(`${url}/api/dev/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
        .status,
    ).toBe(200);
  });

  it('--allowed-host refuses values that are not host names', async () => {
    await expect(start(['--memory', '--allowed-host', 'http://devbox.test'])).rejects.toThrow(
      /invalid --allowed-host[\s\S]*usage/,
    );
    await expect(start(['--memory', '--allowed-host', 'devbox.test:8787'])).rejects.toThrow(/invalid --allowed-host/);
  });

  it.skipIf(!TEST_DATABASE_URL)('uses PostgreSQL when DATABASE_URL is set', async () => {
    // Its own schema (search_path in the URL's options), dropped afterwards.
    const schema = `test_cli_${randomBytes(4).toString('hex')}`;
    await withAdmin((c) => c.query(`CREATE SCHEMA ${schema}`));
    onTestFinished(() => withAdmin((c) => c.query(`DROP SCHEMA ${schema} CASCADE`)).then(() => undefined));
    const databaseUrl = new URL(TEST_DATABASE_URL ?? '');
    databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
    const { child, match } = await startScript('server/cli.ts', ['--port', '0'], /^listening on (http:\/\/\S+)$/m, {
      ...process.env,
      DATABASE_URL: databaseUrl.toString(),
    });
    const url = match[1] ?? '';
    const health = z
      .object({ data: z.object({ database: z.object({ driver: z.string() }) }) })
      .parse(await (await fetch(`${url}/api/health`)).json());
    expect(health.data.database.driver).toBe('postgres');
    expect(await stopProcess(child)).toBe(0);
    const tables = await withAdmin((c) => c.query('SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = $1', [schema]));
    expect(tables.rows[0]).toEqual({ n: 14 });
  });

  it('a busy port: one line saying so and what to do, no stack, exit 1, and the data directory left alone', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    const { port } = holder.address() as net.AddressInfo;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lens-busy-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'server/cli.ts'), '--port', String(port), '--data', dataDir, '--seed'],
      { cwd: repoRoot, env, encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      `server not started: port ${port} on 127.0.0.1 is already in use, most likely by another \`npm start\` or \`npm run server\`: ` +
        'use that server, stop it (Ctrl+C in its terminal), or choose another port with --port N (--port 0 picks a free one)',
    ]);
    // The database was never opened: PGlite would have written its cluster there.
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('rejects bad flags with a usage message', async () => {
    await expect(start(['--port', 'abc', '--memory'])).rejects.toThrow(/invalid --port[\s\S]*usage/);
    await expect(start(['--memory', '--data', '/tmp/x'])).rejects.toThrow(/either --memory or --data/);
  });
});
