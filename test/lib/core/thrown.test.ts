import { describe, expect, it } from 'vitest';
import { messageOf } from '@/lib/core/thrown';

describe('messageOf', () => {
  it.each([
    ['an Error', new Error('disk full'), 'disk full'],
    ['an Error subclass', new TypeError('not a function'), 'not a function'],
    ['a string', 'quota exceeded', 'quota exceeded'],
    ['a number', 42, '42'],
    ['null', null, 'null'],
    [
      'a plain { message } object (a Firefox API rejection)',
      { message: 'Could not establish connection' },
      'Could not establish connection',
    ],
    ['an object without a message', { code: 7 }, '[object Object]'],
  ])('gives the message of %s', (_, thrown, expected) => {
    expect(messageOf(thrown)).toBe(expected);
  });
});
