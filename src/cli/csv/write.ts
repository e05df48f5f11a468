/**
 * RFC 4180 output: fields quoted when they hold a comma, a quote or a line break (quotes
 * doubled), records ended by CRLF.
 *
 * Formula guard (on by default; OWASP's CSV injection advice: a leading `'`). A cell is
 * guarded when a spreadsheet could read any part of it as a formula:
 * - it begins with a tab or a carriage return;
 * - after leading white space, line breaks and quotes it begins with `=`, `+`, `-`, `@`
 *   or their full-width forms `＝ ＋ － ＠`;
 * - a separator a spreadsheet may split at (`,` `;` `|`, a tab, a line break) is
 *   followed, after white space and quotes, by one of those (`x;=HYPERLINK(..)` splits
 *   into a formula where `;` separates fields).
 * A guarded cell gets a leading `'`, and each formula start after a separator inside it
 * one too (`'x;'=HYPERLINK(..)`), so that the piece a split makes is text as well.
 * A plain number (`-5`, `+233244000000`, `10.50`: a whole cell, or a piece between
 * separators) is no formula: amounts and MSISDNs are written as they are.
 */

export interface CsvWriteOptions {
  /** Prefix cells a spreadsheet would run as formulas with `'`. Default true. */
  formulaGuard?: boolean;
}

const NEEDS_QUOTES = /[",\r\n]/;
/** Cheap first look: no character that could start a formula, no guard. */
const MAYBE_FORMULA = /[=+\-@＝＋－＠\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;
/**
 * A formula start: at the cell's start or after a separator, past white space (Unicode's,
 * line breaks included) and quotes. Group 1: what comes before the starter; group 2: the
 * starter and the rest of its piece (up to the next separator), to tell a plain number.
 */
const FORMULA_START = /(^|[,;|\t\r\n])([\s"']*)([=+\-@＝＋－＠][^,;|\t\r\n]*)/gu;

/** The cell guarded, or undefined when no part of it could be read as a formula. */
function guard(value: string): string | undefined {
  if (!MAYBE_FORMULA.test(value)) return undefined;
  let found = value.startsWith('\t') || value.startsWith('\r');
  const guarded = value.replace(FORMULA_START, (whole, separator, space, piece: string, at) => {
    if (PLAIN_NUMBER.test(piece.trimEnd())) return whole;
    found = true;
    // The cell's own start gets its `'` first of all (below); a later piece right before it.
    return at === 0 && separator === '' ? `'${space}${piece}` : `${separator}${space}'${piece}`;
  });
  if (!found) return undefined;
  return guarded.startsWith("'") ? guarded : `'${guarded}`;
}

/** One field as written in a CSV file. */
export function csvField(value: string, options: CsvWriteOptions = {}): string {
  const guarded = (options.formulaGuard !== false && guard(value)) || value;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** One record as a CSV line, CRLF included. */
export function csvLine(fields: readonly string[], options: CsvWriteOptions = {}): string {
  return `${fields.map((field) => csvField(field, options)).join(',')}\r\n`;
}

/** Where a {@link LineWriter} writes: a `FileHandle` of node:fs/promises has this shape. */
export interface ByteSink {
  write(bytes: Uint8Array, offset: number, length: number): Promise<unknown>;
}

/**
 * Lines into a file through one reused 64 KiB buffer: each line's bytes are copied into
 * it at once, so no line (nor a growing string of them) outlives the record it came
 * from. A large file rewritten while other work runs then leaves no pile of old strings.
 */
export class LineWriter {
  readonly #sink: ByteSink;
  readonly #buffer = Buffer.allocUnsafe(64 * 1024);
  #used = 0;

  constructor(sink: ByteSink) {
    this.#sink = sink;
  }

  /** Adds a line; a promise only when the buffer had to be written out first. */
  add(line: string): Promise<void> | undefined {
    const bytes = Buffer.byteLength(line);
    if (this.#used + bytes <= this.#buffer.length) {
      this.#used += this.#buffer.write(line, this.#used);
      return undefined;
    }
    return this.#flushThen(line, bytes);
  }

  /** Writes out what the buffer holds. */
  async flush(): Promise<void> {
    if (this.#used > 0) await this.#sink.write(this.#buffer, 0, this.#used);
    this.#used = 0;
  }

  async #flushThen(line: string, bytes: number): Promise<void> {
    await this.flush();
    if (bytes <= this.#buffer.length) this.#used = this.#buffer.write(line, 0);
    else await this.#sink.write(Buffer.from(line), 0, bytes);
  }
}
