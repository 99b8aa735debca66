import type { Context } from 'hono';

/**
 * Answers whose routes noted their exact body bytes, so what runs after them (the snapshot signature,
 * server/signing) need not read the body back: reading it and copying the answer cost as much as the
 * signature itself (`npm run bench`). Keyed by the request's context, not the answer: Hono re-wraps a
 * route's answer once a middleware has touched `c.res` (CORS does). A note holds only while the
 * answer keeps the status it was noted with: an error answer in its place is read as sent.
 */
const knownBodies = new WeakMap<Context, { status: number; body: Uint8Array }>();

/** `response` (the route's answer in `c`), noted with the exact bytes of its body. */
export function withKnownBody(c: Context, response: Response, body: Uint8Array): Response {
  knownBodies.set(c, { status: response.status, body });
  return response;
}

/** The bytes of `c`'s answer, if its route noted them and the answer is still that one. */
export function knownBody(c: Context): Uint8Array | undefined {
  const noted = knownBodies.get(c);
  return noted && noted.status === c.res.status ? noted.body : undefined;
}
