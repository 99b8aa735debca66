/**
 * `npm start` (scripts/start.sh) runs the one server the README's demo and its Partners walk-through
 * share: demo data, the dev API, and the operator API with a secret made for the run and printed, or
 * the one given. The extension build is stubbed out (an `npx` on PATH that skips `wxt build`).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { hermeticEnv, repoRoot, startUntil } from '../server/support/processes';

// start.sh ends in `exec node … server/cli.ts`: its process is the server's, stopped (and waited for) when the test ends.
/** Runs `bash scripts/start.sh …args` until the server prints its address; resolves with everything printed. */
async function npmStart(args: string[]): Promise<{ url: string; output: string }> {
  const bin = mkdtempSync(path.join(tmpdir(), 'lens-npx-'));
  onTestFinished(() => rmSync(bin, { recursive: true, force: true }));
  const realNpx = path.join(path.dirname(process.execPath), 'npx');
  writeFileSync(path.join(bin, 'npx'), `#!/bin/sh\nif [ "$1" = wxt ]; then exit 0; fi\nexec "${realNpx}" "$@"\n`);
  chmodSync(path.join(bin, 'npx'), 0o755);
  const { match, output } = await startUntil(
    'bash',
    [path.join(repoRoot, 'scripts/start.sh'), ...args],
    /^listening on (http:\/\/\S+)$/m,
    hermeticEnv({ PATH: `${bin}:${process.env.PATH ?? ''}` }),
  );
  return { url: match[1] ?? '', output: output() };
}

const createKey = (url: string, secret: string) =>
  fetch(`${url}/api/operator/partner-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'My Fund' }),
  });

describe('npm start (scripts/start.sh)', () => {
  it(
    'serves the demo and the Partners walk-through: demo data, the dev API, and an operator secret made for the run and printed',
    { timeout: 120_000 },
    async () => {
      const { url, output } = await npmStart(['--port', '0', '--memory']);
      const secret = /^ {2}5\. Partners \(README, "Partners"\): operator secret for this run: (dev-\S+)$/m.exec(output)?.[1];
      expect(secret, output).toBeDefined();
      expect(output).toMatch(/^ {2}founder key {2}Kobo Vault Custody Ltd: fk_/m);
      expect((await createKey(url, secret ?? '')).status).toBe(201);
      expect((await createKey(url, 'a-wrong-secret')).status).toBe(401);
      expect((await fetch(`${url}/api/dev/clock`)).status).toBe(200);
    },
  );

  it('takes --operator-secret, and then makes none of its own', { timeout: 120_000 }, async () => {
    const { url, output } = await npmStart(['--port', '0', '--memory', '--operator-secret', 'my-own-secret']);
    expect(output).not.toMatch(/operator secret for this run/);
    expect((await createKey(url, 'my-own-secret')).status).toBe(201);
  });
});
