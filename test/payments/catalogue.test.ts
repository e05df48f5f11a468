/**
 * The catalogue the code runs and the names the types read from the tables are one list;
 * the CSV's operations are derived from it.
 */
import type { BatchOperation } from 'momo-partner-sdk/batches';
import { describe, expect, it } from 'vitest';
import { listOperations } from '../../src/catalogue/operations';
import { CSV_OPERATIONS } from '../../src/cli/payouts/rows';

/** Every BatchOperation, once: the compiler refuses a missing or an extra name here. */
const EVERY_BATCH_OPERATION: Record<BatchOperation, true> = {
  'disbursement.transfer': true,
  'disbursement.deposit': true,
  'disbursement.refund': true,
  'disbursement.depositV2': true,
  'disbursement.refundV2': true,
  'collection.requestToPay': true,
  'collection.requestToWithdraw': true,
  'collection.requestToWithdrawV1': true,
  'collection.preApproval': true,
  'collection.createInvoice': true,
  'collection.createPayment': true,
  'remittance.transfer': true,
  'remittance.cashTransfer': true,
};

describe('the catalogue', () => {
  it("runs exactly the operations BatchOperation names (the tables' types)", () => {
    const running = listOperations().map((op) => op.name);
    expect([...running].sort()).toEqual(Object.keys(EVERY_BATCH_OPERATION).sort());
  });

  it("gives the CSV the list operations a row's columns make a body for, with the party the row names", () => {
    expect(Object.fromEntries(CSV_OPERATIONS)).toEqual({
      'disbursement.transfer': 'payee',
      'disbursement.deposit': 'payee',
      'disbursement.depositV2': 'payee',
      'collection.requestToPay': 'payer',
      'collection.requestToWithdraw': 'payer',
      'collection.requestToWithdrawV1': 'payer',
      'remittance.transfer': 'payee',
    });
  });
});
