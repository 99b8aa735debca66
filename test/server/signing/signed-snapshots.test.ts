/**
 * Signed snapshots (issue #36): every answer of the snapshot API carries Content-Digest (RFC 9530) and
 * an RFC 9421 signature labelled `snapshot`, checked here by a verifier written from the RFCs (not the
 * server's code): the signature base is rebuilt from the received headers, the key taken from
 * `/.well-known/jwks.json`.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseDictionary, serializeInnerList, type InnerList, type Item } from 'structured-headers';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import type { Database } from '../../../server/platform/db/driver';
import { openDatabase } from '../../../server/platform/db/open';
import { runKeysCommand } from '../../../server/partners/keys-cli';
import { jwksSchema } from '../../../lib/core/schemas/signing';
import { httpbis } from 'http-message-signatures';
import { sign } from 'node:crypto';
import { ensureSigningKeys, rotateSigningKey } from '../../../server/signing/keys';
import { KEY_REFRESH_MS, SnapshotSigner } from '../../../server/signing/signer';
import { SERVER_SIGNED_COMPONENTS, SIGNATURE_LABEL, SIGNATURE_PARAMS, SIGNATURE_TAG } from '../../../lib/core/signing/wire';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/db';
import { founderWithLink, listedViewCount, makeApp, snapshotPath, uniqueIp, type TestApp } from '../support/harness';
import { OPERATOR_SECRET } from '../support/v1';

const DAY = 24 * 60 * 60 * 1000;

type Jwks = z.infer<typeof jwksSchema>;

/** A received answer, kept as bytes so it can be checked later (or tampered with). */
interface Saved {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

async function save(response: Response): Promise<Saved> {
  return { status: response.status, headers: new Headers(response.headers), body: new Uint8Array(await response.arrayBuffer()) };
}

/** RFC 7638 thumbprint of an Ed25519 JWK: required members in lexicographic order, no spaces. */
function thumbprintOf(jwk: { crv: string; kty: string; x: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** Why `answer` does not verify against `jwks`, or null when it does. */
function verificationFailure(answer: Saved, jwks: Jwks): string | null {
  const digestHeader = answer.headers.get('content-digest');
  const inputHeader = answer.headers.get('signature-input');
  const signatureHeader = answer.headers.get('signature');
  if (!digestHeader || !inputHeader || !signatureHeader) return 'missing headers';

  const digest = parseDictionary(digestHeader).get('sha-256') as Item | undefined;
  if (!digest || !(digest[0] instanceof ArrayBuffer)) return 'no sha-256 digest';
  const expected = createHash('sha256').update(answer.body).digest();
  if (!expected.equals(Buffer.from(digest[0]))) return 'content digest does not match the body';

  const input = parseDictionary(inputHeader).get('snapshot') as InnerList | undefined;
  const signature = parseDictionary(signatureHeader).get('snapshot') as Item | undefined;
  if (!input || !signature || !(signature[0] instanceof ArrayBuffer)) return 'no snapshot signature';
  const [components, params] = input;
  if (params.get('alg') !== 'ed25519' || params.get('tag') !== 'compliance-snapshot') return 'wrong alg or tag';
  const names = components.map(([name]) => z.string().parse(name));
  if (JSON.stringify(names) !== JSON.stringify(['@status', 'content-type', 'content-digest', 'token-free-digest'])) {
    return 'wrong components';
  }

  // RFC 9421 section 2.5: one line per component, then the signature parameters; no trailing newline.
  const lines = names.map((name) => {
    const value = name === '@status' ? String(answer.status) : (answer.headers.get(name) ?? '').trim();
    return `"${name}": ${value}`;
  });
  lines.push(`"@signature-params": ${serializeInnerList(input)}`);
  const base = Buffer.from(lines.join('\n'));

  const jwk = jwks.keys.find((key) => key.kid === params.get('keyid'));
  if (!jwk) return 'unknown keyid';
  if (thumbprintOf(jwk) !== jwk.kid) return 'kid is not the key thumbprint';
  const created = Number(params.get('created'));
  if (created < jwk.signed_from || (jwk.signed_until !== undefined && created > jwk.signed_until)) {
    return 'created outside the dates the key signed between';
  }
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  return verify(null, base, key, Buffer.from(signature[0])) ? null : 'bad signature';
}

let testDb: TestDatabase;
let db: Database;
let t: TestApp;

beforeAll(async () => {
  testDb = await openTestDatabase();
  db = testDb.db;
  t = makeApp(db, { config: { operatorSecret: OPERATOR_SECRET } });
});
afterAll(async () => {
  await testDb.close();
});

async function fetchJwks(app: TestApp = t, ip?: string): Promise<Jwks> {
  const response = await app.request('/.well-known/jwks.json', { ip });
  expect(response.status).toBe(200);
  return jwksSchema.parse(await response.json());
}

function keyidOf(answer: Saved): string {
  const input = parseDictionary(answer.headers.get('signature-input') ?? '').get('snapshot') as InnerList;
  return z.string().parse(input[1].get('keyid'));
}

const rotate = (app: TestApp, secret?: string) =>
  app.request('/api/operator/signing-keys/rotate', {
    method: 'POST',
    headers: secret === undefined ? {} : { authorization: `Bearer ${secret}` },
  });

describe('every answer of the snapshot API is signed', () => {
  it('200, 404 (unknown, malformed, extra segments, revoked), 405, 401, 421 and 429 all verify', async () => {
    const { link } = await founderWithLink(t);
    const revoked = await founderWithLink(t);
    await revoked.founder.call('POST', `/api/founder/share-links/${revoked.link.id}/revoke`);
    const limitedIp = uniqueIp();
    const cases: [number, () => Promise<Response>][] = [
      [200, () => t.request(snapshotPath(link.token))],
      [404, () => t.request(snapshotPath('E'.repeat(43)))],
      [404, () => t.request(snapshotPath('not a token!'))],
      [404, () => t.request(`${snapshotPath(link.token)}/extra`)],
      [404, () => t.request(snapshotPath(revoked.link.token))],
      [405, () => t.request(snapshotPath(link.token), { method: 'POST' })],
      [401, () => t.request(snapshotPath(link.token), { headers: { authorization: 'Bearer pk_wrong' } })],
      [421, () => t.request(snapshotPath(link.token), { headers: { host: 'evil.example' } })],
    ];
    for (let i = 0; i < 60; i += 1) await t.request(snapshotPath('E'.repeat(43)), { ip: limitedIp });
    cases.push([429, () => t.request(snapshotPath(link.token), { ip: limitedIp })]);

    const jwks = await fetchJwks();
    for (const [status, send] of cases) {
      const answer = await save(await send());
      expect(answer.status).toBe(status);
      expect(answer.headers.get('content-digest')).toMatch(/^sha-256=:[A-Za-z0-9+/]+={0,2}:$/);
      expect(answer.headers.get('signature-input')).toMatch(
        /^snapshot=\("@status" "content-type" "content-digest" "token-free-digest"\);created=\d+;keyid="[A-Za-z0-9_-]{43}";alg="ed25519";tag="compliance-snapshot"$/,
      );
      expect(answer.headers.get('signature')).toMatch(/^snapshot=:[A-Za-z0-9+/]+={0,2}:$/);
      expect(verificationFailure(answer, jwks), `status ${status}`).toBeNull();
    }
  });

  it('410 for an expired link verifies, with created on the app clock', async () => {
    const app = makeApp(db);
    const { link } = await founderWithLink(app);
    app.clock.advance(7 * DAY + 1);
    const answer = await save(await app.request(snapshotPath(link.token)));
    expect(answer.status).toBe(410);
    expect(verificationFailure(answer, await fetchJwks(app))).toBeNull();
    expect(answer.headers.get('signature-input')).toContain(`;created=${Math.floor(app.clock.now().getTime() / 1000)};`);
  });

  it('a changed body, status or content type fails verification', async () => {
    const { link } = await founderWithLink(t);
    const answer = await save(await t.request(snapshotPath(link.token)));
    const jwks = await fetchJwks();
    expect(verificationFailure(answer, jwks)).toBeNull();

    const text = new TextDecoder().decode(answer.body).replace('"readiness_score":76', '"readiness_score":99');
    expect(text).not.toBe(new TextDecoder().decode(answer.body));
    expect(verificationFailure({ ...answer, body: new TextEncoder().encode(text) }, jwks)).toBe(
      'content digest does not match the body',
    );
    expect(verificationFailure({ ...answer, status: 203 }, jwks)).toBe('bad signature');
    const otherType = new Headers(answer.headers);
    otherType.set('content-type', 'text/plain');
    expect(verificationFailure({ ...answer, headers: otherType }, jwks)).toBe('bad signature');
  });

  it('the token-free digest is the SHA-256 of the body with the share token (which the body names) replaced by {token}', async () => {
    const { link } = await founderWithLink(t);
    const answer = await save(await t.request(snapshotPath(link.token)));
    const sent = Buffer.from(answer.body).toString('latin1');
    expect(sent).toContain(`/share/${link.token}`);
    const tokenFree = Buffer.from(sent.replaceAll(link.token, '{token}'), 'latin1');
    const digest = parseDictionary(answer.headers.get('token-free-digest') ?? '').get('sha-256') as Item | undefined;
    expect(digest && digest[0] instanceof ArrayBuffer && Buffer.from(digest[0])).toEqual(
      createHash('sha256').update(tokenFree).digest(),
    );
    // A 404 for a token of no link: nothing to replace, the two digests agree.
    const unknown = await save(await t.request(snapshotPath('U'.repeat(43))));
    expect(unknown.headers.get('token-free-digest')).toBe(unknown.headers.get('content-digest'));
  });
});

describe('the signature fields, byte for byte', () => {
  it('are those http-message-signatures makes with the same key, time and components (Ed25519 is deterministic)', async () => {
    const { link } = await founderWithLink(t);
    const answer = await save(await t.request(snapshotPath(link.token)));
    const signer = new SnapshotSigner(db, t.clock);
    const body = answer.body;
    const ours = await signer.signatureHeaders(200, 'application/json', body, link.token);
    const [active] = await ensureSigningKeys(db, t.clock.now());
    if (!active) throw new Error('no key');
    const theirs = await httpbis.signMessage(
      {
        key: { id: active.kid, alg: 'ed25519', sign: (data) => Promise.resolve(sign(null, data, active.privateKey)) },
        name: SIGNATURE_LABEL,
        fields: [...SERVER_SIGNED_COMPONENTS],
        params: [...SIGNATURE_PARAMS],
        paramValues: { created: t.clock.now(), tag: SIGNATURE_TAG },
      },
      {
        status: 200,
        headers: {
          'content-type': 'application/json',
          'content-digest': ours['Content-Digest'] ?? '',
          'token-free-digest': ours['Token-Free-Digest'] ?? '',
        },
      },
    );
    const theirHeaders: Record<string, unknown> = theirs.headers;
    expect(ours['Signature-Input']).toBe(String(theirHeaders['Signature-Input']));
    expect(ours.Signature).toBe(String(theirHeaders.Signature));
    // And the app sends what the signer makes.
    expect(answer.headers.get('signature')).toBe(ours.Signature);
    expect(answer.headers.get('content-digest')).toBe(ours['Content-Digest']);
  });
});

describe("signAnswers: false (the benchmark's unsigned server only)", () => {
  it('leaves the snapshot answers unsigned; the default app on the same database signs them', async () => {
    const unsigned = makeApp(db, { signAnswers: false });
    const signedByDefault = makeApp(db);
    const { link } = await founderWithLink(unsigned);
    const [plain, signed] = await Promise.all([
      unsigned.request(snapshotPath(link.token)),
      signedByDefault.request(snapshotPath(link.token)),
    ]);
    expect(plain.status).toBe(200);
    for (const name of ['content-digest', 'signature-input', 'signature']) expect(plain.headers.get(name)).toBeNull();
    expect(signed.status).toBe(200);
    expect(verificationFailure(await save(signed), await fetchJwks(signedByDefault))).toBeNull();
  });
});

describe('the JWK Set', () => {
  it('is public, cacheable, and neither counts a view nor is rate-limited', async () => {
    const { founder, link } = await founderWithLink(t);
    expect((await t.request(snapshotPath(link.token))).status).toBe(200);
    const ip = uniqueIp();
    for (let i = 0; i < 70; i += 1) {
      const response = await t.request('/.well-known/jwks.json', { ip });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
      expect(response.headers.get('content-type')).toBe('application/jwk-set+json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('ratelimit-policy')).toBeNull();
    }
    expect(await listedViewCount(founder, link.id)).toBe(1);
    const jwks = await fetchJwks();
    expect(jwks.keys.filter((key) => key.signed_until === undefined)).toHaveLength(1);
    for (const key of jwks.keys) expect(key.kid).toBe(thumbprintOf(key));
  });

  it('lets a browser page read the signature headers', async () => {
    const response = await t.request(snapshotPath('E'.repeat(43)), { headers: { origin: 'https://reader.example' } });
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const name of ['content-digest', 'token-free-digest', 'signature-input', 'signature']) expect(exposed).toContain(name);
    // A preflight attests nothing and is not signed.
    const preflight = await t.request(snapshotPath('E'.repeat(43)), {
      method: 'OPTIONS',
      headers: { origin: 'https://reader.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('signature')).toBeNull();
  });

  it('HEAD carries the headers of the GET answer it stands for, and counts no view', async () => {
    const { founder, link } = await founderWithLink(t);
    const head = await t.request(snapshotPath(link.token), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-digest')).toMatch(/^sha-256=:[A-Za-z0-9+/]+={0,2}:$/);
    expect(head.headers.get('signature-input')).toMatch(
      /^snapshot=\("@status" "content-type" "content-digest" "token-free-digest"\)/,
    );
    expect(head.headers.get('signature')).toMatch(/^snapshot=:/);
    expect(await listedViewCount(founder, link.id)).toBe(0);
  });
});

describe('the signing key', () => {
  it('survives a restart: another app on the same database signs with the same kid', async () => {
    const answer = await save(await t.request(snapshotPath('E'.repeat(43))));
    const another = await testDb.openAnother();
    onTestFinished(async () => {
      if (another !== db) await another.close();
    });
    const restarted = makeApp(another);
    const after = await save(await restarted.request(snapshotPath('E'.repeat(43))));
    expect(keyidOf(after)).toBe(keyidOf(answer));
    expect(verificationFailure(answer, await fetchJwks(restarted))).toBeNull();
  });

  it.skipIf(TEST_DATABASE_URL)('survives a restart of a PGlite data directory', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lens-signing-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await openDatabase({ kind: 'pglite', dataDir });
    const before = await fetchJwks(makeApp(first));
    await first.close();
    const second = await openDatabase({ kind: 'pglite', dataDir });
    onTestFinished(() => second.close());
    expect(await fetchJwks(makeApp(second))).toEqual(before);
  });

  it('rotates through the operator API: old answers still verify, new ones use the new kid', async () => {
    const { link } = await founderWithLink(t);
    const before = await save(await t.request(snapshotPath(link.token)));
    const oldKid = keyidOf(before);

    await expect(rotate(t).then((r) => r.status)).resolves.toBe(401);
    await expect(rotate(t, 'wrong-secret').then((r) => r.status)).resolves.toBe(401);
    t.clock.advance(60_000);
    const rotated = await rotate(t, OPERATOR_SECRET);
    const text = await rotated.text();
    expect(rotated.status, text).toBe(200);
    const data = z.object({ data: jwksSchema.extend({ active_kid: z.string() }) }).parse(JSON.parse(text)).data;
    expect(data.active_kid).not.toBe(oldKid);

    const jwks = await fetchJwks();
    const old = jwks.keys.find((key) => key.kid === oldKid);
    expect(old?.signed_until).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect(jwks.keys[0]).toMatchObject({ kid: data.active_kid, signed_from: old?.signed_until });
    expect(jwks.keys[0]?.signed_until).toBeUndefined();
    expect(verificationFailure(before, jwks)).toBeNull();

    const after = await save(await t.request(snapshotPath(link.token)));
    expect(keyidOf(after)).toBe(data.active_kid);
    expect(verificationFailure(after, jwks)).toBeNull();
    // Another instance on the same database signs with the new key too.
    expect(keyidOf(await save(await makeApp(db).request(snapshotPath(link.token))))).toBe(data.active_kid);
  });

  it('a rotation made by another process (the CLI, another instance) is picked up within a minute of the server clock', async () => {
    const { link } = await founderWithLink(t);
    const running = makeApp(db);
    const ip = uniqueIp();
    const kidNow = async () => keyidOf(await save(await running.request(snapshotPath(link.token), { ip })));
    const before = await kidNow();
    const [fresh] = await rotateSigningKey(db, running.clock.now());
    if (!fresh) throw new Error('no new key');
    expect(fresh.kid).not.toBe(before);
    // Within the minute the running server keeps the keys in hand: no query per answer.
    expect(await kidNow()).toBe(before);
    running.clock.advance(KEY_REFRESH_MS + 1);
    // The next answer starts a fresh read of the keys; the answers after it sign with the new key.
    await expect.poll(kidNow, { timeout: 5_000, interval: 50 }).toBe(fresh.kid);
    expect(
      verificationFailure(await save(await running.request(snapshotPath(link.token), { ip })), await fetchJwks(running)),
    ).toBeNull();
  });

  it('is not rotated without an operator secret configured (404)', async () => {
    const plain = makeApp(db);
    expect((await rotate(plain, OPERATOR_SECRET)).status).toBe(404);
  });

  it.skipIf(TEST_DATABASE_URL)('rotates with `npm run server -- keys signing rotate`', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lens-signing-cli-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const lines: string[] = [];
    const context = {
      databaseTarget: () => ({ kind: 'pglite' as const, dataDir }),
      usage: 'usage',
      print: (l: string) => lines.push(l),
    };
    expect(await runKeysCommand(['signing', 'list'], context)).toBe(0);
    expect(lines).toEqual([expect.stringMatching(/^[A-Za-z0-9_-]{43} {2}active {2}signed from \S+Z$/)]);
    const firstKid = lines[0]?.split(' ')[0];
    lines.length = 0;
    expect(await runKeysCommand(['signing', 'rotate'], context)).toBe(0);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${firstKid}  retired  signed from \\S+Z until \\S+Z$`));

    const errors: string[] = [];
    expect(await runKeysCommand(['signing', 'nope'], { ...context, printError: (l) => errors.push(l) })).toBe(2);
    const reopened = await openDatabase({ kind: 'pglite', dataDir });
    onTestFinished(() => reopened.close());
    const jwks = await fetchJwks(makeApp(reopened));
    expect(jwks.keys.map((key) => key.kid)).toEqual([lines[0]?.split(' ')[0], firstKid]);
  });
});
