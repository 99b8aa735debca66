/**
 * The token-free body (lib/core/signing/token-free.ts): every occurrence of the share token replaced
 * by `{token}`, every other byte kept, held to an independent replacement (withoutToken in sign.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenFreeBody } from '@/lib/core/signing/token-free';
import { TEST_TOKEN, withoutToken } from './sign';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('tokenFreeBody', () => {
  it('replaces each occurrence, at the start, the end, side by side, and leaves near misses', () => {
    const near = TEST_TOKEN.slice(0, -1);
    const text = `${TEST_TOKEN}/share/${TEST_TOKEN}${TEST_TOKEN} ${near}x ${TEST_TOKEN}`;
    expect(new TextDecoder().decode(tokenFreeBody(bytes(text), TEST_TOKEN))).toBe(
      `{token}/share/{token}{token} ${near}x {token}`,
    );
  });

  it('a string that is not a token replaces nothing (a short one would rewrite words)', () => {
    const body = bytes('a body with an a in it');
    expect(tokenFreeBody(body, 'a')).toBe(body);
    expect(tokenFreeBody(body, '')).toBe(body);
  });

  it('agrees with an independent replacement on any bytes with the token put anywhere', () => {
    const token = bytes(TEST_TOKEN);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constant(token), fc.constant(token.subarray(0, 5)))),
        (parts) => {
          const body = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
          let offset = 0;
          for (const part of parts) {
            body.set(part, offset);
            offset += part.length;
          }
          expect(Buffer.from(tokenFreeBody(body, TEST_TOKEN))).toEqual(withoutToken(body, TEST_TOKEN));
        },
      ),
    );
  });
});
