import {
  type Accepted,
  type AccessToken,
  type ApiError,
  type Balance,
  ConsentToken,
  type Final,
  isApiError,
  isRateLimitError,
  MomoClient,
  type OperationPromise,
  type TransactionResult,
  type TransferBody,
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
});
