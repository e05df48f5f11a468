import type { BatchItem, BatchOperation } from '../../batches/types';
import { listOperations } from '../../catalogue/operations';
import { requestToPayBody } from '../../schemas/collection';
import { transferBody } from '../../schemas/transactions';
import { CsvError, type CsvRecord, readCsvRecords } from '../csv';

/**
 * The rows of a `payouts` CSV file as batch items (docs/cli.md): `key`, `amount`,
 * `currency`, and `msisdn` or `partyIdType` + `partyId`; optional `externalId` (default
 * the key), `payerMessage`, `payeeNote`. Every other column is carried to the results.
 */

/**
 * The operations a row's columns make a body for, and the party the row names: from the
 * kernel's catalogue (src/catalogue/operations.ts, read from the operation tables), every
 * operation a list can run whose body is a plain payment's (amount, currency, externalId,
 * the payee's or the payer's party, the two notes), in the tables' order. Never listed here.
 */
const ROW_BODIES: ReadonlySet<unknown> = new Set([transferBody, requestToPayBody]);
export const CSV_OPERATIONS: ReadonlyMap<string, 'payee' | 'payer'> = new Map(
  listOperations()
    .filter((op) => ROW_BODIES.has(op.body))
    .map((op) => [op.name, op.party === 'payer' ? 'payer' : 'payee']),
);

/** An operation a CSV's rows can be (checked against `CSV_OPERATIONS` where it is read). */
export type CsvOperation = BatchOperation;

/** The party a row of `operation` names. */
export function csvRole(operation: CsvOperation): 'payee' | 'payer' {
  return CSV_OPERATIONS.get(operation) ?? 'payee';
}

/** The columns the results add after the input's. */
export const RESULT_COLUMNS = ['referenceId', 'status', 'reason', 'financialTransactionId'];

/** The columns a row's body is made of (what a changed row can differ in). */
export const BODY_COLUMNS = [
  'amount',
  'currency',
  'msisdn',
  'partyIdType',
  'partyId',
  'externalId',
  'payerMessage',
  'payeeNote',
];

const REQUIRED = ['key', 'amount', 'currency'];

/** The records of `file`, the header checked on the first (RFC 4180, streamed). */
export async function* payoutRecords(file: string): AsyncGenerator<CsvRecord> {
  let checked = false;
  for await (const record of readCsvRecords(file, { required: REQUIRED })) {
    if (!checked) checkHeader(record.header);
    checked = true;
    yield record;
  }
  if (!checked) throw new CsvError('no rows after the header: nothing to pay', 2);
}

function checkHeader(header: readonly string[]): void {
  const has = (name: string) => header.includes(name);
  if (!has('msisdn') && !(has('partyIdType') && has('partyId'))) {
    const missing = has('partyIdType') ? 'partyId' : has('partyId') ? 'partyIdType' : 'msisdn';
    throw new CsvError(
      `the header has no "${missing}" column (a row names its party by "msisdn", or by "partyIdType" and "partyId")`,
      1,
      missing,
    );
  }
  for (const name of RESULT_COLUMNS) {
    if (has(name)) {
      throw new CsvError(
        `the header has a "${name}" column, which the results add: rename or remove it`,
        1,
        name,
      );
    }
  }
}

/** A row's problem, on its line and in its column. */
export function rowError(record: CsvRecord, column: string, problem: string): CsvError {
  return new CsvError(`column "${column}" ${problem}`, record.line, column);
}

/**
 * A record as a batch item for `operation`, its values as written: what the operation
 * refuses (a blank key, an amount like `1,000.50`, a phone number like `abc`) the check
 * finds (problems.ts: REJECTED, naming the line and the column).
 */
export function rowItem(record: CsvRecord, operation: CsvOperation): BatchItem {
  const v = record.values;
  const key = v.key ?? '';
  const party = v.msisdn
    ? { partyIdType: 'MSISDN', partyId: v.msisdn }
    : { partyIdType: v.partyIdType ?? 'MSISDN', partyId: v.partyId ?? v.msisdn ?? '' };
  const body: Record<string, unknown> = {
    amount: v.amount ?? '',
    currency: v.currency ?? '',
    externalId: v.externalId || key,
    [csvRole(operation)]: party,
  };
  if (v.payerMessage) body.payerMessage = v.payerMessage;
  if (v.payeeNote) body.payeeNote = v.payeeNote;
  return { key, body };
}

/** The file's rows as items, read afresh on every iteration: the file is never held whole. */
export function rereadableItems(file: string, operation: CsvOperation): AsyncIterable<BatchItem> {
  return {
    [Symbol.asyncIterator]: () => itemsOf(file, operation),
  };
}

async function* itemsOf(file: string, operation: CsvOperation): AsyncGenerator<BatchItem> {
  for await (const record of payoutRecords(file)) yield rowItem(record, operation);
}
