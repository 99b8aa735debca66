import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DISPLAY_NAME_MAX, displayText } from '@/lib/core/display-text';

/** Bidi embeddings, overrides, isolates and marks: they reorder what surrounds them on screen. */
const BIDI_CONTROLS = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
];
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_OR_BIDI = /[\u0000-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/;

describe('displayText (hostile strings from a service or founder, issue #26 item 8)', () => {
  it.each(BIDI_CONTROLS.map((control) => [control.codePointAt(0)!.toString(16), control]))(
    'strips the bidi control U+%s, so a name cannot reorder the text around it',
    (_code, control) => {
      expect(displayText(`Kobo ${control}dtL regdeL`)).toBe('Kobo dtL regdeL');
    },
  );

  it('strips control characters, zero-width spaces and byte-order marks; a line break or tab becomes a space', () => {
    expect(displayText('Kobo\u0000\u0007 Ledger\u200B\uFEFF\u0085 Ltd')).toBe('Kobo Ledger Ltd');
    expect(displayText('Kobo\nLedger\r\n\tLtd\u2028')).toBe('Kobo Ledger Ltd');
    expect(displayText('  Kobo   Ledger  ')).toBe('Kobo Ledger');
  });

  it('keeps what a script or an emoji needs: accents, right-to-left letters, joiners', () => {
    expect(displayText('Société Générale')).toBe('Société Générale');
    expect(displayText('شركة الدفع')).toBe('شركة الدفع');
    expect(displayText('Pay 👩‍💻 Ltd')).toBe('Pay 👩‍💻 Ltd');
    expect(displayText('मित्र')).toBe('मित्र');
  });

  it('cuts a long name to about 120 characters, at a word, with an ellipsis', () => {
    const name = `${'Zaria Digital Assets '.repeat(60)}Ltd`;
    const short = displayText(name, { max: DISPLAY_NAME_MAX });
    expect(short.endsWith('…')).toBe(true);
    expect([...short].length).toBeLessThanOrEqual(DISPLAY_NAME_MAX);
    expect([...short].length).toBeGreaterThan(DISPLAY_NAME_MAX - 20);
    expect(short).toMatch(/^Zaria Digital Assets Zaria/);
    expect(short).not.toMatch(/\s…$/);
  });

  it('never cuts a character in two (an emoji made of several code points, a surrogate pair)', () => {
    const name = '👩‍👩‍👧‍👦'.repeat(200);
    const short = displayText(name, { max: 10 });
    expect(short).toBe(`${'👩‍👩‍👧‍👦'.repeat(9)}…`);
  });

  it('leaves a name that fits whole, without an ellipsis', () => {
    expect(displayText('Kobo Ledger Ltd', { max: DISPLAY_NAME_MAX })).toBe('Kobo Ledger Ltd');
  });

  it('property: the result holds no control or bidi character, and is never longer than asked', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.integer({ min: 2, max: 200 }), (text, max) => {
        const shown = displayText(text, { max });
        expect(shown).not.toMatch(CONTROL_OR_BIDI);
        expect([...new Intl.Segmenter().segment(shown)].length).toBeLessThanOrEqual(max);
        expect(displayText(shown)).toBe(shown);
      }),
    );
  });
});
