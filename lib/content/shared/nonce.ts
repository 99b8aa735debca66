/** 128 random bits as hex (a card's nonce, an anchor key): `crypto.randomUUID` needs a secure context, and plain http pages are not. */
export function newNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
