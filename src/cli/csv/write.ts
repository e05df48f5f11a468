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
