import {
  type Accepted,
  type AccessToken,
  type AccountStatus,
  type ApiError,
  type Balance,
  type CallbackEvent,
  type CallbackHandler,
  type CashTransferResult,
  Collection,
  type ConsentRequest,
  ConsentToken,
  type DeliveryNotificationResult,
  type Final,
  type Heartbeat,
  isApiError,
  isRateLimitError,
  MomoClient,
  type NodeListener,
  type NormalizeMsisdnOptions,
  normalizeMsisdn,
  type OperationPromise,
  parseCallback,
  Remittance,
  type StandardDisbursementAccepted,
  type Submitted,
  type TransactionResult,
  type TransferBody,
  toNodeListener,
  type UserInfo,
} from 'momo-partner-sdk';
import { describe, expectTypeOf, it } from 'vitest';

const momo = new MomoClient({ baseUrl: 'https://x.test', targetEnvironment: 'sandbox' });
const body: TransferBody = {
  amount: '1',
  currency: 'EUR',
  payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
};

describe('public surface', () => {
  it('creating calls return an OperationPromise whose wait() gives a Final result', () => {
    const op = momo.disbursement.deposit(body);
    expectTypeOf(op).toEqualTypeOf<OperationPromise<TransactionResult>>();
    expectTypeOf(op).resolves.toEqualTypeOf<Accepted<TransactionResult>>();
    expectTypeOf<Accepted<TransactionResult>['landedEarlier']>().toEqualTypeOf<boolean>();
    expectTypeOf<StandardDisbursementAccepted['landedEarlier']>().toEqualTypeOf<boolean>();
    expectTypeOf(op.wait()).resolves.toEqualTypeOf<Final<TransactionResult>>();
  });

  it('a FAILED final result always has a reason', async () => {
    const result = await momo.disbursement.deposit(body).wait();
    if (result.status === 'FAILED') expectTypeOf(result.reason.code).toEqualTypeOf<string>();
  });

  it('bodies are checked at compile time too', () => {
    // @ts-expect-error amount is a string
    momo.disbursement.transfer({ ...body, amount: 1 });
    // @ts-expect-error partyIdType is one of three
    momo.disbursement.transfer({ ...body, payee: { partyIdType: 'IBAN', partyId: 'x' } });
    // @ts-expect-error consent calls need { consent }
    momo.disbursement.transferWithConsent({ amount: '1' });
    momo.disbursement.transferWithConsent({ amount: '1' }, { consent: 'token' });
    momo.disbursement.merchantPaymentWithConsent(
      { amount: '1' },
      { consent: new ConsentToken({ accessToken: 't' }) },
    );
  });

  it('queries and tokens are typed', () => {
    expectTypeOf(momo.disbursement.getBalance()).resolves.toEqualTypeOf<Balance>();
    expectTypeOf(momo.disbursement.getAccessToken()).resolves.toEqualTypeOf<AccessToken>();
    expectTypeOf(momo.disbursement.waitForDeposit).parameter(0).toEqualTypeOf<string>();
  });

  it('guards narrow unknown errors', () => {
    const error: unknown = new Error();
    if (isApiError(error)) expectTypeOf(error).toEqualTypeOf<ApiError>();
    if (isRateLimitError(error))
      expectTypeOf(error.retryAfterMs).toEqualTypeOf<number | undefined>();
  });

  it('collection reads like its table in DESIGN', () => {
    const payer = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
    const pay = momo.collection.requestToPay({ amount: '1', currency: 'EUR', payer });
    expectTypeOf(pay).toEqualTypeOf<OperationPromise<TransactionResult>>();
    expectTypeOf(
      momo.collection.requestToWithdraw({ amount: '1', currency: 'EUR', payer }).wait(),
    ).resolves.toEqualTypeOf<Final<TransactionResult>>();
    expectTypeOf(
      momo.collection.redeemVoucher('v', { receiver: { msisdn: '46733123999' } }),
    ).resolves.toEqualTypeOf<Submitted>();
    expectTypeOf(
      momo.collection.standardDisbursement({
        debitParty: [{ key: 'msisdn', value: '46733123999' }],
        amount: '1',
        currency: 'EUR',
      }),
    ).resolves.toEqualTypeOf<StandardDisbursementAccepted>();
    expectTypeOf(
      momo.collection.sendDeliveryNotification('id', 'Thanks', { language: 'en' }),
    ).resolves.toEqualTypeOf<DeliveryNotificationResult>();
    expectTypeOf(momo.collection.getBalance('EUR')).resolves.toEqualTypeOf<Balance>();
    expectTypeOf(momo.collection.getBalance()).resolves.toEqualTypeOf<Balance>();
    expectTypeOf(
      momo.collection.getAccountStatus('msisdn', '46733123999'),
    ).resolves.toEqualTypeOf<AccountStatus>();
    expectTypeOf(momo.collection.heartbeat()).resolves.toEqualTypeOf<Heartbeat>();
    // @ts-expect-error identifier kinds are the four of 4.11
    momo.collection.getAccountStatus('walletid', '1');
    momo.collection.standardDisbursement({
      debitParty: [{ key: 'msisdn', value: '1' }],
      // @ts-expect-error the credit party key is accountid only
      creditParty: [{ key: 'msisdn', value: '1' }],
      amount: '1',
      currency: 'EUR',
    });
    expectTypeOf(
      new Collection({ baseUrl: 'https://x.test', targetEnvironment: 's' }),
    ).toEqualTypeOf<Collection>();
  });

  it('remittance and consent', async () => {
    const cash = momo.remittance.cashTransfer({
      amount: '1',
      orginatingCountry: 'SE',
      originalAmount: '1',
      originalCurrency: 'SEK',
      payerIdentificationType: 'PASS',
      payerIdentificationNumber: '123',
    });
    expectTypeOf(cash.wait()).resolves.toEqualTypeOf<Final<CashTransferResult>>();
    const request = await momo.consent.authorize({
      msisdn: '1',
      scope: 'profile',
      accessType: 'online',
    });
    expectTypeOf(request).toEqualTypeOf<ConsentRequest>();
    expectTypeOf(request.wait()).resolves.toEqualTypeOf<ConsentToken>();
    expectTypeOf(
      momo.remittance.getUserInfo({ consent: await request.wait() }),
    ).resolves.toEqualTypeOf<UserInfo>();
    // @ts-expect-error user info needs { consent }
    momo.remittance.getUserInfo();
    expectTypeOf(
      new Remittance({ baseUrl: 'https://x.test', targetEnvironment: 's' }),
    ).toEqualTypeOf<Remittance>();
  });

  it('callbacks', () => {
    const handler = momo.callbacks.handler({ onEvent: (event) => void event.confirmed });
    expectTypeOf(handler).toEqualTypeOf<CallbackHandler>();
    expectTypeOf(toNodeListener(handler)).toEqualTypeOf<NodeListener>();
    expectTypeOf(parseCallback({})).toEqualTypeOf<CallbackEvent>();
  });

  it('normalizeMsisdn', () => {
    expectTypeOf(normalizeMsisdn('0772 123456', { countryCode: '256' })).toEqualTypeOf<string>();
    expectTypeOf<NormalizeMsisdnOptions>().toEqualTypeOf<{
      countryCode: string;
      field?: string | undefined;
    }>();
    // @ts-expect-error the country calling code is required
    normalizeMsisdn('0772 123456', {});
  });
});
