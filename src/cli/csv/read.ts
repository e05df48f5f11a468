import { createReadStream } from 'node:fs';
import { CsvError, CsvParser, type CsvRow } from './parser';

/** Where CSV text comes from: a file path, a Node Readable, or any async iterable of chunks. */
export type CsvSource = string | AsyncIterable<string | Uint8Array>;

export interface CsvReadOptions {
  /** Bound on one record's length, in characters. Default 1,000,000. */
  maxRecordChars?: number;
}

/**
 * The records of a CSV input, one at a time, each with the line it starts on: the input
 * is never held whole. Bytes are read as UTF-8; invalid UTF-8 is a `CsvError`.
 */
export async function* readCsvRows(
  source: CsvSource,
  options: CsvReadOptions = {},
): AsyncGenerator<CsvRow> {
  const parser = new CsvParser(options);
  const chunks = typeof source === 'string' ? createReadStream(source) : source;
  // ignoreBOM keeps a leading BOM in the text, so that strings and bytes lose it alike.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const decode = (chunk: string | Uint8Array | undefined): string => {
    try {
      return typeof chunk === 'string'
        ? chunk
        : decoder.decode(chunk, { stream: chunk !== undefined });
    } catch {
      throw new CsvError('not UTF-8 text (save the file as CSV UTF-8)', parser.line);
    }
  };
  for await (const chunk of chunks as AsyncIterable<string | Uint8Array>) {
    yield* parser.push(decode(chunk));
  }
  yield* parser.push(decode(undefined));
  yield* parser.end();
}

/** One data record of a CSV file with a header row. */
export interface CsvRecord {
  /** 1-based line the record starts on (the header is line 1 or more). */
  line: number;
  /** Every column by its header name, as written (always strings). */
  values: Record<string, string>;
  /** The header's column names, in order (the same array for every record). */
  header: readonly string[];
}

export interface CsvRecordOptions extends CsvReadOptions {
  /** Columns the header must have: a missing one is a `CsvError` naming it, on line 1. */
  required?: readonly string[];
  /** Called with the checked header's column names, before the first record (if any). */
  onHeader?(header: readonly string[]): void;
}

/**
 * The data records of a CSV file whose first record is its header. Column names are
 * trimmed; an empty or repeated one is an error, and so is a record whose number of
 * fields differs from the header's (naming its line).
 */
export async function* readCsvRecords(
  source: CsvSource,
  options: CsvRecordOptions = {},
): AsyncGenerator<CsvRecord> {
  let header: string[] | undefined;
  for await (const row of readCsvRows(source, options)) {
    if (!header) {
      header = checkHeader(row, options.required ?? []);
      options.onHeader?.(header);
      continue;
    }
    if (row.fields.length !== header.length) {
      throw new CsvError(
        `${row.fields.length} fields where the header has ${header.length} (a missing comma, or an unquoted comma in a value?)`,
        row.line,
      );
    }
    const values: Record<string, string> = {};
    header.forEach((name, i) => {
      values[name] = row.fields[i] as string;
    });
    yield { line: row.line, values, header };
  }
  if (!header) throw new CsvError('the file is empty: a header row is required', 1);
}

function checkHeader(row: CsvRow, required: readonly string[]): string[] {
  const names = row.fields.map((name) => name.trim());
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (name === '') throw new CsvError(`column ${i + 1} of the header has no name`, row.line);
    if (seen.has(name))
      throw new CsvError(`column "${name}" appears twice in the header`, row.line, name);
    seen.add(name);
  });
  for (const name of required) {
    if (!seen.has(name)) {
      throw new CsvError(
        `the header has no "${name}" column (it has: ${names.join(', ')})`,
        row.line,
        name,
      );
    }
  }
  return names;
}
