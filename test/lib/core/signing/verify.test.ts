/**
 * The shared verifier of signed snapshot answers (lib/core/signing/verify.ts): each way an answer can
 * be changed or malformed gets its own verdict, and an answer signed by the library the server uses
 * verifies.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { headerLookup, type SignedResponse } from '@/lib/core/signing/message';
import { verifySignedResponse, type Verdict } from '@/lib/core/signing/verify';
import { contentDigestOf, CREATED, signedAnswer, testKey, withHeader, type TestKey } from './sign';

let key: TestKey;
let other: TestKey;
let jwks: { keys: TestKey['jwk'][] };

beforeAll(async () => {
  key = await testKey();
  other = await testKey();
  jwks = { keys: [other.jwk, key.jwk] };
});

const verify = (answer: SignedResponse, set = jwks) => verifySignedResponse(answer, set);

function expectInvalid(verdict: Verdict, reason: string) {
  expect(verdict).toMatchObject({ state: 'invalid', reason });
  if (verdict.state === 'invalid') expect(verdict.message.length).toBeGreaterThan(10);
}

describe('a valid answer', () => {
  it('verifies: the key of the set that signed, when, and what the signature covers', async () => {
    const answer = await signedAnswer(key);
    const verdict = await verify(answer);
    expect(verdict).toEqual({
      state: 'verified',
      kid: key.jwk.kid,
      created: CREATED,
      signedAt: new Date(CREATED * 1000),
      key: key.jwk,
      components: ['@status', 'content-type', 'content-digest', 'token-free-digest'],
    });
    // The verdict is the same the second time (the imported key is reused).
    expect(await verify(answer)).toEqual(verdict);
  });

  it('checked against the token-free digest (a copy), a signature that does not cover it is refused', async () => {
    const answer = await signedAnswer(key, { fields: ['@status', 'content-type', 'content-digest'] });
    expect((await verify(answer)).state).toBe('verified');
    expect(await verifySignedResponse(answer, { keys: [key.jwk] }, 'token-free-digest')).toMatchObject({
      state: 'invalid',
      reason: 'missing-component',
    });
  });

  it('verifies 404 and 410 refusals, each with its own status', async () => {
    for (const status of [404, 410]) {
      const answer = await signedAnswer(key, { status, body: '{"success":false,"error":"gone","code":"X"}' });
      expect((await verify(answer)).state).toBe('verified');
      expectInvalid(await verify({ ...answer, status: 200 }), 'bad-signature');
    }
  });

  it('reads headers from a plain record, whatever the case of their names', async () => {
    const answer = await signedAnswer(key);
    const record = Object.fromEntries([...answer.headers].map(([name, value]) => [name.toUpperCase(), value]));
    expect((await verify({ ...answer, headers: headerLookup(record) })).state).toBe('verified');
  });

  it('verifies when the signature covers more components than the three (a later server)', async () => {
    const answer = await signedAnswer(key, {
      fields: ['@status', 'content-type', 'content-digest', 'cache-control'],
      headers: { 'cache-control': 'no-store' },
    });
    expect(await verify(answer)).toMatchObject({
      state: 'verified',
      components: ['@status', 'content-type', 'content-digest', 'cache-control'],
    });
    expectInvalid(await verify(withHeader(answer, 'cache-control', 'max-age=60')), 'bad-signature');
    expectInvalid(await verify(withHeader(answer, 'cache-control', null)), 'missing-component');
  });

  it('verifies whatever bytes the body holds (not UTF-8 too)', async () => {
    const body = new Uint8Array([0, 255, 254, 10, 13, 0x80]);
    const answer = await signedAnswer(key, { body, contentType: 'application/octet-stream' });
    expect((await verify(answer)).state).toBe('verified');
  });
});

describe('a changed answer', () => {
  it('changed body: the digest does not match', async () => {
    const answer = await signedAnswer(key);
    const body = new TextEncoder().encode('{"company":{"name":"Kobi"}}');
    expectInvalid(await verify({ ...answer, body }), 'digest-mismatch');
  });

  it('changed body with a digest made to match: the signature does not', async () => {
    const answer = await signedAnswer(key);
    const body = new TextEncoder().encode('{"company":{"name":"Kobi"}}');
    expectInvalid(await verify(withHeader({ ...answer, body }, 'content-digest', contentDigestOf(body))), 'bad-signature');
  });

  it('wrong digest: Content-Digest of other bytes', async () => {
    const answer = await signedAnswer(key);
    expectInvalid(await verify(withHeader(answer, 'content-digest', contentDigestOf('other'))), 'digest-mismatch');
  });

  it('changed status', async () => {
    expectInvalid(await verify({ ...(await signedAnswer(key)), status: 203 }), 'bad-signature');
  });

  it('changed content type', async () => {
    expectInvalid(await verify(withHeader(await signedAnswer(key), 'content-type', 'text/plain')), 'bad-signature');
  });

  it('tampered signature: one bit of it flipped', async () => {
    const answer = await signedAnswer(key);
    const value = answer.headers.get('signature') ?? '';
    const bytes = Buffer.from(/:(.*):/.exec(value)?.[1] ?? '', 'base64');
    bytes[10] = (bytes[10] ?? 0) ^ 1;
    expectInvalid(await verify(withHeader(answer, 'signature', `snapshot=:${bytes.toString('base64')}:`)), 'bad-signature');
  });

  it('changed signature parameters (created moved): the signature does not match', async () => {
    const answer = await signedAnswer(key);
    const input = (answer.headers.get('signature-input') ?? '').replace(`created=${CREATED}`, `created=${CREATED + 1}`);
    expectInvalid(await verify(withHeader(answer, 'signature-input', input)), 'bad-signature');
  });
});

describe('keys', () => {
  it('unknown kid: the signing key is not in the set', async () => {
    const verdict = await verify(await signedAnswer(key), { keys: [other.jwk] });
    expectInvalid(verdict, 'unknown-kid');
    expect(verdict).toMatchObject({ message: expect.stringContaining(key.jwk.kid) as string });
  });

  it('a key whose kid is not its thumbprint is refused', async () => {
    const impostor = { ...other.jwk, kid: key.jwk.kid };
    expectInvalid(await verify(await signedAnswer(key), { keys: [impostor] }), 'bad-key');
  });

  it('a key whose x is no Ed25519 key is refused', async () => {
    const broken = { ...key.jwk, x: 'not-a-key' };
    expectInvalid(await verify(await signedAnswer(key), { keys: [broken] }), 'bad-key');
  });

  it('a signature made outside the dates its key signed between is refused', async () => {
    const answer = await signedAnswer(key);
    expectInvalid(await verify(answer, { keys: [{ ...key.jwk, signed_from: CREATED + 1 }] }), 'outside-key-dates');
    expectInvalid(await verify(answer, { keys: [{ ...key.jwk, signed_until: CREATED - 1 }] }), 'outside-key-dates');
    expect((await verify(answer, { keys: [{ ...key.jwk, signed_from: CREATED, signed_until: CREATED }] })).state).toBe(
      'verified',
    );
  });
});

describe('the wire contract', () => {
  it('wrong tag', async () => {
    expectInvalid(await verify(await signedAnswer(key, { tag: 'something-else' })), 'wrong-tag');
  });

  it('wrong alg', async () => {
    expectInvalid(await verify(await signedAnswer(key, { alg: 'rsa-pss-sha512' })), 'wrong-alg');
  });

  it('wrong label: a signature, but not labelled snapshot', async () => {
    expectInvalid(await verify(await signedAnswer(key, { label: 'sig1' })), 'wrong-label');
  });

  it('a covered component missing from the signature', async () => {
    const answer = await signedAnswer(key, { fields: ['@status', 'content-type'] });
    expectInvalid(await verify(answer), 'missing-component');
  });

  it('a covered header absent from the answer', async () => {
    expectInvalid(await verify(withHeader(await signedAnswer(key), 'content-digest', null)), 'missing-component');
  });

  it('a derived component the verifier does not derive is refused, not guessed', async () => {
    const answer = await signedAnswer(key);
    const input = (answer.headers.get('signature-input') ?? '').replace('"@status"', '"@status" "@path"');
    expectInvalid(await verify(withHeader(answer, 'signature-input', input)), 'unsupported-component');
    const sf = (answer.headers.get('signature-input') ?? '').replace('"content-type"', '"content-type";sf');
    expectInvalid(await verify(withHeader(answer, 'signature-input', sf)), 'unsupported-component');
    for (const name of ['Content-Type', 'content type', 'a\\"b']) {
      const odd = (answer.headers.get('signature-input') ?? '').replace('"content-type"', `"content-type" "${name}"`);
      expectInvalid(await verify(withHeader(answer, 'signature-input', odd)), 'unsupported-component');
    }
  });
});

describe('missing and malformed fields', () => {
  it('no signature fields at all: unsigned', async () => {
    const answer = withHeader(withHeader(await signedAnswer(key), 'signature', null), 'signature-input', null);
    expect(await verify(answer)).toMatchObject({ state: 'unsigned' });
    // Without even a digest, the same.
    expect(await verify(withHeader(answer, 'content-digest', null))).toMatchObject({ state: 'unsigned' });
  });

  it('one of the two signature fields: incomplete', async () => {
    const answer = await signedAnswer(key);
    expectInvalid(await verify(withHeader(answer, 'signature', null)), 'incomplete');
    expectInvalid(await verify(withHeader(answer, 'signature-input', null)), 'incomplete');
    expectInvalid(await verify(withHeader(answer, 'signature', 'other=:AAAA:')), 'incomplete');
  });

  it.each([
    ['not a dictionary', 'snapshot=("@status"'],
    ['an item, not an inner list', 'snapshot="@status"'],
    ['no created', 'snapshot=("@status" "content-type" "content-digest");keyid="k";alg="ed25519";tag="compliance-snapshot"'],
    [
      'a created that is not an integer',
      'snapshot=("@status" "content-type" "content-digest");created=1.5;keyid="k";alg="ed25519";tag="compliance-snapshot"',
    ],
    ['no keyid', 'snapshot=("@status" "content-type" "content-digest");created=1;alg="ed25519";tag="compliance-snapshot"'],
    [
      'a component twice',
      'snapshot=("@status" "@status" "content-type" "content-digest");created=1;keyid="k";alg="ed25519";tag="compliance-snapshot"',
    ],
    [
      'a component that is not a string',
      'snapshot=("@status" "content-type" "content-digest" 5);created=1;keyid="k";alg="ed25519";tag="compliance-snapshot"',
    ],
  ])('malformed Signature-Input: %s', async (_what, value) => {
    expectInvalid(await verify(withHeader(await signedAnswer(key), 'signature-input', value)), 'malformed');
  });

  it('malformed Signature and Content-Digest', async () => {
    const answer = await signedAnswer(key);
    expectInvalid(await verify(withHeader(answer, 'signature', 'snapshot=:not base64')), 'malformed');
    expectInvalid(await verify(withHeader(answer, 'signature', 'snapshot="a string"')), 'malformed');
    expectInvalid(await verify(withHeader(answer, 'content-digest', 'sha-256="hex"')), 'malformed');
    expectInvalid(
      await verify(withHeader(answer, 'content-digest', `sha-512=:${Buffer.alloc(64).toString('base64')}:`)),
      'malformed',
    );
  });
});
