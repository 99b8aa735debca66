/**
 * The background's check of each answer's signature (lib/background/snapshot-service/signatures.ts):
 * the service's key set fetched from its own origin, once, and again for an unknown key id at most
 * once a minute; an unsigned answer costs no fetch; a key set that cannot be fetched is said, not
 * mistaken for a bad signature.
 */
import { describe, expect, it, vi } from 'vitest';
import { createSignatureChecker, JWKS_REFETCH_MS } from '@/lib/background/snapshot-service/signatures';
import { buildSuccessEnvelope, FIXTURE_TOKEN } from '@/test/fixtures/snapshot';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createHarness, jsonResponse, ORIGIN as LOCAL_ORIGIN } from './helpers';
import { CREATED, signedAnswer, TEST_TOKEN, testKey, withHeader, type TestKey } from '../../core/signing/sign';
import { verifyCopy } from '@/lib/core/signing/copy';

const ORIGIN = 'https://comply.example';

function keyServer(initial: TestKey[]) {
  let keys = initial;
  let clock = 0;
  const fetch = vi.fn(async (url: string) => {
    expect(url).toBe(`${ORIGIN}/.well-known/jwks.json`);
    return new Response(JSON.stringify({ keys: keys.map((key) => key.jwk) }), {
      headers: { 'content-type': 'application/json' },
    });
  });
  const checker = createSignatureChecker({ fetch, now: () => clock });
  return {
    fetch,
    checker,
    publish: (next: TestKey[]) => (keys = next),
    advance: (ms: number) => (clock += ms),
  };
}

describe('createSignatureChecker', () => {
  it('verifies an answer against the key set it fetches once from the service’s origin', async () => {
    const key = await testKey();
    const { fetch, checker } = keyServer([key]);
    const answer = await signedAnswer(key);
    expect(await checker.check(ORIGIN, answer, TEST_TOKEN)).toMatchObject({
      state: 'verified',
      kid: key.jwk.kid,
      signedAt: CREATED * 1000,
    });
    expect(await checker.check(ORIGIN, await signedAnswer(key, { status: 404 }), TEST_TOKEN)).toMatchObject({
      state: 'verified',
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a verified answer carries its verifiable copy: the origin only, the body without the token, and it verifies as saved', async () => {
    const key = await testKey();
    const { checker } = keyServer([key]);
    const body = `{"links":{"human_summary_url":"${ORIGIN}/share/${TEST_TOKEN}"}}`;
    const verdict = await checker.check(ORIGIN, await signedAnswer(key, { body }), TEST_TOKEN);
    if (verdict.state !== 'verified' || !verdict.copy) throw new Error(`no copy: ${JSON.stringify(verdict)}`);
    expect(verdict.copy).toMatchObject({ origin: ORIGIN, status: 200, key: key.jwk });
    expect(JSON.stringify(verdict)).not.toContain(TEST_TOKEN);
    expect(Buffer.from(verdict.copy.body_base64, 'base64').toString()).toBe(
      `{"links":{"human_summary_url":"${ORIGIN}/share/{token}"}}`,
    );
    const saved = { ...verdict.copy, saved_at: '2026-11-28T09:00:00.000Z' };
    expect(await verifyCopy(saved, { keys: [key.jwk] })).toMatchObject({ check: 'key-set', verdict: { state: 'verified' } });
  });

  it('an answer whose signature leaves out the token-free digest is verified, without a copy', async () => {
    const key = await testKey();
    const { checker } = keyServer([key]);
    const answer = await signedAnswer(key, { fields: ['@status', 'content-type', 'content-digest'] });
    expect(await checker.check(ORIGIN, answer, TEST_TOKEN)).toEqual({
      state: 'verified',
      kid: key.jwk.kid,
      signedAt: CREATED * 1000,
    });
  });

  it('an unsigned answer is unsigned, and fetches no keys', async () => {
    const key = await testKey();
    const { fetch, checker } = keyServer([key]);
    const unsigned = withHeader(withHeader(await signedAnswer(key), 'signature', null), 'signature-input', null);
    expect(await checker.check(ORIGIN, unsigned, TEST_TOKEN)).toEqual({ state: 'unsigned' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a changed body is invalid: the digest no longer matches', async () => {
    const key = await testKey();
    const { checker } = keyServer([key]);
    const answer = await signedAnswer(key);
    const edited = { ...answer, body: new TextEncoder().encode('{"company":{"name":"Kobo!"}}') };
    expect(await checker.check(ORIGIN, edited, TEST_TOKEN)).toMatchObject({ state: 'invalid', reason: 'digest-mismatch' });
  });

  it('an unknown key id fetches the key set again once, and then not again within the minute', async () => {
    const [old, rotated, forged] = await Promise.all([testKey(), testKey(), testKey()]);
    const server = keyServer([old]);
    expect(await server.checker.check(ORIGIN, await signedAnswer(old), TEST_TOKEN)).toMatchObject({ state: 'verified' });
    server.advance(JWKS_REFETCH_MS);
    // The service rotated: the new key is fetched once.
    server.publish([old, rotated]);
    expect(await server.checker.check(ORIGIN, await signedAnswer(rotated), TEST_TOKEN)).toMatchObject({
      state: 'verified',
      kid: rotated.jwk.kid,
    });
    expect(server.fetch).toHaveBeenCalledTimes(2);
    // A key the service never published, again and again: one more fetch at most per minute.
    for (let i = 0; i < 5; i += 1) {
      expect(await server.checker.check(ORIGIN, await signedAnswer(forged), TEST_TOKEN)).toMatchObject({
        state: 'invalid',
        reason: 'unknown-kid',
      });
    }
    expect(server.fetch).toHaveBeenCalledTimes(2);
    server.advance(JWKS_REFETCH_MS);
    await server.checker.check(ORIGIN, await signedAnswer(forged), TEST_TOKEN);
    expect(server.fetch).toHaveBeenCalledTimes(3);
  });

  it('a key set that cannot be fetched leaves the answer unchecked, not invalid', async () => {
    const key = await testKey();
    const fetch = vi.fn(async () => new Response('down', { status: 503 }));
    const checker = createSignatureChecker({ fetch, now: () => 0 });
    expect(await checker.check(ORIGIN, await signedAnswer(key), TEST_TOKEN)).toMatchObject({ state: 'unchecked' });
    const garbage = createSignatureChecker({ fetch: async () => new Response('{"keys":"no"}'), now: () => 0 });
    expect(await garbage.check(ORIGIN, await signedAnswer(key), TEST_TOKEN)).toMatchObject({ state: 'unchecked' });
  });

  it('the snapshot service fetches, checks and keeps the verdict with the snapshot: a cached read has it too, at no fetch', async () => {
    fakeBrowser.reset();
    const key = await testKey();
    const answer = await signedAnswer(key, { body: JSON.stringify(buildSuccessEnvelope()) });
    const { service, fetch } = createHarness(async (url) =>
      url.endsWith('/.well-known/jwks.json')
        ? jsonResponse({ keys: [key.jwk] })
        : new Response(answer.body.slice(), { status: 200, headers: answer.headers }),
    );
    const request = { origin: LOCAL_ORIGIN, token: FIXTURE_TOKEN };
    const fresh = await service.getSnapshot(request);
    expect(fresh).toMatchObject({ status: 'ready', fromCache: false, signature: { state: 'verified', kid: key.jwk.kid } });
    const cached = await service.getSnapshot(request);
    expect(cached).toMatchObject({ status: 'ready', fromCache: true, signature: { state: 'verified', kid: key.jwk.kid } });
    expect(fetch.mock.calls.map(([url]) => new URL(url).pathname)).toEqual([
      `/api/v1/compliance-status/${FIXTURE_TOKEN}`,
      '/.well-known/jwks.json',
    ]);
  });
});
