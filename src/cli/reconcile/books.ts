import { access, constants } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ValidationError } from '../../errors';
import { RecordChecks } from '../../reconcile/records';
import type { ReconcileItem, ReconcileRecord, ReconcileStoreRecord } from '../../reconcile/types';
import { CsvError, csvLine, readCsvRecords } from '../csv';
import { CliFailure, ExitCode } from '../output';
import { replaceFile } from '../private-file';

/** The columns a books file must have; `status`, `amount` and `currency` are optional. */
const REQUIRED = ['referenceId', 'operation'] as const;
/** What the report adds after the input's columns. */
export const REPORT_COLUMNS = ['providerStatus', 'verdict', 'reason'] as const;

/** One row of the books file: the record reconciled, with its line and every cell. */
export interface BookRow extends ReconcileRecord {
  line: number;
  values: Readonly<Record<string, string>>;
}

export interface Books {
  /** The input's columns, in order, as the report repeats them. */
  columns: readonly string[];
  rows: BookRow[];
}

/** `books.csv` → `books.report.csv` (any other name: `<name>.report.csv`). */
export function defaultReportPath(file: string): string {
  return `${file.replace(/\.csv$/i, '')}.report.csv`;
}

/**
 * Reads the whole file (the run holds one item per row anyway). An unreadable or
 * malformed file, or one without a required column, is a CliFailure (exit code 2)
 * naming the file and the line.
 */
export async function readBooks(file: string): Promise<Books> {
  let header: readonly string[] = [];
  const rows: BookRow[] = [];
  try {
    const options = {
      required: REQUIRED,
      onHeader: (names: readonly string[]) => (header = names),
    };
    for await (const { line, values } of readCsvRecords(file, options)) {
      const { referenceId = '', operation = '', status, amount, currency } = values;
      rows.push({ line, values, referenceId, operation, status, amount, currency });
    }
  } catch (error) {
    if (error instanceof CsvError)
      throw new CliFailure(`${file}: ${error.message}`, ExitCode.usage);
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliFailure(`cannot read ${file}: ${reason}`, ExitCode.usage);
  }
  // A report read back in: its own verdict columns are replaced, not repeated.
  const added = new Set<string>(REPORT_COLUMNS);
  return { columns: header.filter((name) => !added.has(name)), rows };
}

/**
 * Checks every row as `reconcile(momo, books)` does, before anything is looked up: its
 * ValidationError, naming `records[i].field`, becomes a CliFailure naming each line and
 * column (exit code 2).
 */
export function checkBooks(file: string, rows: readonly BookRow[]): void {
  const checks = new RecordChecks();
  rows.forEach((row, index) => {
    checks.check(row, index);
  });
  const error = checks.error();
  if (error) throw booksRefused(file, rows, error);
}

/** A ValidationError about `rows`, said by line and column of the file. */
export function booksRefused(
  file: string,
  rows: readonly BookRow[],
  error: ValidationError,
): CliFailure {
  const problems = error.issues.map(({ path, message }) => {
    const [, index, field] = /^records\[(\d+)\](?:\.(.+))?$/.exec(path) ?? [];
    const row = index === undefined ? undefined : rows[Number(index)];
    if (!row) return message;
    return `line ${row.line}${field ? `, column ${field}` : ''}: ${message}`;
  });
  return new CliFailure(
    `${file}: nothing was looked up; fix ${problems.length === 1 ? 'this row' : 'these rows'} and run again:\n  ${problems.join('\n  ')}`,
    ExitCode.usage,
  );
}

/** Fails early (exit code 2, before any lookup) when the report could not be written. */
export async function checkWritable(out: string): Promise<void> {
  try {
    await access(dirname(out), constants.W_OK);
  } catch {
    throw new CliFailure(
      `cannot write the report ${out}: its folder is missing or read-only`,
      ExitCode.usage,
    );
  }
}

/**
 * The report: the input's columns as they were, then the provider's status, the verdict
 * and why; one row per input row, in input order, then one per payment the books lack
 * (its referenceId and operation columns filled in). Written whole to a temporary file,
 * then renamed: there is a complete report or none.
 */
export async function writeReport(
  out: string,
  columns: readonly string[],
  items: readonly ReconcileItem<BookRow | ReconcileStoreRecord>[],
  rows: readonly BookRow[],
): Promise<void> {
  const lines = [csvLine([...columns, ...REPORT_COLUMNS])];
  for (const item of items) {
    const { record } = item;
    const cells = columns.map((name) =>
      'values' in record
        ? (record.values[name] ?? '')
        : name === 'referenceId' || name === 'operation'
          ? record[name]
          : '',
    );
    lines.push(csvLine([...cells, item.found?.status ?? '', item.verdict, reasonOf(item, rows)]));
  }
  await replaceFile(out, lines.join('')); // a private temporary file, renamed over it
}

/**
 * The verdict's reason (a DUPLICATE's names the line of the first row with its id), else
 * the provider's reason code for a FAILED one.
 */
function reasonOf(
  item: ReconcileItem<BookRow | ReconcileStoreRecord>,
  rows: readonly BookRow[],
): string {
  const first = item.duplicateOf === undefined ? undefined : rows[item.duplicateOf];
  if (first) {
    return `the same referenceId as line ${first.line} (reconciled there): the books list this payment twice`;
  }
  if (item.reason) return item.reason;
  const reason = item.found?.reason;
  if (!reason?.code) return '';
  return reason.message ? `${reason.code}: ${reason.message}` : reason.code;
}
