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
import { rawQueryParam, splitRawUrl, type RawUrlParts } from './raw-url';

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
