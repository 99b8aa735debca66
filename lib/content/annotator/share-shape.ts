import { canonicalKeyOf } from '../../core/links/templates';
import { unwrapUrl } from '../../core/links/unwrap';
import { API_PATH_PREFIX, SHARE_PATH_PREFIX } from '../../core/services';
import { TOKEN_PATTERN_BODY } from '../../core/token';
import type { AnchorRecognizer } from './types';

/**
 * An http(s) origin, then a path of the default templates (`/share/{token}` or the API path, an
 * optional trailing slash), then nothing or a query or fragment.
 */
const SHAPE = new RegExp(
  `^(https?://[^/?#\\\\@]+)(?:${SHARE_PATH_PREFIX}|(${API_PATH_PREFIX}))(${TOKEN_PATTERN_BODY})/?(?:[?#]|$)`,
);

/**
 * Links shaped like a share link of any service (the default path templates, a token of valid shape,
 * after unwrapping mail and CRM wrappers), before the settings say which services are known. Their
 * badges take their room while the page is parsed, so a slow settings read (a busy machine; Firefox
 * on most pages) no longer moves the text once it is painted. Nothing is sent for them: the annotator
 * holds its cache peeks until the settings came, and the known services' recognizer then keeps the
 * links that are share links and lets the others go (docs/design-changes.md, issue #32).
 */
export const shareShapedLinks: AnchorRecognizer = {
  recognizeAnchor(anchor, rawHref) {
    const href = typeof anchor.href === 'string' ? anchor.href : rawHref;
    const match = href ? SHAPE.exec(unwrapUrl(href)) : null;
    if (!match?.[1] || !match[3]) return null;
    // Not canonical where the link is not (a host in capitals, a default port): the settings' recognizer
    // then gives the link its canonical key, which is only a new key for the same badge.
    return {
      origin: match[1],
      token: match[3],
      canonicalKey: canonicalKeyOf(match[1], match[3]),
      kind: match[2] ? 'api' : 'share',
    };
  },
  // Every wrapper keeps the letters of the path's words (percent-encoding leaves them as they are).
  candidateSelector: () => 'a[href*="share" i], a[href*="compliance-status" i]',
};
