import type {
  CashTransferResult,
  ConfirmedCallback,
  InvoiceResult,
  PreApprovalResult,
  StatusLike,
  TransactionResult,
} from 'momo-partner-sdk';
import { describe, expectTypeOf, it } from 'vitest';

type Of<N> = Extract<ConfirmedCallback, { operation: N }>;

describe('ConfirmedCallback: result typed by operation', () => {
  it('narrows on operation to the result of its status lookup', () => {
    const onEvent = (event: ConfirmedCallback) => {
      if (event.operation === 'collection.requestToPay') {
        expectTypeOf(event.result).toEqualTypeOf<TransactionResult>();
        expectTypeOf(event.result.financialTransactionId).toEqualTypeOf<string | undefined>();
      }
      if (event.operation === 'disbursement.getDeposit') {
        expectTypeOf(event.result).toEqualTypeOf<TransactionResult>();
      }
      if (event.operation === 'collection.redeemVoucher') {
        expectTypeOf(event.result).toEqualTypeOf<undefined>();
      }
      if (event.operation === undefined) expectTypeOf(event.result).toEqualTypeOf<StatusLike>();
    };
    void onEvent;
    expectTypeOf<Of<'collection.preApproval'>['result']>().toEqualTypeOf<PreApprovalResult>();
    expectTypeOf<Of<'collection.createInvoice'>['result']>().toEqualTypeOf<InvoiceResult>();
    expectTypeOf<Of<'remittance.cashTransfer'>['result']>().toEqualTypeOf<CashTransferResult>();
    expectTypeOf<Of<'collection.standardDisbursement'>['result']>().toEqualTypeOf<undefined>();
    expectTypeOf<ConfirmedCallback['verifiedBy']>().toEqualTypeOf<'lookup' | 'token' | undefined>();
  });

  it('gives no typed result without narrowing', () => {
    // @ts-expect-error: not every operation has a lookup result
    ((event: ConfirmedCallback) => event.result.financialTransactionId)({} as ConfirmedCallback);
  });
});
