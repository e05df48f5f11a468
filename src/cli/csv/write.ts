/**
 * RFC 4180 output: fields quoted when they hold a comma, a quote or a line break (quotes
 * doubled), records ended by CRLF.
 *
 * Formula guard (on by default): a cell that a spreadsheet would run as a formula (it
 * begins with `=`, `+`, `-`, `@`, a tab or a carriage return) is written with a leading
 * `'`, as OWASP advises, unless it is a plain number (`-5`, `+233244000000`, `10.50`),
 * which a spreadsheet reads as a number: amounts and MSISDNs stay as they are.
 */

export interface CsvWriteOptions {
  /** Prefix cells a spreadsheet would run as formulas with `'`. Default true. */
  formulaGuard?: boolean;
}

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/** One field as written in a CSV file. */
export function csvField(value: string, options: CsvWriteOptions = {}): string {
  const guarded =
    options.formulaGuard !== false && FORMULA_START.test(value) && !PLAIN_NUMBER.test(value)
      ? `'${value}`
      : value;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** One record as a CSV line, CRLF included. */
export function csvLine(fields: readonly string[], options: CsvWriteOptions = {}): string {
  return `${fields.map((field) => csvField(field, options)).join(',')}\r\n`;
}
