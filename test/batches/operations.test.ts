import type { BatchOperation } from 'momo-partner-sdk/batches';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { batchOperations } from '../../src/batches/operations';
import type { TableOperation } from '../../src/products/endpoints';
import { confirmedOperations } from '../support/confirmed-operations';

const confirmed = confirmedOperations;
const BATCH_OPERATIONS = batchOperations();

/** The public `BatchOperation` union, key for key (a missing or extra name fails to compile). */
const everyBatchOperation = {
  'disbursement.transfer': true,
  'disbursement.deposit': true,
  'disbursement.depositV2': true,
  'disbursement.refund': true,
  'disbursement.refundV2': true,
  'collection.requestToPay': true,
  'collection.requestToWithdraw': true,
  'collection.requestToWithdrawV1': true,
  'collection.preApproval': true,
  'collection.createInvoice': true,
  'collection.createPayment': true,
  'remittance.transfer': true,
  'remittance.cashTransfer': true,
} satisfies Record<BatchOperation, true>;

describe("the batch runner's operations map", () => {
  it('is the public BatchOperation union, derived from the operation tables', () => {
    expect(Object.keys(BATCH_OPERATIONS).sort()).toEqual(Object.keys(everyBatchOperation).sort());
  });

  it("finds each item's counterparty field from its body's schema", () => {
    const party = Object.fromEntries(
      Object.entries(BATCH_OPERATIONS).map(([n, op]) => [n, op.party]),
    );
    expect(party).toMatchObject({
      'disbursement.transfer': 'payee',
      'disbursement.refund': undefined,
      'collection.requestToPay': 'payer',
      'collection.createInvoice': 'intendedPayer',
      'collection.createPayment': undefined,
      'remittance.cashTransfer': 'payee',
    });
  });

  it('names every creating operation the tables confirm by a status lookup, but those needing a consent token', () => {
    const left = [...confirmed.keys()].filter((name) => !(name in BATCH_OPERATIONS));
    expect(Object.keys(BATCH_OPERATIONS).filter((name) => !confirmed.has(name))).toEqual([]);
    expect(left.every((name) => name.startsWith('consent.') || /consent/i.test(name))).toBe(true);
  });

  it("waits through the public method that sends the tables' lookup", async () => {
    const sim = createSimulator();
    const momo = sim.client();
    for (const [name, spec] of Object.entries(BATCH_OPERATIONS)) {
      const id = crypto.randomUUID();
      await expect(spec.wait(momo, id, { timeoutMs: 1_000 }), name).rejects.toBeDefined();
      const lookup = sim.requests.filter((r) => r.method === 'GET').at(-1);
      const expected = confirmed.get(name) as TableOperation;
      expect(`${lookup?.method} ${lookup?.path}`, name).toBe(
        `${expected.method} ${expected.path.replace('{referenceId}', id)}`,
      );
    }
  });
});
