import { describe, expect, it } from 'vitest';
import { CARD_MESSAGE_SOURCE, parseCardFrameMessage } from '@/lib/protocol/guarded/card-frame';

describe('card frame messages', () => {
  it('accepts size and close messages of the card page only in their exact shapes', () => {
    expect(parseCardFrameMessage({ source: CARD_MESSAGE_SOURCE, kind: 'size', width: 360, height: 420 })).toEqual({
      kind: 'size',
      width: 360,
      height: 420,
    });
    expect(parseCardFrameMessage({ source: CARD_MESSAGE_SOURCE, kind: 'close', reason: 'escape' })?.kind).toBe('close');
    expect(parseCardFrameMessage({ source: CARD_MESSAGE_SOURCE, kind: 'size', width: 5000, height: 10 })).toBeNull();
    expect(parseCardFrameMessage({ source: 'someone-else', kind: 'close', reason: 'escape' })).toBeNull();
    expect(parseCardFrameMessage({ source: CARD_MESSAGE_SOURCE, kind: 'close', reason: 'navigate' })).toBeNull();
    expect(parseCardFrameMessage('close')).toBeNull();
  });
});
