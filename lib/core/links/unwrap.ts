/**
 * Unwrapping of mail and CRM redirect wrappers (Gmail, Outlook Safe Links, Proofpoint URL Defense
 * v1/v2/v3, Trend Micro click-time, Slack, LinkedIn). Pure string functions: no DOM, no `URL`
 * normalisation of the inner link (the inner link is returned exactly as the wrapper encodes it).
 *
 * Every decoder takes a whole wrapped URL and returns the inner URL, or null when the input is not
 * that wrapper (wrong host, wrong path, missing or ambiguous parameter, malformed payload). Wrapper
 * hosts match exactly (or as a whole-label suffix such as `*.safelinks.protection.outlook.com`),
 * never as a substring: `www.google.com.evil.test/url?q=…` is not a Google redirect.
 */
import { base64urlDecode, htmlUnescape, percentDecode, utf8Decode, utf8Encode } from './decode';

export type WrapperFormat =
  | 'gmail_saferedirect'
  | 'outlook_safelinks'
  | 'outlook_safelink_html'
  | 'proofpoint_v1'
  | 'proofpoint_v2'
  | 'proofpoint_v3'
  | 'trendmicro_clicktime'
  | 'slack_redir'
  | 'linkedin_redir'
  | 'linkedin_safety';

/** Layers peeled at most by `unwrapUrl` (hostile inputs nest far deeper; the rest stays wrapped). */
export const MAX_UNWRAP_DEPTH = 10;
/** Inputs longer than this are not unwrapped at all (a real wrapped link is a few KB at most). */
export const MAX_UNWRAP_LENGTH = 65_536;

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

const GOOGLE_HOSTS: ReadonlySet<string> = new Set(['www.google.com', 'google.com']);
const OUTLOOK_WEB_HOSTS: ReadonlySet<string> = new Set(['outlook.office.com', 'outlook.office365.com', 'outlook.live.com']);
const PROOFPOINT_HOSTS: ReadonlySet<string> = new Set(['urldefense.com', 'urldefense.proofpoint.com']);
const SLACK_HOSTS: ReadonlySet<string> = new Set(['slack-redir.net']);
const LINKEDIN_HOSTS: ReadonlySet<string> = new Set(['www.linkedin.com', 'linkedin.com']);
const SAFELINKS_SUFFIXES: readonly string[] = ['.safelinks.protection.outlook.com', '.safelinks.protection.office365.us'];
const TREND_MICRO_HOST = 'ctp.trendmicro.com';

function hasLabelSuffix(hostname: string, suffix: string): boolean {
  // suffix starts with '.', so a match is always on a label boundary; require a non-empty label.
  return hostname.length > suffix.length && hostname.endsWith(suffix);
}

function isSafeLinksHost(hostname: string): boolean {
  for (const suffix of SAFELINKS_SUFFIXES) if (hasLabelSuffix(hostname, suffix)) return true;
  return false;
}

function isTrendMicroHost(hostname: string): boolean {
  return hostname === TREND_MICRO_HOST || hasLabelSuffix(hostname, `.${TREND_MICRO_HOST}`);
}

/** True when `hostname` (lowercase, no port) belongs to a wrapper this module can unwrap. */
export function isWrapperHost(hostname: string): boolean {
  return (
    GOOGLE_HOSTS.has(hostname) ||
    PROOFPOINT_HOSTS.has(hostname) ||
    isSafeLinksHost(hostname) ||
    OUTLOOK_WEB_HOSTS.has(hostname) ||
    LINKEDIN_HOSTS.has(hostname) ||
    SLACK_HOSTS.has(hostname) ||
    isTrendMicroHost(hostname)
  );
}

function decodedParam(parts: RawUrlParts, names: readonly string[]): string | null {
  const raw = rawQueryParam(parts.query, names);
  return raw === null ? null : percentDecode(raw);
}

const URL_PARAM: readonly string[] = ['url'];
const GOOGLE_PARAMS: readonly string[] = ['q', 'url'];
const PROOFPOINT_U: readonly string[] = ['u'];

// ---- Proofpoint ---------------------------------------------------------------------------------

/** v1: `u=` is percent-encoded (up to the next parameter), then HTML-unescaped. */
function proofpointV1(parts: RawUrlParts): string | null {
  const raw = rawQueryParam(parts.query, PROOFPOINT_U);
  return raw === null ? null : htmlUnescape(percentDecode(raw));
}

/** v2: in `u=`, `-` introduces a `%XX` escape and `_` stands for `/`; then decode and unescape. */
function proofpointV2(parts: RawUrlParts): string | null {
  const raw = rawQueryParam(parts.query, PROOFPOINT_U);
  if (raw === null) return null;
  let translated = '';
  for (let i = 0; i < raw.length; i += 1) {
    const ch = raw.charAt(i);
    translated += ch === '-' ? '%' : ch === '_' ? '/' : ch;
  }
  return htmlUnescape(percentDecode(translated));
}

const V3_RUN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const STAR = 42;

/**
 * v3: `/v3/__URL__;REPLACEMENTS!ORG!SIG$`. Each `*` in URL takes the next replacement byte, `**X`
 * takes a run of (index of X in `A–Z a–z 0–9 - _`) + 2 bytes. REPLACEMENTS is base64url of UTF-8
 * bytes, so runs count bytes: the URL is spliced as bytes and decoded once at the end.
 */
export function decodeProofpointV3Payload(payload: string): string | null {
  const split = payload.indexOf('__;');
  if (split === -1) return null;
  const urlPart = payload.slice(0, split);
  const afterSplit = split + 3;
  let blockEnd = payload.indexOf('!', afterSplit);
  if (blockEnd === -1) blockEnd = payload.indexOf('$', afterSplit);
  if (blockEnd === -1) blockEnd = payload.length;
  const replacements = base64urlDecode(payload.slice(afterSplit, blockEnd));
  if (replacements === null) return null;

  const source = utf8Encode(urlPart);
  const out = new Uint8Array(source.length + replacements.length);
  let o = 0;
  let r = 0;
  for (let i = 0; i < source.length; i += 1) {
    const byte = source[i] ?? 0;
    if (byte !== STAR) {
      out[o] = byte;
      o += 1;
      continue;
    }
    let take = 1;
    if (source[i + 1] === STAR) {
      const marker = source[i + 2];
      const index = marker === undefined ? -1 : V3_RUN_ALPHABET.indexOf(String.fromCharCode(marker));
      if (index === -1) return null;
      take = index + 2;
      i += 2;
    }
    if (r + take > replacements.length) return null;
    out.set(replacements.subarray(r, r + take), o);
    o += take;
    r += take;
  }
  return utf8Decode(out.subarray(0, o));
}

function proofpointV3(parts: RawUrlParts): string | null {
  if (!parts.rest.startsWith('/v3/__')) return null;
  return decodeProofpointV3Payload(parts.rest.slice(6));
}

// ---- dispatch -----------------------------------------------------------------------------------

type Decoded = { readonly format: WrapperFormat; readonly url: string };

function decodeParts(parts: RawUrlParts): Decoded | null {
  if (parts.scheme === '' && parts.hostname.indexOf('.') === -1) return null;
  const { hostname, path } = parts;
  let format: WrapperFormat | null = null;
  let url: string | null = null;
  if (GOOGLE_HOSTS.has(hostname)) {
    if (path === '/url') {
      format = 'gmail_saferedirect';
      url = decodedParam(parts, GOOGLE_PARAMS);
    }
  } else if (PROOFPOINT_HOSTS.has(hostname)) {
    if (path === '/v1/url') {
      format = 'proofpoint_v1';
      url = proofpointV1(parts);
    } else if (path === '/v2/url') {
      format = 'proofpoint_v2';
      url = proofpointV2(parts);
    } else if (path.startsWith('/v3/__')) {
      format = 'proofpoint_v3';
      url = proofpointV3(parts);
    }
  } else if (isSafeLinksHost(hostname)) {
    format = 'outlook_safelinks';
    url = decodedParam(parts, URL_PARAM);
  } else if (OUTLOOK_WEB_HOSTS.has(hostname)) {
    if (path === '/mail/safelink.html') {
      format = 'outlook_safelink_html';
      url = decodedParam(parts, URL_PARAM);
    }
  } else if (LINKEDIN_HOSTS.has(hostname)) {
    if (path === '/redir/redirect') format = 'linkedin_redir';
    else if (path === '/safety/go') format = 'linkedin_safety';
    if (format !== null) url = decodedParam(parts, URL_PARAM);
  } else if (SLACK_HOSTS.has(hostname)) {
    if (path === '/link') {
      format = 'slack_redir';
      url = decodedParam(parts, URL_PARAM);
    }
  } else if (isTrendMicroHost(hostname)) {
    if (path.startsWith('/wis/clicktime/')) {
      format = 'trendmicro_clicktime';
      url = decodedParam(parts, URL_PARAM);
    }
  }
  return format === null || url === null ? null : { format, url };
}

/** Peels one wrapper layer; null when `url` is not a recognised wrapper (or is malformed). */
export function unwrapOnce(url: string): Decoded | null {
  if (url.length > MAX_UNWRAP_LENGTH) return null;
  const parts = splitRawUrl(url);
  return parts === null ? null : decodeParts(parts);
}

/**
 * Peels wrapper layers (at most `maxDepth`) and reports each one. `url` is the innermost link
 * reached; `complete` is false when the depth limit stopped it with a wrapper still in place.
 */
export function unwrapUrlTrace(
  url: string,
  maxDepth: number = MAX_UNWRAP_DEPTH,
): { url: string; formats: WrapperFormat[]; complete: boolean } {
  const formats: WrapperFormat[] = [];
  let current = url;
  for (let depth = 0; depth < maxDepth; depth += 1) {
    const next = unwrapOnce(current);
    if (next === null || next.url === current) return { url: current, formats, complete: true };
    formats.push(next.format);
    current = next.url;
  }
  return { url: current, formats, complete: unwrapOnce(current) === null };
}

/** Unwraps one or more wrapper layers (bounded by `maxDepth`); returns `url` itself if unwrapped. */
export function unwrapUrl(url: string, maxDepth: number = MAX_UNWRAP_DEPTH): string {
  return unwrapUrlTrace(url, maxDepth).url;
}

function decoderFor(accepts: (format: WrapperFormat) => boolean): (url: string) => string | null {
  return (url: string): string | null => {
    const decoded = unwrapOnce(url);
    return decoded !== null && accepts(decoded.format) ? decoded.url : null;
  };
}

/** Gmail / Google redirect: `https://www.google.com/url?q=…` (or `url=…`), decoded once. */
export const decodeGoogleRedirect = decoderFor((f) => f === 'gmail_saferedirect');
/** Outlook Safe Links (`*.safelinks.protection.outlook.com/?url=…`), `url` decoded exactly once. */
export const decodeSafeLinks = decoderFor((f) => f === 'outlook_safelinks');
/** Outlook on the web `outlook.office.com/mail/safelink.html?url=…`. */
export const decodeOutlookSafelinkHtml = decoderFor((f) => f === 'outlook_safelink_html');
/** Proofpoint URL Defense v1 (`/v1/url?u=…&k=…`). */
export const decodeProofpointV1 = decoderFor((f) => f === 'proofpoint_v1');
/** Proofpoint URL Defense v2 (`/v2/url?u=…&d=…`). */
export const decodeProofpointV2 = decoderFor((f) => f === 'proofpoint_v2');
/** Proofpoint URL Defense v3 (`/v3/__URL__;BASE64!…$`). */
export const decodeProofpointV3 = decoderFor((f) => f === 'proofpoint_v3');
/** Trend Micro click-time protection (`ctp.trendmicro.com/wis/clicktime/…?url=…`). */
export const decodeTrendMicroClickTime = decoderFor((f) => f === 'trendmicro_clicktime');
/** Slack `slack-redir.net/link?url=…`. */
export const decodeSlackRedirect = decoderFor((f) => f === 'slack_redir');
/** LinkedIn `linkedin.com/redir/redirect?url=…` and `linkedin.com/safety/go?url=…`. */
export const decodeLinkedInRedirect = decoderFor((f) => f === 'linkedin_redir' || f === 'linkedin_safety');
