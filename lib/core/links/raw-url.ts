/**
 * URL parts read as written, without the URL parser (which normalises, and costs a parse per link):
 * what unwrapping and the recognizer's cheap checks need. Pure string functions.
 */

/** A URL split without normalisation. Null from `splitRawUrl` means "cannot be a wrapper". */
export interface RawUrlParts {
  /** `http`, `https`, or `` for a scheme-less (`urldefense.com/v3/…`) or protocol-relative input. */
  readonly scheme: '' | 'http' | 'https';
  /** Lowercased host without port; never contains `@`. */
  readonly hostname: string;
  /** Digits only, or ``. */
  readonly port: string;
  /** Raw path (up to `?` or `#`); may be ``. */
  readonly path: string;
  /** Raw query without the `?` (up to `#`), or null when there is none. */
  readonly query: string | null;
  /** Everything from the start of the path to the end of the input, raw. */
  readonly rest: string;
}

/** Index just after `http://` / `https://` (any case), or -1. */
export function httpSchemeEnd(text: string): number {
  if (text.startsWith('https://')) return 8;
  if (text.startsWith('http://')) return 7;
  const first = text.charCodeAt(0);
  if (first !== 72 && first !== 104) return -1; // H h: rare upper-case schemes take the slow path
  const head = text.slice(0, 8).toLowerCase();
  if (head === 'https://') return 8;
  return head.startsWith('http://') ? 7 : -1;
}

function firstIndex(text: string, char: string, start: number, end: number): number {
  const at = text.indexOf(char, start);
  return at === -1 || at > end ? end : at;
}

/** End of the authority that starts at `start`: the first `/`, `?`, `#` or `\`, or the length. */
export function authorityEnd(text: string, start: number): number {
  let end = firstIndex(text, '/', start, text.length);
  end = firstIndex(text, '?', start, end);
  end = firstIndex(text, '#', start, end);
  return firstIndex(text, '\\', start, end);
}

/**
 * Splits `authority` (already lowercased by the caller if wanted) into host and port. Null when it
 * holds userinfo (`@`), an empty host, or a port that is not all digits.
 */
export function splitAuthority(authority: string): { hostname: string; port: string } | null {
  if (authority.length === 0 || authority.indexOf('@') !== -1) return null;
  let hostEnd: number;
  if (authority.charCodeAt(0) === 91 /* [ */) {
    const close = authority.indexOf(']');
    if (close === -1) return null;
    hostEnd = close + 1;
  } else {
    const colon = authority.indexOf(':');
    hostEnd = colon === -1 ? authority.length : colon;
  }
  const hostname = authority.slice(0, hostEnd);
  if (hostname.length === 0) return null;
  if (hostEnd === authority.length) return { hostname, port: '' };
  if (authority.charCodeAt(hostEnd) !== 58 /* : */) return null;
  const port = authority.slice(hostEnd + 1);
  for (let i = 0; i < port.length; i += 1) {
    const code = port.charCodeAt(i);
    if (code < 48 || code > 57) return null;
  }
  return { hostname, port };
}

export function splitRawUrl(url: string): RawUrlParts | null {
  let scheme: RawUrlParts['scheme'];
  let start = httpSchemeEnd(url);
  if (start !== -1) {
    scheme = start === 8 ? 'https' : 'http';
  } else if (url.startsWith('//')) {
    scheme = '';
    start = 2;
  } else {
    scheme = '';
    start = 0;
  }
  const end = authorityEnd(url, start);
  const authority = splitAuthority(url.slice(start, end).toLowerCase());
  if (authority === null) return null;
  const rest = url.slice(end);
  const hash = rest.indexOf('#');
  const beforeHash = hash === -1 ? rest : rest.slice(0, hash);
  const question = beforeHash.indexOf('?');
  return {
    scheme,
    hostname: authority.hostname,
    port: authority.port,
    path: question === -1 ? beforeHash : beforeHash.slice(0, question),
    query: question === -1 ? null : beforeHash.slice(question + 1),
    rest,
  };
}

/**
 * The raw (undecoded) value of the query parameter called one of `names`. Separators may be `&` or
 * HTML-escaped `&amp;`. Null when absent, or when it appears more than once with different values
 * (which copy a redirector follows is unknowable, so neither is trusted).
 */
export function rawQueryParam(query: string | null, names: readonly string[]): string | null {
  if (query === null) return null;
  let found: string | null = null;
  let from = 0;
  while (from <= query.length) {
    let to = query.indexOf('&', from);
    if (to === -1) to = query.length;
    let partStart = from;
    if (query.startsWith('amp;', partStart)) partStart += 4;
    const eq = query.indexOf('=', partStart);
    const keyEnd = eq === -1 || eq > to ? to : eq;
    const key = query.slice(partStart, keyEnd);
    if (names.includes(key)) {
      const value = keyEnd === to ? '' : query.slice(keyEnd + 1, to);
      if (found !== null && found !== value) return null;
      found = value;
    }
    from = to + 1;
  }
  return found;
}
