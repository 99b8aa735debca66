/**
 * CSV (RFC 4180) for exports that analysts open in a spreadsheet. Pure and framework-free.
 *
 * - Every text field is quoted (quotes inside doubled), so a separator inside a name never splits
 *   it, whatever separator the reader's locale uses (`,` in English, `;` in French, tab).
 * - Formula injection (CWE-1236): snapshot text comes from founders, so a company called
 *   `=HYPERLINK(…)` must not run in the analyst's spreadsheet. Every place a spreadsheet could start
 *   a cell (the field's start, after `,` `;` a tab or a line break, when a reader ignores the quotes)
 *   that begins with a formula character (`=` `+` `-` `@`, or their full-width forms), even after
 *   spaces or invisible characters, gets a `'` first, which spreadsheets show as text; so does a
 *   field starting with a tab or carriage return.
 * - Lines end with CRLF, as the RFC says (Excel and LibreOffice read it everywhere).
 */

export type CsvCell = string | number | null | undefined;

/**
 * A cell start followed by a formula character; the `'` goes after any spaces or invisible characters
 * before it (no-break and other spaces, zero-width spaces, bidi marks and overrides, byte-order marks,
 * word joiners), which a spreadsheet may skip before it reads a formula.
 */
const FORMULA_AT_CELL_START =
  /(^|[,;\t\r\n])([ \u00A0\u1680\u2000-\u200F\u202A-\u202F\u205F-\u2069\u3000\uFEFF]*)(?=[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/g;
const LEADING_CONTROL = /^[\t\r]/;

/** Numbers are written as they are (a negative number is data, not a formula); text is neutralised and quoted. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (value === '') return '';
  let text = value.replace(FORMULA_AT_CELL_START, "$1$2'");
  if (LEADING_CONTROL.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + (rows.length > 0 ? '\r\n' : '');
}

/** A byte-order mark first, so spreadsheet programs read accents (French company names) as UTF-8. */
export const CSV_BOM = '\uFEFF';
