/**
 * The verifiable copy (lib/core/signing/copy.ts, its schema in lib/core/schemas/signing.ts): built from
 * a verified answer, written as JSON and read back, it verifies against the key set or against only
 * its own key; it keeps the body's bytes exactly and nothing of the request URL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJwks, parseVerifiableCopy, type PublishedJwk } from '@/lib/core/schemas/signing';
import { buildVerifiableCopy, COPY_FORMAT, verifyCopy, type VerifiableCopy } from '@/lib/core/signing/copy';
import type { SignedResponse } from '@/lib/core/signing/message';
import { verifySignedResponse } from '@/lib/core/signing/verify';
import { signedAnswer, TEST_TOKEN as TOKEN, testKey, withoutToken, type TestKey } from './sign';

const SNAPSHOT_URL = `https://lens.example:8443/api/v1/compliance-status/${TOKEN}?x=1`;
const SAVED_AT = new Date('2026-06-20T09:00:00.000Z');

let key: TestKey;
let other: TestKey;

beforeAll(async () => {
  key = await testKey();
  other = await testKey();
});

async function copyOf(answer: SignedResponse, jwks = { keys: [key.jwk] }): Promise<VerifiableCopy<PublishedJwk>> {
  const verdict = await verifySignedResponse(answer, jwks);
  if (verdict.state !== 'verified') throw new Error(`not verified: ${JSON.stringify(verdict)}`);
  return buildVerifiableCopy(answer, verdict, { serviceUrl: SNAPSHOT_URL, savedAt: SAVED_AT, token: TOKEN });
}

const decodedBody = (copy: VerifiableCopy) => Buffer.from(copy.body_base64, 'base64').toString('latin1');

/** The copy as written to a file and read back. */
function roundTrip(copy: VerifiableCopy<PublishedJwk>): VerifiableCopy<PublishedJwk> {
  const parsed = parseVerifiableCopy(JSON.stringify(copy, null, 2));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

describe('building a copy', () => {
  it('holds the format, the origin only, the time, the status, the signed headers, the body and the key', async () => {
    const answer = await signedAnswer(key);
    const copy = await copyOf(answer);
    expect(copy).toEqual({
      format: COPY_FORMAT,
      version: 1,
      origin: 'https://lens.example:8443',
      saved_at: '2026-06-20T09:00:00.000Z',
      status: 200,
      headers: {
        'content-type': answer.headers.get('content-type'),
        'content-digest': answer.headers.get('content-digest'),
        'token-free-digest': answer.headers.get('token-free-digest'),
        'signature-input': answer.headers.get('signature-input'),
        signature: answer.headers.get('signature'),
      },
      body_base64: Buffer.from(answer.body).toString('base64'),
      key: key.jwk,
    });
    expect(JSON.stringify(copy)).not.toContain(TOKEN);
    expect(roundTrip(copy)).toEqual(copy);
  });

  it('keeps the body bytes exactly, UTF-8 or not', async () => {
    const body = new Uint8Array([0, 255, 0xc3, 0x28, 10, 0x80, 0x7f]);
    const copy = roundTrip(await copyOf(await signedAnswer(key, { body, contentType: 'application/octet-stream' })));
    expect(new Uint8Array(Buffer.from(copy.body_base64, 'base64'))).toEqual(body);
    expect((await verifyCopy(copy)).verdict.state).toBe('verified');
  });

  it('holds the body with its share token replaced by {token}, and verifies; the body as sent, token and all, does not', async () => {
    const sent = `{"links":{"human_summary_url":"https://lens.example:8443/share/${TOKEN}"},"note":"${TOKEN}"}`;
    const answer = await signedAnswer(key, { body: sent });
    const copy = roundTrip(await copyOf(answer));
    expect(decodedBody(copy)).toBe('{"links":{"human_summary_url":"https://lens.example:8443/share/{token}"},"note":"{token}"}');
    expect(decodedBody(copy)).not.toContain(TOKEN);
    expect(await verifyCopy(copy, { keys: [key.jwk] })).toMatchObject({ verdict: { state: 'verified' } });
    // Putting the token back (the exact bytes sent) is not what the copy's digest covers.
    const withToken = { ...copy, body_base64: Buffer.from(sent).toString('base64') };
    expect((await verifyCopy(withToken)).verdict).toMatchObject({ state: 'invalid', reason: 'digest-mismatch' });
  });

  it('refuses an answer whose signature does not cover the token-free digest: its copy would hold the token', async () => {
    const answer = await signedAnswer(key, { fields: ['@status', 'content-type', 'content-digest'] });
    const verdict = await verifySignedResponse(answer, { keys: [key.jwk] });
    if (verdict.state !== 'verified') throw new Error('not verified');
    expect(() => buildVerifiableCopy(answer, verdict, { serviceUrl: SNAPSHOT_URL, savedAt: SAVED_AT, token: TOKEN })).toThrow(
      /token-free-digest/,
    );
    expect(withoutToken(new TextEncoder().encode(`a${TOKEN}b`), TOKEN).toString()).toBe('a{token}b');
  });

  it('keeps a further covered header, and only covered ones', async () => {
    const answer = await signedAnswer(key, {
      fields: ['@status', 'content-type', 'content-digest', 'token-free-digest', 'cache-control'],
      headers: { 'cache-control': 'no-store', 'x-request-url': SNAPSHOT_URL },
    });
    const copy = roundTrip(await copyOf(answer));
    expect(Object.keys(copy.headers).sort()).toEqual([
      'cache-control',
      'content-digest',
      'content-type',
      'signature',
      'signature-input',
      'token-free-digest',
    ]);
    expect((await verifyCopy(copy)).verdict.state).toBe('verified');
  });

  it('refuses a service URL without an http(s) origin', async () => {
    const answer = await signedAnswer(key);
    const verdict = await verifySignedResponse(answer, { keys: [key.jwk] });
    if (verdict.state !== 'verified') throw new Error('not verified');
    expect(() =>
      buildVerifiableCopy(answer, verdict, { serviceUrl: 'data:text/plain,x', savedAt: SAVED_AT, token: TOKEN }),
    ).toThrow();
  });
});

describe('verifying a copy', () => {
  it('against the key set: who signed it', async () => {
    const copy = roundTrip(await copyOf(await signedAnswer(key)));
    const result = await verifyCopy(copy, { keys: [other.jwk, key.jwk] });
    expect(result).toMatchObject({ check: 'key-set', verdict: { state: 'verified', kid: key.jwk.kid } });
  });

  it('against only the key inside the file: unchanged since saved', async () => {
    const copy = roundTrip(await copyOf(await signedAnswer(key)));
    expect(await verifyCopy(copy)).toMatchObject({ check: 'copy-key', verdict: { state: 'verified', kid: key.jwk.kid } });
  });

  it('one byte of the body changed: refused either way', async () => {
    const copy = roundTrip(await copyOf(await signedAnswer(key)));
    const bytes = Buffer.from(copy.body_base64, 'base64');
    bytes[3] = (bytes[3] ?? 0) ^ 1;
    const edited = { ...copy, body_base64: bytes.toString('base64') };
    expect(await verifyCopy(edited)).toMatchObject({ verdict: { state: 'invalid', reason: 'digest-mismatch' } });
    expect(await verifyCopy(edited, { keys: [key.jwk] })).toMatchObject({
      verdict: { state: 'invalid', reason: 'digest-mismatch' },
    });
  });

  it('the status changed: refused', async () => {
    const copy = roundTrip(await copyOf(await signedAnswer(key, { status: 410 })));
    expect(await verifyCopy({ ...copy, status: 200 })).toMatchObject({ verdict: { state: 'invalid', reason: 'bad-signature' } });
  });

  it("the file's key is not in the key set: refused, saying so", async () => {
    const copy = roundTrip(await copyOf(await signedAnswer(key)));
    const result = await verifyCopy(copy, { keys: [other.jwk] });
    expect(result).toMatchObject({ check: 'key-set', verdict: { state: 'invalid', reason: 'unknown-kid' } });
    expect(result.verdict.state === 'invalid' && result.verdict.message).toContain(key.jwk.kid);
  });

  it("another key put in the file: refused by itself, and against the set the file's key is not the signer", async () => {
    const copy = roundTrip(await copyOf(await signedAnswer(key)));
    const swapped = { ...copy, key: other.jwk };
    expect(await verifyCopy(swapped)).toMatchObject({ check: 'copy-key', verdict: { state: 'invalid', reason: 'unknown-kid' } });
    expect(await verifyCopy(swapped, { keys: [key.jwk, other.jwk] })).toMatchObject({
      verdict: { state: 'invalid', reason: 'bad-key' },
    });
  });

  it('a header the signature does not cover, added to the file: refused', async () => {
    const copy = roundTrip(await copyOf(await signedAnswer(key)));
    const padded = { ...copy, headers: { ...copy.headers, 'x-note': 'hello' } };
    expect(await verifyCopy(padded)).toMatchObject({ verdict: { state: 'invalid', reason: 'malformed' } });
  });
});

describe('reading a copy file', () => {
  it.each([
    ['not JSON', '{', /not JSON/],
    ['another format', JSON.stringify({ format: 'other' }), /format/],
  ])('refuses %s with a message', (_what, text, message) => {
    const parsed = parseVerifiableCopy(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });

  it('refuses a field the format does not name (a URL, a token), an origin with a path, a body that is not base64', async () => {
    const copy = await copyOf(await signedAnswer(key));
    for (const bad of [
      { ...copy, url: SNAPSHOT_URL },
      { ...copy, token: TOKEN },
      { ...copy, origin: SNAPSHOT_URL },
      { ...copy, origin: 'https://lens.example/' },
      { ...copy, body_base64: 'not base64!' },
      { ...copy, status: 1000 },
      { ...copy, headers: { ...copy.headers, signature: undefined } },
    ]) {
      expect(parseVerifiableCopy(JSON.stringify(bad)).ok, JSON.stringify(bad).slice(0, 80)).toBe(false);
    }
  });

  it('reads a JWK Set and refuses what is not one', () => {
    expect(parseJwks(JSON.stringify({ keys: [key.jwk] }))).toEqual({ ok: true, value: { keys: [key.jwk] } });
    expect(parseJwks('{"keys":[{"kty":"RSA"}]}').ok).toBe(false);
    expect(parseJwks('<html>').ok).toBe(false);
  });
});
