import type {
  AccountStatus,
  AuthorizeInput,
  Balance,
  BasicUserInfo,
  CallbackEvent,
  CashTransferBody,
  CashTransferResult,
  ConfirmedCallback,
  ConsentPaymentBody,
  Heartbeat,
  Reason,
  RefundBody,
  RequestToPayBody,
  ResultParty,
  StandardDisbursementAccepted,
  StandardDisbursementBody,
  TransactionResult,
  TransactionStatus,
  TransferBody,
  UnknownFields,
  UserInfo,
  VoucherOtp,
  VoucherRedeemBody,
} from 'momo-partner-sdk';
import { MomoClient } from 'momo-partner-sdk';
import { describe, expectTypeOf, it } from 'vitest';
import type * as collection from '../../src/schemas/collection';
import type * as consent from '../../src/schemas/consent';
import type { Output } from '../../src/schemas/lazy';
import type * as remittance from '../../src/schemas/remittance';
import type * as standard from '../../src/schemas/standard';
import type * as tolerant from '../../src/schemas/tolerant';
import type * as transactions from '../../src/schemas/transactions';

const momo = new MomoClient({ baseUrl: 'https://x.test', targetEnvironment: 'sandbox' });
const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;

describe('result types are precise', () => {
  it('status is the documented union, final results narrow it', async () => {
    expectTypeOf<TransactionResult['status']>().toEqualTypeOf<
      'PENDING' | 'SUCCESSFUL' | 'FAILED'
    >();
    expectTypeOf<TransactionStatus>().toEqualTypeOf<TransactionResult['status']>();
    expectTypeOf<CallbackEvent['status']>().toEqualTypeOf<TransactionStatus>();
    expectTypeOf<ConfirmedCallback['status']>().toEqualTypeOf<TransactionStatus>();
    const final = await momo.disbursement.deposit({ amount: '1', currency: 'EUR', payee }).wait();
    expectTypeOf(final.status).toEqualTypeOf<'SUCCESSFUL' | 'FAILED'>();
    // @ts-expect-error 'SUCESSFUL' is not a status: a typo in a comparison does not compile
    if (final.status === 'SUCESSFUL') return;
  });

  it('a typo in a field name does not compile: no index signature on results', async () => {
    const result = await momo.disbursement.getDeposit('id');
    expectTypeOf(result.financialTransactionId).toEqualTypeOf<string | undefined>();
    // @ts-expect-error finacialTransactionId is a typo of financialTransactionId
    void result.finacialTransactionId;
    // @ts-expect-error unknown fields live under unknownFields, not on the result
    void result.someNewField;
    expectTypeOf(result.unknownFields).toEqualTypeOf<UnknownFields | undefined>();
    expectTypeOf(result.payee).toEqualTypeOf<ResultParty | undefined>();
    expectTypeOf<ResultParty['partyIdType']>().toEqualTypeOf<
      'MSISDN' | 'EMAIL' | 'PARTY_CODE' | undefined
    >();
    expectTypeOf<Reason['code']>().toEqualTypeOf<string>();
  });

  it('documented value sets are unions', async () => {
    const account = await momo.collection.getAccountStatus('msisdn', '46733123999');
    expectTypeOf(account.accountStatus).toEqualTypeOf<'available' | 'unavailable'>();
    // @ts-expect-error 'availabel' is not an account status
    if (account.accountStatus === 'availabel') return;
    expectTypeOf<StandardDisbursementAccepted['status']>().toEqualTypeOf<'pending'>();
    expectTypeOf<StandardDisbursementAccepted['notificationMethod']>().toEqualTypeOf<
      'callback' | 'polling'
    >();
  });
});

describe('public types are exactly what the schemas read and check', () => {
  it('results', () => {
    expectTypeOf<
      Output<typeof transactions.transactionResult>
    >().toEqualTypeOf<TransactionResult>();
    expectTypeOf<
      Output<typeof remittance.cashTransferResult>
    >().toEqualTypeOf<CashTransferResult>();
    expectTypeOf<Output<typeof transactions.balance>>().toEqualTypeOf<Balance>();
    expectTypeOf<Output<typeof transactions.basicUserInfo>>().toEqualTypeOf<BasicUserInfo>();
    expectTypeOf<Output<typeof remittance.userInfo>>().toEqualTypeOf<UserInfo>();
    expectTypeOf<Output<typeof collection.accountStatus>>().toEqualTypeOf<AccountStatus>();
    expectTypeOf<Output<typeof collection.heartbeat>>().toEqualTypeOf<Heartbeat>();
    expectTypeOf<Output<typeof collection.voucherOtp>>().toEqualTypeOf<VoucherOtp>();
    expectTypeOf<Output<typeof tolerant.resultParty>>().toEqualTypeOf<ResultParty>();
    expectTypeOf<Output<typeof tolerant.reason>>().toEqualTypeOf<Reason>();
  });

  it('bodies', () => {
    expectTypeOf<Output<typeof transactions.transferBody>>().toEqualTypeOf<TransferBody>();
    expectTypeOf<Output<typeof transactions.refundBody>>().toEqualTypeOf<RefundBody>();
    expectTypeOf<
      Output<typeof transactions.consentPaymentBody>
    >().toEqualTypeOf<ConsentPaymentBody>();
    expectTypeOf<Output<typeof collection.requestToPayBody>>().toEqualTypeOf<RequestToPayBody>();
    expectTypeOf<Output<typeof collection.voucherRedeemBody>>().toEqualTypeOf<VoucherRedeemBody>();
    expectTypeOf<Output<typeof remittance.cashTransferBody>>().toEqualTypeOf<CashTransferBody>();
    expectTypeOf<
      Output<typeof standard.standardDisbursementBody>
    >().toEqualTypeOf<StandardDisbursementBody>();
    expectTypeOf<Output<typeof consent.authorizeInput>>().toEqualTypeOf<AuthorizeInput>();
  });
});
