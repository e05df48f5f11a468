import type {
  CashTransferResult,
  ConfirmedCallback,
  InvoiceResult,
  PaymentResult,
  PreApprovalResult,
  StatusLike,
  TransactionResult,
} from 'momo-partner-sdk';
import { describe, expectTypeOf, it } from 'vitest';

type Of<N> = Extract<ConfirmedCallback, { operation: N }>;

/** The callback map as the public type gives it: every operation name to its result. */
type CallbackMap = {
  [N in NonNullable<ConfirmedCallback['operation']>]: Of<N>['result'];
};

/**
 * The map derived from the operation tables, written out once here (never in src/): a row
 * added, renamed or confirmed by another lookup changes it, and this test says so.
 */
interface ExpectedCallbackMap {
  'disbursement.transfer': TransactionResult;
  'disbursement.deposit': TransactionResult;
  'disbursement.refund': TransactionResult;
  'disbursement.depositV2': TransactionResult;
  'disbursement.refundV2': TransactionResult;
  'disbursement.transferWithConsent': TransactionResult;
  'disbursement.merchantPaymentWithConsent': TransactionResult;
  'disbursement.getTransfer': TransactionResult;
  'disbursement.getDeposit': TransactionResult;
  'disbursement.getRefund': TransactionResult;
  'disbursement.getMerchantPayment': TransactionResult;
  'collection.requestToPay': TransactionResult;
  'collection.requestToWithdraw': TransactionResult;
  'collection.requestToWithdrawV1': TransactionResult;
  'collection.preApproval': PreApprovalResult;
  'collection.createInvoice': InvoiceResult;
  'collection.createPayment': PaymentResult;
  'collection.getRequestToPay': TransactionResult;
  'collection.getRequestToWithdraw': TransactionResult;
  'collection.getPreApproval': PreApprovalResult;
  'collection.getInvoice': InvoiceResult;
  'collection.getPayment': PaymentResult;
  'collection.redeemVoucher': undefined;
  'collection.standardDisbursement': undefined;
  'collection.cancelInvoice': undefined;
  'remittance.transfer': TransactionResult;
  'remittance.cashTransfer': CashTransferResult;
  'remittance.getTransfer': TransactionResult;
  'remittance.getCashTransfer': CashTransferResult;
}

describe('the callback map, derived from the operation tables', () => {
  it('names every creating call and lookup of the called-back products, with its result', () => {
    expectTypeOf<CallbackMap>().toEqualTypeOf<ExpectedCallbackMap>();
  });

  it('holds no operation without a table row (no account or consent call)', () => {
    expectTypeOf<'collection.getAccountBalance'>().not.toExtend<keyof CallbackMap>();
    expectTypeOf<'consent.bcAuthorize'>().not.toExtend<keyof CallbackMap>();
    expectTypeOf<'collection.sendDeliveryNotification'>().not.toExtend<keyof CallbackMap>();
    expectTypeOf<string>().not.toExtend<keyof CallbackMap>();
  });
});

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
