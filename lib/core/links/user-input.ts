import { isValidTokenShape } from '../token';
import { serviceAt, spellOutAliases, type ServiceConfig } from '../services';
import { getLinkRecognizer, type RecognizedLink } from './recognize';
import { httpSchemeEnd } from './raw-url';
import { unwrapUrlTrace } from './unwrap';

/** What a founder pastes into the popup's preview box, understood (the preview of their own link). */

export type UserInputProblem =
  /** Nothing but whitespace. */
  | 'empty'
  /** An http(s) URL (after unwrapping) whose origin is not a configured service. */
  | 'unknown-service'
  /** A configured origin, but not an API or share path with a valid token. */
  | 'not-a-share-path'
  /** Neither a URL nor a token. */
  | 'not-a-link';

export type UserInput =
  | { readonly kind: 'link'; readonly link: RecognizedLink }
  /** A token alone: the UI asks which configured service it belongs to. */
  | { readonly kind: 'bare-token'; readonly token: string }
  | { readonly kind: 'invalid'; readonly reason: UserInputProblem };

const SCHEMELESS_HOST_PATH = /^[A-Za-z0-9.-]+(?::[0-9]{1,5})?\//;

/**
 * Parses what a founder pastes into the preview box: an API URL, a human share URL, a wrapped URL
 * (any wrapper `unwrapUrl` knows), a scheme-less `host/share/TOKEN`, or a bare token. Surrounding
 * whitespace is trimmed (it is a paste); anything inside still disqualifies the link.
 */
export function parseUserInput(text: string, services: readonly ServiceConfig[]): UserInput {
  // An alias of a service's origin is recognised like the origin itself (lib/core/services.ts).
  const recognizer = getLinkRecognizer(spellOutAliases(services));
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'invalid', reason: 'empty' };

  const direct = recognizer.recognizeHref(trimmed);
  if (direct !== null) return { kind: 'link', link: direct };
  if (isValidTokenShape(trimmed)) return { kind: 'bare-token', token: trimmed };

  if (httpSchemeEnd(trimmed) === -1 && SCHEMELESS_HOST_PATH.test(trimmed)) {
    for (const scheme of ['https://', 'http://']) {
      const withScheme = recognizer.recognizeHref(scheme + trimmed);
      if (withScheme !== null) return { kind: 'link', link: withScheme };
    }
  }
  return { kind: 'invalid', reason: classifyProblem(trimmed, services) };
}

function classifyProblem(text: string, services: readonly ServiceConfig[]): UserInputProblem {
  const target = unwrapUrlTrace(text).url;
  const candidate = httpSchemeEnd(target) === -1 && SCHEMELESS_HOST_PATH.test(target) ? `https://${target}` : target;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return 'not-a-link';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'not-a-link';
  const configured = serviceAt(services, url.origin) !== undefined;
  return configured ? 'not-a-share-path' : 'unknown-service';
}
