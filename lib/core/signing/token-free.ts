/**
 * The token-free body (issue #36): a snapshot's body names its share token (`links.human_summary_url`
 * is the human view's URL, `/share/{token}`), so a copy that kept the exact body would hand the token
 * to whoever reads the file. The service therefore also signs the digest of the body with every
 * occurrence of the token replaced by TOKEN_PLACEHOLDER (the `token-free-digest` field, wire.ts), and a
 * copy keeps that form instead. Byte-level, so a body that is not UTF-8 keeps its other bytes.
 */
import { concatBytes } from '../bytes';
import { isValidTokenShape } from '../token';

/** What stands for the share token in a token-free body. */
export const TOKEN_PLACEHOLDER = '{token}';

const ascii = (text: string) => new TextEncoder().encode(text);

/**
 * `body` with every occurrence of `token` replaced by TOKEN_PLACEHOLDER. A string that is not a
 * token's shape (a malformed path segment) replaces nothing: it names no link, and a short one would
 * rewrite ordinary words.
 */
export function tokenFreeBody(body: Uint8Array, token: string): Uint8Array {
  if (!isValidTokenShape(token)) return body;
  const needle = ascii(token);
  const placeholder = ascii(TOKEN_PLACEHOLDER);
  const first = needle[0] ?? 0;
  const parts: Uint8Array[] = [];
  let start = 0;
  let total = 0;
  // The native indexOf finds each candidate first byte; only those are compared in full.
  for (let i = body.indexOf(first); i !== -1 && i <= body.length - needle.length; i = body.indexOf(first, i)) {
    let match = true;
    for (let j = 1; j < needle.length; j += 1) {
      if (body[i + j] !== needle[j]) {
        match = false;
        break;
      }
    }
    if (!match) {
      i += 1;
      continue;
    }
    parts.push(body.subarray(start, i), placeholder);
    total += i - start + placeholder.length;
    i += needle.length;
    start = i;
  }
  if (parts.length === 0) return body;
  parts.push(body.subarray(start));
  total += body.length - start;
  return concatBytes(parts, total);
}
