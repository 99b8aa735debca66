/**
 * The operator's and the integrator's commands, as processes: `npm run server -- keys …` on a data
 * directory, and the README's Partners walk-through (a key, `npm run webhook-receiver -- --register`,
 * following a demo company, changing it as its founder, the signed event arriving at the receiver).
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { hermeticEnv, repoRoot, startScript } from '../support/processes';

function keys(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/cli.ts'), 'keys', ...args], {
    cwd: repoRoot,
    env: hermeticEnv(),
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const keyLine = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  quota_per_minute: z.number(),
  key: z.string().optional(),
});

describe('npm run server -- keys', () => {
  // Each command is a process that opens PGlite (about 2 s each): slow on a busy machine.
  it('creates, lists, rotates and revokes keys in the data directory; usage errors exit 2', { timeout: 180_000 }, () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lens-keys-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const created = keys(['create', '--name', 'Kestrel Capital', '--quota', '300', '--data', dataDir, '--json']);
    expect(created.status, created.stderr).toBe(0);
    const key = keyLine.parse(JSON.parse(created.stdout));
    expect(key).toMatchObject({ name: 'Kestrel Capital', quota_per_minute: 300, status: 'active' });
    expect(key.key).toMatch(/^pk_/);

    const listed = keys(['list', '--data', dataDir]);
    expect(listed.stdout).toContain(`${key.id}  active  Kestrel Capital`);
    expect(listed.stdout).not.toContain(key.key);

    const rotated = keys(['rotate', key.id, '--grace-seconds', '60', '--data', dataDir]);
    expect(rotated.status).toBe(0);
    expect(rotated.stdout).toMatch(/key \(shown once, keep it\): pk_/);
    expect(rotated.stdout).toContain('previous key valid until');

    const revoked = keys(['revoke', key.id, '--data', dataDir, '--json']);
    expect(keyLine.parse(JSON.parse(revoked.stdout)).status).toBe('revoked');
    expect(keys(['rotate', key.id, '--data', dataDir]).status).toBe(1);

    expect(keys(['create', '--data', dataDir]).status).toBe(2);
    expect(keys(['frobnicate', '--data', dataDir]).status).toBe(2);
    expect(keys(['create', '--name', 'x', '--quota', 'lots', '--data', dataDir]).status).toBe(2);
    expect(keys(['revoke', 'ptn_unknown', '--data', dataDir]).status).toBe(1);
  });
});

describe("the README's Partners walk-through", () => {
  it(
    'a key, the local receiver, a follow of a demo company, a founder change: the signed event arrives and is verified',
    { timeout: 120_000 },
    async () => {
      const server = await startScript(
        'server/cli.ts',
        ['--port', '0', '--memory', '--dev', '--seed', '--operator-secret', 'local-operator-secret'],
        /^listening on (http:\/\/\S+)$/m,
      );
      const base = server.match[1] ?? '';
      const output = server.output();
      const koboToken = /^ {2}active {2}Kobo Vault Custody Ltd — .*\/share\/(\S+) {2}\(API/m.exec(output)?.[1];
      const koboFounderKey = /^ {2}founder key {2}Kobo Vault Custody Ltd: (fk_\S+)$/m.exec(output)?.[1];
      expect(koboToken, output).toBeDefined();
      expect(koboFounderKey, output).toBeDefined();
      expect(output).toMatch(/^demo partner: Savannah Growth Partners \(demo\), key pk_\S+$/m);

      const created = await fetch(`${base}/api/operator/partner-keys`, {
        method: 'POST',
        headers: { authorization: 'Bearer local-operator-secret', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'My Fund' }),
      });
      const key = z.object({ data: z.object({ partner_key: z.object({ key: z.string() }) }) }).parse(await created.json()).data
        .partner_key.key;

      const receiver = await startScript(
        'server/webhook-receiver.ts',
        ['--port', '0', '--register', key, '--server', base],
        /^listening on (http:\/\/\S+) /m,
      );
      expect(receiver.output()).toMatch(/registered http:\/\/127\.0\.0\.1:\d+\/webhook as webhook endpoint we_/);

      const followed = await fetch(`${base}/api/v1/follows`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ token: koboToken }),
      });
      expect(followed.status).toBe(201);

      const changed = await fetch(`${base}/api/founder/organisation`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${koboFounderKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ readiness_score: 84 }),
      });
      expect(changed.status).toBe(200);
      const started = Date.now();
      while (!/✓ verified evt_/.test(receiver.output()) && Date.now() - started < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(receiver.output()).toMatch(
        /✓ verified evt_\S+ {2}snapshot\.scores_changed {2}Kobo Vault Custody Ltd: Readiness score 78 → 84 \(\+6\)/,
      );
    },
  );

  it('a receiver on a busy port (one left running with `&`, say): one line saying so and what to do, no stack, exit 1, nothing registered', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    const { port } = holder.address() as net.AddressInfo;
    let registrations = 0;
    const server = http.createServer((_request, response) => {
      registrations += 1;
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port: serverPort } = server.address() as net.AddressInfo;
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(repoRoot, 'server/webhook-receiver.ts'),
        '--port',
        String(port),
        '--register',
        'pk_any',
        '--server',
        `http://127.0.0.1:${serverPort}`,
      ],
      { cwd: repoRoot, env: hermeticEnv(), encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      `webhook receiver not started: port ${port} on 127.0.0.1 is already in use, most likely by another ` +
        '`npm run webhook-receiver` (one started with `&` keeps running: stop it with `kill %1` in its shell, or Ctrl+C ' +
        'after `fg`), or choose another port with --port N (--port 0 picks a free one)',
    ]);
    expect(registrations).toBe(0);
  });
});
