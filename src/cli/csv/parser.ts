/**
 * An RFC 4180 parser fed text in chunks of any size: quoted fields (commas, line breaks
 * and `""` inside), CRLF, LF or CR line ends, a leading byte-order mark dropped, a final
 * line end optional. Fields are always strings, exactly as written (`0244…` keeps its
 * zero). Strict where the RFC is: a quote inside an unquoted field, text after a closing
 * quote and an unterminated quoted field are errors naming their line.
 */

/** A malformed or unreadable CSV input: `line` is 1-based, as an editor shows it. */
export class CsvError extends Error {
  override name = 'CsvError';

  constructor(
    message: string,
    /** The line the problem is on (0 when the input could not be read at all). */
    readonly line: number,
    /** The column, by its header name, when the problem is one column's. */
    readonly column?: string,
  ) {
    super(line > 0 ? `line ${line}: ${message}` : message);
  }
}

/** One record: its fields, and the line it starts on. */
export interface CsvRow {
  /** 1-based: the physical line the record starts on (quoted line breaks counted). */
  line: number;
  fields: string[];
}

/** Bounds what one record may hold, so that a stray quote cannot buffer a whole file. */
export const DEFAULT_MAX_RECORD_CHARS = 1_000_000;

const QUOTE = 34; // "
const COMMA = 44;
const LF = 10;
const CR = 13;
const BOM = 0xfeff;

type State = 'start' | 'unquoted' | 'quoted' | 'quote-in-quoted';

export class CsvParser {
  #state: State = 'start';
  #field = '';
  #fields: string[] = [];
  /** Chars held by the record being read. */
  #size = 0;
  /** The physical line being read (1-based). */
  #line = 1;
  /** The line the record being read starts on. */
  #recordLine = 1;
  /** Whether the record being read has any content yet (a field, a quote, a comma). */
  #started = false;
  #lastWasCR = false;
  #first = true;
  readonly #maxRecordChars: number;

  constructor(options: { maxRecordChars?: number } = {}) {
    this.#maxRecordChars = options.maxRecordChars ?? DEFAULT_MAX_RECORD_CHARS;
  }

  /** The physical line the parser is on (1-based). */
  get line(): number {
    return this.#line;
  }

  /** Parses the next chunk; returns the records it completed. */
  push(text: string): CsvRow[] {
    const rows: CsvRow[] = [];
    let i = 0;
    if (this.#first && text.length > 0) {
      this.#first = false;
      if (text.charCodeAt(0) === BOM) i = 1;
    }
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const afterCR = this.#lastWasCR;
      this.#lastWasCR = c === CR;
      if (c === LF && afterCR && this.#state !== 'quoted') continue; // CRLF: the CR ended it
      this.#take(c, text[i] as string, rows);
      if (c === CR || (c === LF && !afterCR)) this.#line++; // CRLF counts once, on its CR
    }
    return rows;
  }

  /** Ends the input: the last record, or an error if a quoted field is still open. */
  end(): CsvRow[] {
    if (this.#state === 'quoted') {
      throw new CsvError(
        `a quoted field opened on line ${this.#recordLine} is never closed (a missing ")`,
        this.#recordLine,
      );
    }
    const rows: CsvRow[] = [];
    if (this.#started) this.#endRecord(rows);
    return rows;
  }

  #take(c: number, char: string, rows: CsvRow[]): void {
    if (++this.#size > this.#maxRecordChars) {
      throw new CsvError(
        `a record longer than ${this.#maxRecordChars} characters (an unclosed quote?)`,
        this.#recordLine,
      );
    }
    switch (this.#state) {
      case 'start':
        if (c === QUOTE) {
          this.#started = true;
          this.#state = 'quoted';
        } else this.#unquoted(c, char, rows);
        return;
      case 'unquoted':
        if (c === QUOTE) {
          throw new CsvError(
            'a quote inside an unquoted field (quote the whole field and double the quote: "a""b")',
            this.#line,
          );
        }
        this.#unquoted(c, char, rows);
        return;
      case 'quoted':
        if (c === QUOTE) this.#state = 'quote-in-quoted';
        else this.#field += char;
        return;
      case 'quote-in-quoted':
        if (c === QUOTE) {
          this.#field += '"';
          this.#state = 'quoted';
        } else if (c === COMMA || c === LF || c === CR) {
          this.#unquoted(c, char, rows);
        } else {
          throw new CsvError(
            `text after the closing quote of a field ("${char}"): a field is quoted whole or not at all`,
            this.#line,
          );
        }
        return;
    }
  }

  /** A character outside quotes. */
  #unquoted(c: number, char: string, rows: CsvRow[]): void {
    if (c === COMMA) {
      this.#started = true;
      this.#fields.push(this.#field);
      this.#field = '';
      this.#state = 'start';
    } else if (c === LF || c === CR) {
      this.#endRecord(rows);
    } else {
      this.#started = true;
      this.#field += char;
      this.#state = 'unquoted';
    }
  }

  #endRecord(rows: CsvRow[]): void {
    // A blank line is no record (a trailing line end included); `""` is one empty field.
    if (this.#started) {
      this.#fields.push(this.#field);
      rows.push({ line: this.#recordLine, fields: this.#fields });
    }
    this.#fields = [];
    this.#field = '';
    this.#state = 'start';
    this.#started = false;
    this.#size = 0;
    this.#recordLine = this.#line + 1; // the line end is counted after this call
  }
}
