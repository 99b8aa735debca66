/**
 * Share-token shape. Tokens are base64url strings; ours carry 256 bits (43 characters) and the
 * accepted range leaves room for other deployments' formats without admitting path tricks.
 */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** The same shape unanchored, to embed in a larger expression (the link recogniser's fast path). */
export const TOKEN_PATTERN_BODY = TOKEN_PATTERN.source.slice(1, -1);

export function isValidTokenShape(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}
