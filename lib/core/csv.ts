/**
 * CSV (RFC 4180) for exports that analysts open in a spreadsheet. Pure and framework-free.
 *
 * - A field is quoted when it contains a comma, a double quote, a line break or leading/trailing
 *   spaces; quotes inside are doubled.
 * - Formula injection (CWE-1236): snapshot text comes from founders, so a company called
 *   `=HYPERLINK(…)` must not run in the analyst's spreadsheet. A field starting with `=`, `+`, `-`,
 *   `@`, a tab or a carriage return gets a leading `'`, which spreadsheets show as text.
 * - Lines end with CRLF, as the RFC says (Excel and LibreOffice read it everywhere).
 */

export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** Numbers are written as they are (a negative number is data, not a formula); text is neutralised. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + (rows.length > 0 ? '\r\n' : '');
}

/** A byte-order mark first, so spreadsheet programs read accents (French company names) as UTF-8. */
export const CSV_BOM = '\uFEFF';
