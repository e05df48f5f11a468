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
/** The length from which V8 makes a slice a view into the string it was cut from. */
const SHORTEST_VIEW = 13;

/**
 * The field as a string of its own. A field is cut from the chunk read (see `#runStart`),
 * and V8 makes a cut of 13 characters or more a view that keeps the whole chunk alive (a
 * field joined from parts keeps its parts): a key kept for a run would hold the file's
 * text in memory. Prefixed, then cut again: V8 copies the field into a new string when
 * cutting the joined one, and the result keeps only that copy.
 */
function ownString(field: string): string {
  return field.length < SHORTEST_VIEW ? field : ` ${field}`.slice(1);
}

type State = 'start' | 'unquoted' | 'quoted' | 'quote-in-quoted';

export class CsvParser {
  #state: State = 'start';
  /** The field read so far, up to the current run of its characters (`#runStart`). */
  #field = '';
  /**
   * Where, in the chunk being parsed, the field's current run of characters began (-1:
   * none). A run is taken as one slice of the chunk when something else comes (a comma, a
   * quote, a line end, the chunk's end), rather than one string per character: a
   * 100,000-row file read three times made about 1 GB of one-character concatenations.
   */
  #runStart = -1;
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

  /**
   * Parses the next chunk, yielding each record as it completes: one at a time, so that a
   * consumer that awaits between records holds one record, not the chunk's thousands
   * (held across awaits, they would outlive V8's young generation and pile up in the old).
   */
  *push(text: string): Generator<CsvRow> {
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
      const row = this.#take(c, text, i);
      if (c === CR || (c === LF && !afterCR)) this.#line++; // CRLF counts once, on its CR
      if (row !== undefined) yield row;
    }
    this.#endRun(text, text.length); // the next chunk is another string
  }

  /** Ends the input: the last record, or an error if a quoted field is still open. */
  *end(): Generator<CsvRow> {
    if (this.#state === 'quoted') {
      throw new CsvError(
        `a quoted field opened on line ${this.#recordLine} is never closed (a missing ")`,
        this.#recordLine,
      );
    }
    const row = this.#started ? this.#endRecord() : undefined;
    if (row !== undefined) yield row;
  }

  /** Takes one character (`text[i]`); returns the record it completes, if any. */
  #take(c: number, text: string, i: number): CsvRow | undefined {
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
          return undefined;
        }
        return this.#unquoted(c, text, i);
      case 'unquoted':
        if (c === QUOTE) {
          throw new CsvError(
            'a quote inside an unquoted field (quote the whole field and double the quote: "a""b")',
            this.#line,
          );
        }
        return this.#unquoted(c, text, i);
      case 'quoted':
        if (c === QUOTE) {
          this.#endRun(text, i);
          this.#state = 'quote-in-quoted';
        } else if (this.#runStart < 0) {
          this.#runStart = i;
        }
        return undefined;
      case 'quote-in-quoted':
        if (c === QUOTE) {
          this.#runStart = i; // the second quote of `""` is the `"` the field holds
          this.#state = 'quoted';
        } else if (c === COMMA || c === LF || c === CR) {
          return this.#unquoted(c, text, i);
        } else {
          throw new CsvError(
            `text after the closing quote of a field ("${text[i]}"): a field is quoted whole or not at all`,
            this.#line,
          );
        }
        return undefined;
    }
  }

  /** A character outside quotes. */
  #unquoted(c: number, text: string, i: number): CsvRow | undefined {
    if (c === LF || c === CR) {
      this.#endRun(text, i);
      return this.#endRecord();
    }
    this.#started = true;
    if (c === COMMA) {
      this.#endRun(text, i);
      this.#fields.push(ownString(this.#field));
      this.#field = '';
      this.#state = 'start';
    } else {
      if (this.#runStart < 0) this.#runStart = i;
      this.#state = 'unquoted';
    }
    return undefined;
  }

  /** Adds the current run of the field's characters, which ends before `text[end]`. */
  #endRun(text: string, end: number): void {
    if (this.#runStart < 0) return;
    const run = text.slice(this.#runStart, end);
    this.#field = this.#field === '' ? run : this.#field + run;
    this.#runStart = -1;
  }

  /** The record that ends here; undefined for a blank line (a trailing line end included). */
  #endRecord(): CsvRow | undefined {
    // `""` is one empty field.
    let row: CsvRow | undefined;
    if (this.#started) {
      this.#fields.push(ownString(this.#field));
      row = { line: this.#recordLine, fields: this.#fields };
    }
    this.#fields = [];
    this.#field = '';
    this.#state = 'start';
    this.#started = false;
    this.#size = 0;
    this.#recordLine = this.#line + 1; // the line end is counted after this call
    return row;
  }
}
