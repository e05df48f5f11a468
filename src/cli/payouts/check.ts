import { access } from 'node:fs/promises';
import type { BatchHandle, BatchRecord } from '../../contracts/batch-store';
import { fingerprint } from '../../payments/ids';
import { CsvError, type CsvRecord, readCsvRecords } from '../csv';
import { CliFailure, ExitCode } from '../output';
import { RowChecker, type RowProblem } from './problems';
import { RowPrints, rowPrint } from './row-prints';
import { BODY_COLUMNS, type CsvOperation, csvRole, payoutRecords, rowError, rowItem } from './rows';

/** What the first reading found. */
export interface FileCheck {
  rows: number;
  /** Every row that cannot be paid as written, in file order (REJECTED, or `--strict`). */
  problems: RowProblem[];
  /** The payable rows' prints, sorted: what the repeat guard compares (row-prints.ts). */
  prints: BigUint64Array;
}

/**
 * Reads the whole file once before anything is sent. It must parse (else a CliFailure,
 * exit code 2, naming the file and the line), and every row the batch's store holds must
 * be the row that was sent under its key (else exit code 2 naming the line and the
 * column). Every other bad row (the operation's schema, a blank or repeated key) is
 * gathered, not thrown: all of them at once.
 */
export async function checkFile(
  file: string,
  operation: CsvOperation,
  handle: BatchHandle,
  previousResults: string,
  secret: string,
): Promise<FileCheck> {
  return asFileError(file, async () => {
    await access(file);
    const checker = new RowChecker(operation);
    const prints = new RowPrints();
    const role = csvRole(operation);
    let rows = 0;
    for await (const record of payoutRecords(file)) {
      const item = rowItem(record, operation);
      if (!checker.check(rows++, record, item)) continue;
      const stored = await handle.get(item.key);
      if (stored && stored.fingerprint !== (await fingerprint(operation, item.body))) {
        throw await disagreement(record, stored, operation, handle.id, previousResults);
      }
      const body = item.body as { amount: string; currency: string } & Record<string, object>;
      prints.add(rowPrint(secret, role, body[role], body.amount, body.currency));
    }
    return { rows, problems: checker.problems, prints: prints.sorted() };
  });
}

/** Runs `read`, turning a CSV or file-system error into exit code 2 naming `file`. */
export async function asFileError<T>(file: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof CsvError)
      throw new CliFailure(`${file}: ${error.message}`, ExitCode.usage);
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      throw new CliFailure(`${file}: cannot read the file (${code})`, ExitCode.usage);
    }
    throw error;
  }
}

/**
 * A row the store holds under its key with another body: the column that changed, from
 * the results file of the earlier run (which has every input column of every row), else
 * the columns it may be.
 */
async function disagreement(
  record: CsvRecord,
  stored: BatchRecord,
  operation: string,
  batch: string,
  previousResults: string,
): Promise<CsvError> {
  const key = record.values.key ?? '';
  const fix =
    'a key names one payment for good: restore the row as it was, or pay the change under a new key or a new --batch; nothing was sent';
  if (stored.operation !== operation) {
    return rowError(
      record,
      'key',
      `${JSON.stringify(key)} was sent in batch ${batch} as ${stored.operation}, not ${operation} (--operation): ${fix}`,
    );
  }
  const before = await earlierRow(previousResults, key);
  const column = BODY_COLUMNS.find(
    (name) => before && (before[name] ?? '') !== (record.values[name] ?? ''),
  );
  if (before && column) {
    const was = JSON.stringify(before[column] ?? '');
    const now = JSON.stringify(record.values[column] ?? '');
    return rowError(
      record,
      column,
      `of key ${JSON.stringify(key)} was ${was} when batch ${batch} sent it, and is ${now} now: ${fix}`,
    );
  }
  return new CsvError(
    `row ${JSON.stringify(key)} differs from what batch ${batch} sent under its key (one of the columns ${BODY_COLUMNS.join(', ')}): ${fix}`,
    record.line,
  );
}

/**
 * The row of `key` in an earlier results file, if it records a send (a reference id): a
 * dry run's file, or a row REJECTED or not sent yet, says nothing of what was sent.
 */
async function earlierRow(
  results: string,
  key: string,
): Promise<Record<string, string> | undefined> {
  try {
    for await (const record of readCsvRecords(results)) {
      if (record.values.key === key && record.values.referenceId) return record.values;
    }
  } catch {
    // No earlier results (or unreadable ones): the message names no column.
  }
  return undefined;
}
