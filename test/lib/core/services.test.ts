import { describe, expect, it } from 'vitest';
import { urlOnOrigin } from '@/lib/core/services';

describe('urlOnOrigin', () => {
  it.each([
    ['https://comply.example/share/x', 'https://comply.example', 'https://comply.example/share/x'],
    ['http://localhost:8787/share/x?a=1', 'http://localhost:8787', 'http://localhost:8787/share/x?a=1'],
    ['https://evil.example/share/x', 'https://comply.example', null],
    ['https://comply.example:444/x', 'https://comply.example', null],
    ['https://user:pass@comply.example/x', 'https://comply.example', null],
    ['javascript:alert(1)', 'https://comply.example', null],
    ['data:text/html,hi', 'null', null],
    ['not a url', 'https://comply.example', null],
  ])('%s on %s → %s', (url, origin, expected) => {
    expect(urlOnOrigin(url, origin)).toBe(expected);
  });
});
