/**
 * Issue #36, "anyone can check a saved copy offline": the real server's answers (200, 404, 410) verify
 * with the shared verifier of lib/core against the server's own `/.well-known/jwks.json`, before and
 * after a key rotation; a copy saved from one never holds the share token; and `npm run verify`
 * (scripts/verify.ts) checks such a copy with and without the key set. Here rather than under
 * test/scripts because it needs the real server's answers, on PGlite and on PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwksSchema, type Jwks, type PublishedJwk } from '../../../lib/core/schemas/signing';
import { buildVerifiableCopy, type VerifiableCopy } from '../../../lib/core/signing/copy';
import type { SignedResponse } from '../../../lib/core/signing/message';
import { verifySignedResponse } from '../../../lib/core/signing/verify';
import { main } from '../../../scripts/verify';
import type { Database } from '../../../server/platform/db/driver';
import { openTestDatabase, type TestDatabase } from '../support/db';
import { BASE, founderWithLink, makeApp, snapshotPath, type TestApp } from '../support/harness';
import { OPERATOR_SECRET } from '../support/v1';

const DAY = 24 * 60 * 60 * 1000;
const repoRoot = path.resolve(import.meta.dirname, '../../..');

let testDb: TestDatabase;
let db: Database;
let t: TestApp;
let dir: string;

beforeAll(async () => {
  testDb = await openTestDatabase();
  db = testDb.db;
  t = makeApp(db, { config: { operatorSecret: OPERATOR_SECRET } });
  dir = mkdtempSync(path.join(tmpdir(), 'lens-copies-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await testDb.close();
});

async function save(response: Response): Promise<SignedResponse & { headers: Headers }> {
  return { status: response.status, headers: new Headers(response.headers), body: new Uint8Array(await response.arrayBuffer()) };
}

async function fetchJwks(app: TestApp = t): Promise<Jwks> {
  const response = await app.request('/.well-known/jwks.json');
  expect(response.status).toBe(200);
  return jwksSchema.parse(await response.json());
}

/** The copy of the answer for `token` the way the extension saves one: verified first, then kept. */
async function saveCopy(app: TestApp, token: string): Promise<{ copy: VerifiableCopy<PublishedJwk>; answer: SignedResponse }> {
  const apiPath = snapshotPath(token);
  const answer = await save(await app.request(apiPath));
  const verdict = await verifySignedResponse(answer, await fetchJwks(app));
  if (verdict.state !== 'verified') throw new Error(`not verified: ${JSON.stringify(verdict)}`);
  const copy = buildVerifiableCopy(answer, verdict, { serviceUrl: `${BASE}${apiPath}`, savedAt: app.clock.now(), token });
  return { copy, answer };
}

function writeJson(name: string, value: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

/** `npm run verify` in-process: its one line and exit code. */
async function runVerify(args: string[], app: TestApp = t): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(args, {
    print: (line) => lines.push(line),
    cwd: dir,
    // A key set URL is fetched from the harness's server.
    fetch: (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      expect(url.origin).toBe(BASE);
      return app.request(url.pathname);
    },
  });
  return { code, lines };
}

describe("the real server's answers verify with the shared verifier", () => {
  it('200, 404 and 410, against the published key set', async () => {
    const app = makeApp(db);
    const { link } = await founderWithLink(app);
    const expiring = await founderWithLink(app);
    const ok = await save(await app.request(snapshotPath(link.token)));
    const missing = await save(await app.request(snapshotPath('E'.repeat(43))));
    app.clock.advance(7 * DAY + 1);
    const gone = await save(await app.request(snapshotPath(expiring.link.token)));

    const jwks = await fetchJwks(app);
    const [active] = jwks.keys;
    for (const [answer, status] of [
      [ok, 200],
      [missing, 404],
      [gone, 410],
    ] as const) {
      expect(answer.status).toBe(status);
      const verdict = await verifySignedResponse(answer, jwks);
      expect(verdict, `status ${status}`).toMatchObject({ state: 'verified', kid: active?.kid, key: active });
      if (verdict.state === 'verified') {
        const created = /;created=(\d+);/.exec(answer.headers.get('signature-input') ?? '')?.[1];
        expect(verdict.signedAt.getTime()).toBe(Number(created) * 1000);
      }
      // The same answer with its status changed does not.
      expect(await verifySignedResponse({ ...answer, status: status === 200 ? 404 : 200 }, jwks)).toMatchObject({
        state: 'invalid',
        reason: 'bad-signature',
      });
    }
  });

  it('an answer signed before a key rotation still verifies against the new published set', async () => {
    const { link } = await founderWithLink(t);
    const before = await save(await t.request(snapshotPath(link.token)));
    const oldKid = (await fetchJwks()).keys[0]?.kid;

    t.clock.advance(60_000);
    const rotated = await t.request('/api/operator/signing-keys/rotate', {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR_SECRET}` },
    });
    expect(rotated.status).toBe(200);
    const jwks = await fetchJwks();
    expect(jwks.keys[0]?.kid).not.toBe(oldKid);

    expect(await verifySignedResponse(before, jwks)).toMatchObject({ state: 'verified', kid: oldKid });
    const after = await save(await t.request(snapshotPath(link.token)));
    expect(await verifySignedResponse(after, jwks)).toMatchObject({ state: 'verified', kid: jwks.keys[0]?.kid });
    // Against the set without the retired key, the old answer names an unknown key.
    expect(await verifySignedResponse(before, { keys: jwks.keys.slice(0, 1) })).toMatchObject({
      state: 'invalid',
      reason: 'unknown-kid',
    });
  });
});

describe('a verifiable copy of a real answer', () => {
  it('never holds the share token, nor the URL', async () => {
    const { link } = await founderWithLink(t);
    const { copy, answer } = await saveCopy(t, link.token);
    // The body as sent names the token (the human view's URL); the copy's body, decoded, does not.
    expect(new TextDecoder().decode(answer.body)).toContain(`/share/${link.token}`);
    const text = readFileSync(writeJson('no-token.json', copy), 'utf8');
    expect(text).not.toContain(link.token);
    const body = Buffer.from(copy.body_base64, 'base64').toString('utf8');
    expect(body).not.toContain(link.token);
    expect(body).toContain('/share/{token}');
    expect(body).toContain('"company"');
    expect(text).not.toContain('/api/v1/compliance-status');
    expect(copy.origin).toBe(BASE);
  });
});

describe('npm run verify', () => {
  it('exits 0 with the key set (a file, or the service URL) and says who signed', async () => {
    const { link } = await founderWithLink(t);
    const { copy } = await saveCopy(t, link.token);
    const file = writeJson('copy-200.json', copy);
    const jwksFile = writeJson('jwks.json', await fetchJwks());
    const at = new Date(Math.floor(t.clock.now().getTime() / 1000) * 1000).toISOString();

    expect(await runVerify([file, '--jwks', jwksFile])).toEqual({
      code: 0,
      lines: [`verified: signed by key ${copy.key.kid} of ${BASE} at ${at}, checked against the key set ${jwksFile}`],
    });
    const url = `${BASE}/.well-known/jwks.json`;
    expect(await runVerify(['copy-200.json', `--jwks=${url}`])).toEqual({
      code: 0,
      lines: [`verified: signed by key ${copy.key.kid} of ${BASE} at ${at}, checked against the key set ${url}`],
    });
    // The service's address alone: its key set where every service publishes it.
    expect(await runVerify(['copy-200.json', '--jwks', BASE])).toEqual({
      code: 0,
      lines: [`verified: signed by key ${copy.key.kid} of ${BASE} at ${at}, checked against the key set ${url}`],
    });
  });

  it('exits 0 without the key set, saying it proves the copy unchanged but not who signed', async () => {
    const app = makeApp(db);
    const { link } = await founderWithLink(app);
    app.clock.advance(7 * DAY + 1);
    const { copy } = await saveCopy(app, link.token);
    expect(copy.status).toBe(410);
    const { code, lines } = await runVerify([writeJson('copy-410.json', copy)]);
    expect(code).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^unchanged since saved: the signature matches key ${copy.key.kid} inside the file`));
    expect(lines[0]).toContain('does not prove who signed it');
    expect(lines[0]).toContain(`--jwks ${BASE}/.well-known/jwks.json`);
  });

  it('exits 1 with a reason when one byte of the body is edited, with or without the key set', async () => {
    const { link } = await founderWithLink(t);
    const { copy } = await saveCopy(t, link.token);
    const body = Buffer.from(copy.body_base64, 'base64');
    const at = body.indexOf('"readiness_score":') + '"readiness_score":'.length;
    body[at] = body[at] === 0x39 ? 0x38 : 0x39;
    const file = writeJson('edited.json', { ...copy, body_base64: body.toString('base64') });
    const jwksFile = writeJson('jwks-edited.json', await fetchJwks());

    for (const args of [[file], [file, '--jwks', jwksFile]]) {
      const { code, lines } = await runVerify(args);
      expect(code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^not verified against the key (set|inside the file).*: the body is not the one signed.*\[digest-mismatch\]$/,
      );
    }
  });

  it("exits 1 when the file's key is not in the given key set", async () => {
    const { copy } = await saveCopy(t, 'E'.repeat(43));
    const file = writeJson('copy-404.json', copy);
    const others = writeJson('other-jwks.json', { keys: (await fetchJwks()).keys.filter((key) => key.kid !== copy.key.kid) });
    const { code, lines } = await runVerify([file, '--jwks', others]);
    expect(code).toBe(1);
    expect(lines).toEqual([
      `not verified against the key set ${others}: key ${copy.key.kid} is not in the key set [unknown-kid]`,
    ]);
  });

  it('exits 1 with a clear message for an unreadable or malformed file, a bad key set, or bad arguments', async () => {
    const { copy } = await saveCopy(t, 'E'.repeat(43));
    const good = writeJson('good.json', copy);
    writeFileSync(path.join(dir, 'broken.json'), '{"format": ');
    const cases: [string[], RegExp][] = [
      [['absent.json'], /^not verified: cannot read absent\.json: no such file$/],
      [['broken.json'], /^not verified: broken\.json: it is not JSON/],
      [[writeJson('token.json', { ...copy, url: `${BASE}/x` })], /is not a verifiable copy: .*url/i],
      [[good, '--jwks', 'absent.json'], /^not verified: cannot read the key set absent\.json: no such file$/],
      [[good, '--jwks', good], /^not verified: the key set .*good\.json: it is not a JWK Set/],
      [[good, '--jwks', 'https://elsewhere.example/.well-known/jwks.json'], /is not at the copy's origin http:\/\/lens\.test$/],
      [[], /^not verified: which file\? \(usage: npm run verify/],
      [[good, '--jwks'], /--jwks needs a file or an http\(s\) URL/],
      [[good, '--nope'], /unknown option --nope/],
    ];
    for (const [args, line] of cases) {
      const result = await runVerify(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.lines, args.join(' ')).toEqual([expect.stringMatching(line)]);
    }
  });

  it('runs as a command: one line on stdout, exit code 0 or 1', async () => {
    const { copy } = await saveCopy(t, 'E'.repeat(43));
    const file = writeJson('command.json', copy);
    const edited = writeJson('command-edited.json', { ...copy, status: 200 });
    const run = (args: string[]) =>
      spawnSync('npx', ['tsx', 'scripts/verify.ts', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });

    const good = run([file]);
    expect(good.status, good.stderr).toBe(0);
    expect(good.stdout.trimEnd().split('\n')).toEqual([expect.stringMatching(/^unchanged since saved: /)]);
    const bad = run([edited]);
    expect(bad.status, bad.stderr).toBe(1);
    expect(bad.stdout.trimEnd().split('\n')).toEqual([expect.stringMatching(/^not verified .*\[bad-signature\]$/)]);
  });
});
