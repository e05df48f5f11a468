import type { BatchItem } from '../../batches/types';
import { CsvError, type CsvRecord, readCsvRecords } from '../csv';

/**
 * The rows of a `payouts` CSV file as batch items (DESIGN 8.3): `key`, `amount`,
 * `currency`, and `msisdn` or `partyIdType` + `partyId`; optional `externalId` (default
 * the key), `payerMessage`, `payeeNote`. Every other column is carried to the results.
 */

/** The operations a row's columns make a body for, and the party the row names. */
export const CSV_OPERATIONS = {
  'disbursement.transfer': 'payee',
  'disbursement.deposit': 'payee',
  'disbursement.depositV2': 'payee',
  'remittance.transfer': 'payee',
  'collection.requestToPay': 'payer',
  'collection.requestToWithdraw': 'payer',
  'collection.requestToWithdrawV1': 'payer',
} as const;

export type CsvOperation = keyof typeof CSV_OPERATIONS;

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
    [CSV_OPERATIONS[operation]]: party,
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
