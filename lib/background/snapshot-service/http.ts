import { concatBytes } from '../../core/bytes';
import { API_VERSION } from '../../core/labels';
import { errorEnvelopeSchema, snapshotSuccessEnvelopeSchema } from '../../core/schemas/snapshot';
import type { ServiceConfig } from '../../core/services';
import { describeIssues } from '../common/describe-issues';
import { retryAtFrom } from './rate-budget';
import { SNAPSHOT_DEADLINE_MS, snapshotError, type SignatureVerdict, type SnapshotResult } from '../../core/schemas/results';
import type { SignedResponse } from '../../core/signing/message';

/** The snapshot request's deadline, for hovers and the watchlist alike. */
export const DEFAULT_TIMEOUT_MS = SNAPSHOT_DEADLINE_MS;
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpOptions {
  fetch: FetchLike;
  now(): number;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Checks the answer's signature (issue #36): its verdict travels with a snapshot read from it. */
  verify?: (response: SignedResponse) => Promise<SignatureVerdict>;
}

/** The API URL for a token, built only from the configured service (never from a caller's URL). */
export function buildSnapshotUrl(service: ServiceConfig, token: string): string {
  const url = new URL(service.apiPathTemplate.replaceAll('{token}', encodeURIComponent(token)), service.origin);
  if (url.origin !== service.origin) throw new Error(`API path template escapes ${service.origin}`);
  return url.href;
}

class BodyTooLargeError extends Error {}

/** Thrown into pending reads when the request is aborted, whatever the fetch implementation does. */
function abortedPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

/**
 * How the background asks a service for anything (a snapshot, its key set): no cookies, no referrer,
 * no redirect (a request never lands on another origin).
 */
export const SERVICE_REQUEST = {
  method: 'GET',
  headers: { Accept: 'application/json' },
  credentials: 'omit',
  referrerPolicy: 'no-referrer',
  redirect: 'error',
} as const satisfies RequestInit;

/** Reads the body's exact bytes as a stream and gives up past `maxBytes`, so a huge answer is never buffered. */
export async function readBodyCapped(response: Response, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLargeError();
  const aborted = abortedPromise(signal);
  aborted.catch(() => undefined);
  if (!response.body) {
    const bytes = new Uint8Array(await Promise.race([response.arrayBuffer(), aborted]));
    if (bytes.byteLength > maxBytes) throw new BodyTooLargeError();
    return bytes;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw new BodyTooLargeError();
      chunks.push(value);
    }
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    throw error;
  }
  return concatBytes(chunks, total);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * One GET of the snapshot endpoint, mapped to a result. Never throws.
 *
 * Status mapping (the spec only defines 200/404/410/429): 404 → NOT_FOUND and 410 → EXPIRED (both
 * terminal), 429 → RATE_LIMITED with `retryAt`, 5xx → NETWORK with `httpStatus` (a server fault is
 * transient, like a dropped connection), any other status → INVALID_RESPONSE with `httpStatus`.
 * Redirects are refused (`redirect: 'error'` → NETWORK) so a request never lands on another origin.
 */
export async function fetchSnapshot(url: string, options: HttpOptions): Promise<SnapshotResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, options.timeoutMs);
  const seconds = Math.round(options.timeoutMs / 1000);

  try {
    let response: Response;
    try {
      const aborted = abortedPromise(controller.signal);
      aborted.catch(() => undefined);
      response = await Promise.race([
        options.fetch(url, { ...SERVICE_REQUEST, cache: 'no-store', signal: controller.signal }),
        aborted,
      ]);
    } catch {
      return timedOut
        ? snapshotError('TIMEOUT', `The service did not answer within ${seconds} s.`, { reason: 'timeout' })
        : snapshotError('NETWORK', 'The service could not be reached.', { reason: 'unreachable' });
    }

    const fetchedAt = options.now();
    let body: Uint8Array;
    try {
      body = await readBodyCapped(response, options.maxBodyBytes, controller.signal);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        controller.abort(new Error('body too large'));
        return snapshotError(
          'INVALID_RESPONSE',
          `The response is larger than ${Math.round(options.maxBodyBytes / 1024)} KB, so it was not read.`,
          { httpStatus: response.status, fetchedAt, reason: 'too-large' },
        );
      }
      return timedOut
        ? snapshotError('TIMEOUT', `The service did not finish answering within ${seconds} s.`, { reason: 'timeout' })
        : snapshotError('NETWORK', 'The connection failed while reading the response.', {
            httpStatus: response.status,
            reason: 'interrupted',
          });
    }
    const result = interpretResponse(response.status, response.headers, new TextDecoder().decode(body), fetchedAt);
    if (result.status !== 'ready' || !options.verify) return result;
    return { ...result, signature: await options.verify({ status: response.status, headers: response.headers, body }) };
  } finally {
    clearTimeout(timer);
  }
}

function interpretResponse(status: number, headers: Headers, text: string, fetchedAt: number): SnapshotResult {
  const json = parseJson(text);
  const envelope = json.ok ? errorEnvelopeSchema.safeParse(json.value) : undefined;
  const serverMessage = envelope?.success ? envelope.data.error : undefined;
  /** The service's own words, marked as such wherever they are shown. */
  const said = serverMessage === undefined ? {} : { serviceMessage: serverMessage.slice(0, 1000) };

  if (status === 200) {
    if (!json.ok) {
      return snapshotError('INVALID_RESPONSE', 'The response is not valid JSON.', {
        httpStatus: status,
        fetchedAt,
        reason: 'not-json',
      });
    }
    const parsed = snapshotSuccessEnvelopeSchema.safeParse(json.value);
    if (!parsed.success) {
      return snapshotError('INVALID_RESPONSE', `The response does not match the API schema: ${describeIssues(parsed.error)}`, {
        httpStatus: status,
        fetchedAt,
        reason: 'schema',
        fields: [...new Set(parsed.error.issues.map((issue) => issue.path.map(String).join('.') || '(root)'))].slice(0, 10),
      });
    }
    const { data: snapshot, meta } = parsed.data;
    return {
      status: 'ready',
      snapshot,
      meta,
      fetchedAt,
      fromCache: false,
      ...(snapshot.api_version === API_VERSION
        ? {}
        : {
            apiVersionWarning: `The service uses API version ${snapshot.api_version}; this extension was built for ${API_VERSION}, so some details may be missing.`,
          }),
    };
  }
  if (status === 404) {
    return snapshotError('NOT_FOUND', serverMessage ?? 'The share link is invalid, unknown or revoked.', { fetchedAt, ...said });
  }
  if (status === 410) {
    return snapshotError('EXPIRED', serverMessage ?? 'The share link has expired.', { fetchedAt, ...said });
  }
  if (status === 429) {
    return snapshotError('RATE_LIMITED', serverMessage ?? 'The service is limiting requests from this network.', {
      retryAt: retryAtFrom(headers.get('retry-after'), fetchedAt),
      fetchedAt,
      ...said,
    });
  }
  if (status >= 500) {
    return snapshotError('NETWORK', `The service had a problem (HTTP ${status})${serverMessage ? `: ${serverMessage}` : '.'}`, {
      httpStatus: status,
      fetchedAt,
      reason: 'server-error',
      ...said,
    });
  }
  return snapshotError(
    'INVALID_RESPONSE',
    `Unexpected HTTP ${status} from the service${serverMessage ? `: ${serverMessage}` : '.'}`,
    { httpStatus: status, fetchedAt, reason: 'unexpected-status', ...said },
  );
}
