/**
 * Byte- and text-level decoding primitives used by the wrapper decoders. All of them are total:
 * they never throw, whatever the input (invalid escapes stay literal, invalid UTF-8 becomes U+FFFD,
 * invalid base64 returns null).
 */

const utf8Decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

export function utf8Decode(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

export function utf8Encode(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  const lower = code | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87; // a-f
  return -1;
}

function decodePercentRun(run: string): string {
  const bytes = new Uint8Array(run.length / 3);
  for (let i = 0, j = 0; i < run.length; i += 3, j += 1) {
    bytes[j] = hexValue(run.charCodeAt(i + 1)) * 16 + hexValue(run.charCodeAt(i + 2));
  }
  return utf8Decode(bytes);
}

/**
 * Percent-decodes exactly once, like Python's `urllib.parse.unquote`: every run of valid `%XX`
 * escapes is decoded as UTF-8 (invalid sequences become U+FFFD), anything else (`%zz`, a lone `%`)
 * stays literal, and `+` stays `+`. Never throws, unlike `decodeURIComponent`.
 */
export function percentDecode(text: string): string {
  if (text.indexOf('%') === -1) return text;
  try {
    // Fast path: identical result whenever every `%` starts a valid escape of valid UTF-8.
    return decodeURIComponent(text);
  } catch {
    return text.replace(PERCENT_RUN, decodePercentRun);
  }
}

const HTML_ENTITY = /&(#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8}|amp|lt|gt|quot|apos);/g;
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

function replaceEntity(match: string, body: string): string {
  if (body.charCodeAt(0) !== 35 /* # */) return NAMED_ENTITIES[body] ?? match;
  const isHex = body.charCodeAt(1) === 120 || body.charCodeAt(1) === 88; // x X
  const codePoint = Number.parseInt(isHex ? body.slice(2) : body.slice(1), isHex ? 16 : 10);
  if (!Number.isInteger(codePoint) || codePoint < 1 || codePoint > 0x10ffff) return match;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return match;
  return String.fromCodePoint(codePoint);
}

/**
 * Unescapes the HTML character references that appear in wrapped links (`&amp;`, `&lt;`, `&gt;`,
 * `&quot;`, `&apos;`, numeric references). One pass; unknown entities stay literal.
 */
export function htmlUnescape(text: string): string {
  if (text.indexOf('&') === -1) return text;
  return text.replace(HTML_ENTITY, replaceEntity);
}

const BASE64URL_VALUES: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < alphabet.length; i += 1) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

function base64urlValue(code: number): number {
  return code < 128 ? (BASE64URL_VALUES[code] ?? -1) : -1;
}

/**
 * Decodes unpadded (or `=`-padded) base64url to bytes. Returns null for characters outside the
 * base64url alphabet or an impossible length (4n + 1).
 */
export function base64urlDecode(text: string): Uint8Array | null {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */) end -= 1;
  if (text.length - end > 2) return null;
  const remainder = end % 4;
  if (remainder === 1) return null;
  const out = new Uint8Array(Math.floor(end / 4) * 3 + (remainder === 0 ? 0 : remainder - 1));
  let buffer = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i += 1) {
    const value = base64urlValue(text.charCodeAt(i));
    if (value < 0) return null;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o] = (buffer >> bits) & 0xff;
      o += 1;
    }
  }
  return out;
}
