/**
 * Share-link recognition (DESIGN decision 3, "Only known services"). Pure and framework-free: the
 * content script and the background both import it, and the background re-checks whatever a
 * content script sends with the same code.
 *
 * A link is a share link only if, after unwrapping mail/CRM redirect wrappers, it is an absolute
 * http(s) URL whose origin equals a configured service origin exactly, with no userinfo, no
 * whitespace or control characters, a path that the URL parser leaves untouched (no dot segments,
 * no backslashes, nothing it would re-encode) and that fills one of the service's path templates
 * with a token of valid shape (an optional trailing slash is allowed; query and hash are ignored).
 *
 * Longer than 300 lines: `createLinkRecognizer` is one closure over the compiled services, and its fast
 * path, CSS prefilter and exact checks share that state (the helpers around it live in templates.ts,
 * raw-url.ts and unwrap.ts).
 */
import type { ServiceConfig } from '../services';
import { TOKEN_PATTERN_BODY } from '../token';
import { authorityEnd, httpSchemeEnd, splitAuthority } from './raw-url';
import {
  compileService,
  linkTo,
  tokenFromPath,
  type CompiledService,
  type CompiledTemplate,
  type RecognizedLink,
} from './templates';

export type { LinkKind, RecognizedLink } from './templates';
import { isWrapperHost, MAX_UNWRAP_LENGTH, unwrapUrlTrace } from './unwrap';

export interface LinkAttributes {
  readonly 'data-saferedirecturl'?: string | null | undefined;
  readonly [name: string]: string | null | undefined;
}

export interface LinkInput {
  /** The anchor's target: its resolved `href` (or the raw attribute). Never the visible text. */
  readonly href: string;
  readonly attributes?: LinkAttributes | undefined;
}

/** What `recognizeAnchor` needs of an element: an `HTMLAnchorElement` fits, and so do test fakes. */
export interface AnchorLike {
  getAttribute(name: string): string | null;
  /** Resolved absolute URL when a string (HTMLAnchorElement); SVG anchors expose an object here. */
  readonly href?: unknown;
  /** The document's base URL (`Node.baseURI`): relative hrefs resolve against it. */
  readonly baseURI?: unknown;
}

export interface LinkRecognizer {
  readonly services: readonly ServiceConfig[];
  /** Recognises an href, unwrapping wrappers; checks Gmail's `data-saferedirecturl` if given. */
  recognize(input: LinkInput): RecognizedLink | null;
  /** Recognises one URL string (unwrapping wrappers). */
  recognizeHref(href: string): RecognizedLink | null;
  /**
   * Fast path for the content script: reads `href` (unless the caller already read it and passes it
   * as `rawHref`), and the Gmail attribute only for hits.
   */
  recognizeAnchor(anchor: AnchorLike, rawHref?: string | null): RecognizedLink | null;
  /**
   * A CSS selector for the anchors of a page (with this base URL) that `recognizeAnchor` could accept,
   * or null when none could. The content script's first cut: the browser's selector engine passes
   * over ordinary links natively, instead of script reading each one.
   */
  candidateSelector(baseURI: string | undefined): string | null;
}

/** Longest link looked at; longer ones are never share links worth annotating. */
export const MAX_LINK_LENGTH = MAX_UNWRAP_LENGTH;

/**
 * ASCII whitespace and controls, C1 controls, and Unicode spaces / zero-width / bidi marks. The
 * URL parser silently strips some of these (tab, newline, leading/trailing spaces), so a link that
 * contains any of them is not what it appears to be and is never recognised.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const FORBIDDEN_CHARACTERS = /[\u0000-\u0020\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/;

/** Index of the first `?` or `#` at or after `from`, or the length. */
function pathEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 63 || code === 35) return i;
  }
  return text.length;
}

/** Lowercased hostname of an absolute http(s) URL without userinfo, cheaply; null otherwise. */
function quickHostname(href: string): string | null {
  const start = httpSchemeEnd(href);
  if (start === -1) return null;
  const authority = splitAuthority(href.slice(start, authorityEnd(href, start)).toLowerCase());
  return authority === null ? null : authority.hostname;
}

/**
 * The runs of letters and digits in a hostname (`comply.example` → `comply`, `example`). Every
 * wrapper encoding leaves letters and digits as they are (percent-encoding, Proofpoint's `-XX` and
 * `*`, LinkedIn's `%2E`), so a wrapped link that lacks one of these runs, in any case, cannot unwrap
 * to that host. (A hand-made link that percent-encodes letters of the host fails closed.)
 */
function hostnameRuns(hostname: string): readonly string[] {
  return [...new Set(hostname.split(/[^a-z0-9]+/).filter((run) => run.length > 0))];
}

/** A path the URL parser keeps as written: `/` then letters, digits, `_`, `-` and `/`. */
const PLAIN_PATH = /^\/[A-Za-z0-9_\-/]*$/;
/** Part of such a path (a template's prefix or suffix around its token). */
const PLAIN_PATH_PART = /^[A-Za-z0-9_\-/]*$/;

function escapeForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export function createLinkRecognizer(
  services: readonly ServiceConfig[],
  /** Tests turn the parser-free fast path off to compare it with the URL parser's answers. */
  { fastPath = true }: { fastPath?: boolean } = {},
): LinkRecognizer {
  const byOrigin = new Map<string, CompiledService[]>();
  const hostnames = new Set<string>();
  for (const service of services) {
    const result = compileService(service);
    if (result === null) continue; // an invalid configuration can never match anything
    hostnames.add(result.hostname);
    const list = byOrigin.get(result.compiled.origin);
    if (list === undefined) byOrigin.set(result.compiled.origin, [result.compiled]);
    else list.push(result.compiled);
  }
  const hostRuns = [...hostnames].map(hostnameRuns);
  /**
   * The prefilter below as CSS: an href attribute holding every run of a configured host, in any case.
   * Direct links, every wrapper and scheme-relative links name the host's runs; runs are [a-z0-9]+, so
   * nothing needs escaping. Runs of digits have no case: matched without the `i` flag, and first, since
   * a case-insensitive match costs the browser several times more (5,000 anchors against the default
   * services: 8.8 ms with `i` everywhere, 4.8 ms without it on digits).
   */
  const runSelector = (run: string) => (/^[0-9]+$/.test(run) ? `[href*="${run}"]` : `[href*="${run}" i]`);
  const digitsFirst = (runs: readonly string[]) => [...runs].sort((a, b) => Number(/\D/.test(a)) - Number(/\D/.test(b)));
  const hostSelector =
    hostRuns.length === 0 ? null : hostRuns.map((runs) => `a${digitsFirst(runs).map(runSelector).join('')}`).join(', ');

  /** Cheap test run before unwrapping: could this wrapped link lead to a configured host at all? */
  function mentionsConfiguredHost(href: string): boolean {
    const lower = href.toLowerCase();
    return hostRuns.some((runs) => runs.every((run) => lower.indexOf(run) !== -1));
  }

  /** Exact check of an already unwrapped target. */
  function matchTarget(target: string): RecognizedLink | null {
    const start = httpSchemeEnd(target);
    if (start === -1) return null;
    const authEnd = authorityEnd(target, start);
    const authority = splitAuthority(target.slice(start, authEnd).toLowerCase());
    if (authority === null || !hostnames.has(authority.hostname)) return null;
    if (target.length > MAX_LINK_LENGTH || FORBIDDEN_CHARACTERS.test(target)) return null;
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return null;
    }
    if (url.username !== '' || url.password !== '') return null;
    if (url.hostname !== authority.hostname) return null; // IPv4 shorthands, %-encoded hosts, IDN
    const rawPath = target.slice(authEnd, pathEnd(target, authEnd));
    if (url.pathname !== rawPath) return null; // dot segments, backslashes, re-encoded characters
    const candidates = byOrigin.get(url.origin);
    if (candidates === undefined) return null; // wrong scheme or port
    return matchPath(candidates, rawPath);
  }

  function matchPath(candidates: readonly CompiledService[], rawPath: string): RecognizedLink | null {
    for (const candidate of candidates) {
      for (const template of candidate.templates) {
        const token = tokenFromPath(rawPath, template);
        if (token !== null) return linkTo(candidate, template, token);
      }
    }
    return null;
  }

  const origins = [...byOrigin.entries()];

  /**
   * The common case without a URL parser: a configured origin exactly as configured (canonical), then
   * a path of letters, digits, `_`, `-` and `/` only, and nothing else. The URL parser leaves such a
   * string as it is (no dot segments, nothing to encode, no userinfo, query or fragment), so
   * `matchTarget` would find exactly this origin and path; the test "the fast path agrees with the
   * URL parser" holds that.
   * Such links are matched by one regular expression: per service and template (in the order
   * `matchPath` tries them), origin and prefix, a token, suffix, an optional trailing slash. A page's
   * first scan runs cold, and cold one `exec` costs a fraction of step-by-step checks (500 links in
   * Chromium: ~1 ms against ~8 ms). A template with other characters can never match a plain path.
   */
  const plainRoutes: { readonly candidate: CompiledService; readonly template: CompiledTemplate }[] = [];
  const plainAlternatives: string[] = [];
  for (const [origin, candidates] of origins) {
    for (const candidate of candidates) {
      for (const template of candidate.templates) {
        if (!PLAIN_PATH.test(template.prefix) || !PLAIN_PATH_PART.test(template.suffix)) continue;
        const trailingSlash = template.suffix.endsWith('/') ? '' : '/?';
        plainRoutes.push({ candidate, template });
        plainAlternatives.push(
          `${escapeForRegExp(origin + template.prefix)}(${TOKEN_PATTERN_BODY})${escapeForRegExp(template.suffix)}${trailingSlash}`,
        );
      }
    }
  }
  const plainLink = plainAlternatives.length > 0 ? new RegExp(`^(?:${plainAlternatives.join('|')})$`) : null;

  /** The link, null when this plain link is no share link, undefined when it is not plain (ask the parser). */
  function matchDirect(href: string): RecognizedLink | null | undefined {
    if (!fastPath || href.length > MAX_LINK_LENGTH) return undefined;
    const match = plainLink?.exec(href) ?? null;
    if (match !== null) {
      for (let group = 1; group < match.length; group += 1) {
        const token = match[group];
        const route = plainRoutes[group - 1];
        if (token !== undefined && route !== undefined) return linkTo(route.candidate, route.template, token);
      }
    }
    for (const [origin] of origins) {
      if (href.startsWith(origin) && href.charCodeAt(origin.length) === 47 && PLAIN_PATH.test(href.slice(origin.length))) {
        return null; // plain, on a configured origin, and no template took it
      }
    }
    return undefined;
  }

  function recognizeHref(href: string): RecognizedLink | null {
    if (typeof href !== 'string') return null;
    const direct = matchDirect(href);
    if (direct !== undefined) return direct;
    const hostname = quickHostname(href);
    if (hostname === null) return null;
    if (hostnames.has(hostname)) return matchTarget(href);
    if (!isWrapperHost(hostname)) return null;
    if (href.length > MAX_LINK_LENGTH || !mentionsConfiguredHost(href)) return null;
    if (FORBIDDEN_CHARACTERS.test(href)) return null;
    const unwrapped = unwrapUrlTrace(href);
    if (!unwrapped.complete || unwrapped.formats.length === 0) return null;
    return matchTarget(unwrapped.url);
  }

  let lastBase: { base: string; configured: boolean } | null = null;

  /**
   * An absolute http(s) `href` attribute is judged as written: whatever the URL parser would change
   * fails the exact checks of `matchTarget`, so it can only be stricter than the resolved `href`, and
   * reading `anchor.href` makes the browser parse a URL (the main cost on a page of 5,000 links).
   * Anything else (relative, scheme-relative, odd spacing or case) is resolved only if it could lead
   * to a configured host: it names one, or the page's own base URL is one.
   */
  function resolvedHref(anchor: AnchorLike, raw: string): string | null {
    if (!(raw.length <= MAX_LINK_LENGTH && mentionsConfiguredHost(raw)) && !baseIsConfigured(anchor.baseURI)) return null;
    const href = anchor.href;
    return typeof href === 'string' ? href : null; // SVG anchors: relative links are not resolved
  }

  /** Whether relative links on a page with this base URL land on a configured origin (port included). */
  function baseIsConfigured(base: unknown): boolean {
    if (typeof base !== 'string') return false;
    if (lastBase?.base !== base) {
      lastBase = { base, configured: URL.canParse(base) && byOrigin.has(new URL(base).origin) };
    }
    return lastBase.configured;
  }

  /**
   * Gmail keeps the original `href` and puts its redirect in `data-saferedirecturl`. When that
   * attribute is present, both are real targets (the click follows one, "copy link" the other), so
   * both must lead to the same (origin, token); a disagreement is a forgery and is not annotated.
   */
  function withSafeRedirect(primary: RecognizedLink | null, redirect: string | null | undefined): RecognizedLink | null {
    if (primary === null) return null;
    if (redirect === null || redirect === undefined || redirect === '') return primary;
    const viaRedirect = recognizeHref(redirect);
    return viaRedirect !== null && viaRedirect.canonicalKey === primary.canonicalKey ? primary : null;
  }

  return {
    services,
    recognizeHref,
    recognize(input: LinkInput): RecognizedLink | null {
      return withSafeRedirect(recognizeHref(input.href), input.attributes?.['data-saferedirecturl']);
    },
    candidateSelector(baseURI: string | undefined): string | null {
      if (hostSelector === null) return null;
      // On a service's own pages a relative href may be a share link: every link is a candidate.
      return baseIsConfigured(baseURI) ? 'a[href]' : hostSelector;
    },
    recognizeAnchor(anchor: AnchorLike, rawHref?: string | null): RecognizedLink | null {
      const raw = rawHref === undefined ? anchor.getAttribute('href') : rawHref;
      if (raw === null) return null;
      const href = httpSchemeEnd(raw) !== -1 ? raw : resolvedHref(anchor, raw);
      if (href === null) return null;
      const primary = recognizeHref(href);
      if (primary === null) return null; // ordinary links exit here, without reading attributes
      return withSafeRedirect(primary, anchor.getAttribute('data-saferedirecturl'));
    },
  };
}

const recognizers = new WeakMap<readonly ServiceConfig[], LinkRecognizer>();

/** The recognizer for this exact services array (compiled once per array, then reused). */
export function getLinkRecognizer(services: readonly ServiceConfig[]): LinkRecognizer {
  let recognizer = recognizers.get(services);
  if (recognizer === undefined) {
    recognizer = createLinkRecognizer(services);
    recognizers.set(services, recognizer);
  }
  return recognizer;
}

export function recognizeLink(input: LinkInput, services: readonly ServiceConfig[]): RecognizedLink | null {
  return getLinkRecognizer(services).recognize(input);
}

export function recognizeAnchor(anchor: AnchorLike, services: readonly ServiceConfig[]): RecognizedLink | null {
  return getLinkRecognizer(services).recognizeAnchor(anchor);
}
