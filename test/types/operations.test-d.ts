/**
 * No operation listed by hand: `BatchOperation` is the catalogue's list operations, read
 * from the operation tables' types (test/payments/catalogue.test.ts ties the types to
 * the catalogue the code runs).
 */
import type { BatchOperation } from 'momo-partner-sdk/batches';
import { describe, expectTypeOf, it } from 'vitest';
import type { ListOperationName, PaymentOperationName } from '../../src/catalogue/operations';

describe('BatchOperation', () => {
  it("equals the catalogue's creating operations a list can run", () => {
    expectTypeOf<BatchOperation>().toEqualTypeOf<ListOperationName>();
    expectTypeOf<BatchOperation>().toExtend<PaymentOperationName>();
    expectTypeOf<'disbursement.transfer'>().toExtend<BatchOperation>();
    expectTypeOf<'collection.requestToWithdrawV1'>().toExtend<BatchOperation>();
    // Callback-only (no status lookup), consent-token ones, and a table key that is no name.
    expectTypeOf<'collection.redeemVoucher'>().not.toExtend<BatchOperation>();
    expectTypeOf<'collection.standardDisbursement'>().not.toExtend<BatchOperation>();
    expectTypeOf<'disbursement.transferWithConsent'>().not.toExtend<BatchOperation>();
    expectTypeOf<'disbursement.transferWithConsent'>().toExtend<PaymentOperationName>();
    expectTypeOf<'collection.requestToWithdrawByPost'>().not.toExtend<BatchOperation>();
    expectTypeOf<'disbursement.getTransfer'>().not.toExtend<BatchOperation>();
  });
});
