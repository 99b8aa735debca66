import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatBytes } from '@/lib/core/bytes';

describe('concatBytes', () => {
  it('puts the parts one after the other, each byte where it was in its part', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }), (parts) => {
        expect([...concatBytes(parts)]).toEqual(parts.flatMap((part) => [...part]));
      }),
    );
  });

  it('takes the total when the caller kept it, and reads subarrays at their own offset', () => {
    const whole = new Uint8Array([9, 1, 2, 3, 9]);
    expect([...concatBytes([whole.subarray(1, 4), new Uint8Array([4])], 4)]).toEqual([1, 2, 3, 4]);
    expect(concatBytes([])).toHaveLength(0);
  });
});
