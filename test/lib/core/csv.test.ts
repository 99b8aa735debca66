import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from '@/lib/core/csv';

describe('csvField', () => {
  it.each([
    ['plain', '"plain"'],
    ['Kobo Ledger Ltd', '"Kobo Ledger Ltd"'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    [' padded ', '" padded "'],
    ['', ''],
    ['Société Générale', '"Société Générale"'],
  ])('%j → %j', (input, expected) => {
    expect(csvField(input)).toBe(expected);
  });

  it.each([
    ['=1+1', `"'=1+1"`],
    ['+1', `"'+1"`],
    ['-1', `"'-1"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\t=1', `"'\t'=1"`],
    ['=HYPERLINK("http://evil.example","x")', '"\'=HYPERLINK(""http://evil.example"",""x"")"'],
    ["=cmd|' /C calc'!A0", `"'=cmd|' /C calc'!A0"`],
  ])('neutralises a formula: %j → %j', (input, expected) => {
    expect(csvField(input)).toBe(expected);
  });

  it('leaves a formula character that is not first alone', () => {
    expect(csvField('a=b')).toBe('"a=b"');
    expect(csvField('Pay-Go Ltd')).toBe('"Pay-Go Ltd"');
  });

  it('writes numbers as data (a negative number is not a formula) and empties for missing values', () => {
    expect(csvField(76)).toBe('76');
    expect(csvField(-5)).toBe('-5');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });
});

describe('toCsv', () => {
  it('joins fields with commas and rows with CRLF, ending with CRLF', () => {
    expect(
      toCsv([
        ['Company', 'Score'],
        ['Kobo, Ltd', 76],
        ['=evil', null],
      ]),
    ).toBe('"Company","Score"\r\n"Kobo, Ltd",76\r\n"\'=evil",\r\n');
  });

  it('is empty for no rows', () => {
    expect(toCsv([])).toBe('');
  });

  it('round-trips through a strict RFC 4180 parser', () => {
    const rows = [['a"b', 'c,d', 'e\r\nf', 'plain', '@x']];
    const parsed = parseCsv(toCsv(rows));
    expect(parsed).toEqual([['a"b', 'c,d', 'e\r\nf', 'plain', "'@x"]]);
  });
});

describe('cells a spreadsheet could split out (security review finding 3)', () => {
  const FORMULA_START = /^[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
  const hostileNames = [
    'Acme;=1+1;',
    'Acme,=1+1,',
    'Acme\t=1+1\t',
    'Acme; =1+1',
    'Acme;+1;-1;@SUM(A1)',
    '＝1+1',
    'Acme;＝HYPERLINK("http://evil.example")',
    '＋1',
    '－1',
    '＠SUM(A1)',
    'two\n=lines',
  ];

  it.each([',', ';', '\t'])('with %j as the separator, no cell starts a formula (quotes honoured or not)', (separator) => {
    for (const name of hostileNames) {
      const csv = toCsv([
        ['Company', 'Score'],
        [name, 7],
      ]);
      // A spreadsheet that honours quotes: the name stays one cell, neutralised.
      for (const cell of parseCsv(csv, separator).flat())
        expect(cell, `${JSON.stringify(name)} → ${JSON.stringify(cell)}`).not.toMatch(FORMULA_START);
      // One that ignores them (some import wizards): every piece between separators is still text.
      for (const piece of csv.split(/\r\n|\n/).flatMap((line) => line.split(separator))) {
        expect(piece.replace(/^"/, ''), `${JSON.stringify(name)} → ${JSON.stringify(piece)}`).not.toMatch(FORMULA_START);
      }
    }
  });

  it.each([
    ['a zero-width space', '\u200B=1+1'],
    ['a no-break space', '\u00A0=1+1'],
    ['a right-to-left override', '\u202E=1+1'],
    ['a byte-order mark and a narrow no-break space', '\uFEFF\u202F+1'],
    ['a left-to-right mark after a separator', 'Acme;\u200E@SUM(A1)'],
  ])('neutralises a formula start that follows %s (issue #26 item 8)', (_what, name) => {
    // Spreadsheets skip these invisible characters before reading a formula.
    const INVISIBLE_THEN_FORMULA =
      /(^|[,;\t\r\n])[\s\u00A0\u200B-\u200F\u202A-\u202F\u2060-\u2069\uFEFF\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
    const field = csvField(name).slice(1, -1);
    expect(field).not.toMatch(INVISIBLE_THEN_FORMULA);
    expect(field).toContain("'");
  });

  it('quotes every text field, so a separator inside a name never splits it, in any locale', () => {
    expect(csvField('Acme;Ltd')).toBe('"Acme;Ltd"');
    expect(csvField('Acme\tLtd')).toBe('"Acme\tLtd"');
    expect(parseCsv(toCsv([['Acme;Ltd', 'x']]))).toEqual([['Acme;Ltd', 'x']]);
    expect(parseCsv(toCsv([['Acme;Ltd', 'x']]), ';')[0]?.[0]).toContain('Acme;Ltd');
  });
});

/** A minimal RFC 4180 reader (with the separator a spreadsheet's locale uses), to check what a spreadsheet would see. */
function parseCsv(text: string, separator = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += char;
  }
  return rows;
}
