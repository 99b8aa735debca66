/**
 * What the background pays to check a signed snapshot answer (issue #36; goal: under 2 ms each). Real
 * answers of the bundled server are kept as the background keeps them (status, `Headers`, body bytes),
 * then checked with the background's own checker (lib/background/snapshot-service/signatures.ts: the
 * key set read once, the Web Crypto key imported once, then the digest, the signature base and one
 * Ed25519 verification per answer), beside baselines on the same bodies in the same batches, so a
 * noisy machine shows. Measured in Node's Web Crypto, not in the browser's worker.
 */
import { snapshotSuccessEnvelopeSchema } from '../../lib/core/schemas/snapshot';
import type { SignedResponse } from '../../lib/core/signing/message';
import { ownBytes } from '../../lib/core/signing/verify';
import { JWKS_PATH } from '../../lib/core/signing/wire';
import { createSignatureChecker } from '../../lib/background/snapshot-service/signatures';
import { FounderClient } from '../e2e/support/server';
import { OPERATOR_SECRET, startSnapshotServer, stop } from './server';
import { median } from './stats';
import { percentile } from './webhook-receivers';

const GOAL_MS = 2;

export interface VerificationBenchResult {
  rows: Record<string, number | string>[];
  notes: string[];
}

async function keep(response: Response): Promise<SignedResponse> {
  return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
}

/** Answers of one server: `answers` signed by its first key, then one signed by each of `keys` new keys. */
async function collectAnswers(answers: number, keys: number) {
  const server = await startSnapshotServer();
  try {
    const link = await (await FounderClient.signUp(server.baseUrl, 'Benchmark Pay Ltd')).createShareLink();
    let client = 0;
    // A new client address every 50 answers keeps each under the limit of 60 a minute.
    const get = async () =>
      keep(
        await fetch(`${server.baseUrl}/api/v1/compliance-status/${link.token}`, {
          headers: { 'x-forwarded-for': `10.9.${Math.floor(client / 50)}.${client++ % 50}` },
        }),
      );
    const cached: SignedResponse[] = [];
    for (let i = 0; i < answers; i++) cached.push(await get());
    const fresh: SignedResponse[] = [];
    for (let i = 0; i < keys; i++) {
      const rotated = await fetch(`${server.baseUrl}/api/operator/signing-keys/rotate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${OPERATOR_SECRET}` },
      });
      if (!rotated.ok) throw new Error(`key rotation failed: ${rotated.status} ${await rotated.text()}`);
      fresh.push(await get());
    }
    // The key set as the service publishes it after the rotations: every key, retired ones included.
    const jwks = await (await fetch(`${server.baseUrl}${JWKS_PATH}`)).text();
    return { origin: server.baseUrl, token: link.token, cached, fresh, jwks };
  } finally {
    await stop(server.child);
  }
}

/** ms per operation of one batch: `batchSize` runs of `operation` over the answers in turn. */
async function timeBatch(
  answers: readonly SignedResponse[],
  batchSize: number,
  operation: (answer: SignedResponse) => Promise<unknown>,
): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < batchSize; i++) {
    const answer = answers[i % answers.length];
    if (answer) await operation(answer);
  }
  return (performance.now() - start) / batchSize;
}

export async function benchVerification(options: {
  answers: number;
  batches: number;
  batchSize: number;
  keys: number;
}): Promise<VerificationBenchResult> {
  const { origin, token, cached, fresh, jwks } = await collectAnswers(options.answers, options.keys);
  // The background's fetch of the key set, answered from memory: what is measured is the check, not the network.
  const fetchKeys = (url: string) =>
    url === `${origin}${JWKS_PATH}`
      ? Promise.resolve(new Response(jwks, { status: 200, headers: { 'content-type': 'application/jwk-set+json' } }))
      : Promise.reject(new Error(`unexpected fetch of ${url}`));
  const checker = createSignatureChecker({ fetch: fetchKeys, now: () => Date.now() });
  let notVerified = 0;
  const check = async (answer: SignedResponse) => {
    // Verified, with its verifiable copy made: the whole path the background takes.
    const verdict = await checker.check(origin, answer, token);
    if (verdict.state !== 'verified' || !verdict.copy) notVerified++;
  };
  // The key set read and the first key imported, as after a service's first answer.
  for (const answer of cached.slice(0, 1)) await check(answer);

  // The floor: one Ed25519 verification of a base as long as the snapshot's, with a key in hand.
  const pair = await crypto.subtle.generateKey('Ed25519', false, ['sign', 'verify']);
  const base = new TextEncoder().encode(
    `"@status": 200\n"content-type": application/json\n"content-digest": sha-256=:${'A'.repeat(43)}=:\n"@signature-params": ("@status" "content-type" "content-digest");created=1780000000;keyid="${'k'.repeat(43)}";alg="ed25519";tag="compliance-snapshot"`,
  );
  const signature = await crypto.subtle.sign('Ed25519', pair.privateKey, base);

  const cases: { name: string; operation: (answer: SignedResponse) => Promise<unknown>; msEach: number[] }[] = [
    {
      name: 'baseline: JSON.parse + zod of the body (the background does it for every answer)',
      operation: (answer) =>
        Promise.resolve(snapshotSuccessEnvelopeSchema.safeParse(JSON.parse(new TextDecoder().decode(answer.body)))),
      msEach: [],
    },
    {
      name: 'baseline: SHA-256 of the body (Web Crypto)',
      operation: (answer) => crypto.subtle.digest('SHA-256', ownBytes(answer.body)),
      msEach: [],
    },
    {
      name: 'floor: one Ed25519 verification (Web Crypto, key in hand)',
      operation: () => crypto.subtle.verify('Ed25519', pair.publicKey, signature, base),
      msEach: [],
    },
    { name: 'check: verified, key set and key cached', operation: check, msEach: [] },
  ];
  // Interleaved: each round runs one batch of every case, so a slow moment weighs on all of them.
  for (let batch = 0; batch < options.batches; batch++) {
    for (const { operation, msEach } of cases) msEach.push(await timeBatch(cached, options.batchSize, operation));
  }

  // The first answer of a new key: a fresh checker (an empty key set cache, as in a worker just
  // started) reads the key set and imports the key, then verifies. One sample per key.
  const firsts: number[] = [];
  for (const answer of fresh) {
    const newChecker = createSignatureChecker({ fetch: fetchKeys, now: () => Date.now() });
    const start = performance.now();
    const verdict = await newChecker.check(origin, answer, token);
    firsts.push(performance.now() - start);
    if (verdict.state !== 'verified' || !verdict.copy) notVerified++;
  }
  if (notVerified > 0) throw new Error(`${notVerified} answers did not verify: the bench measured the wrong path`);

  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  const row = (name: string, samples: number[], unit: string) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      case: name,
      samples: `${samples.length} ${unit}`,
      'ms each, median': round(median(sorted)),
      'ms each, p90': round(percentile(sorted, 90)),
    };
  };
  return {
    rows: [
      ...cases.map(({ name, msEach }) => row(name, msEach, `batches of ${options.batchSize}`)),
      row('check: first answer of a new key (key set read, key imported)', firsts, 'keys, one answer each'),
    ],
    notes: [
      `Goal: under ${GOAL_MS} ms per verified snapshot ("check: verified, key set and key cached"). Answers: ${cached.length} real ${cached[0]?.body.length ?? 0}-byte snapshot answers of the bundled server, checked in turn.`,
      'Node Web Crypto (OpenSSL), not the extension worker (Chromium: BoringSSL; Firefox: NSS): the same code, another engine.',
    ],
  };
}
