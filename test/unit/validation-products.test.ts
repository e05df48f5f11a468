import { isValidationError, type ValidationError } from 'momo-partner-sdk';
import { describe, expect, it } from 'vitest';
import { makeClient, useFakeService } from '../support/fake-service';

// Collection, Remittance and consent inputs: every bad one is refused before sending.
const service = useFakeService();

async function field(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => {
      throw new Error('expected a ValidationError');
    },
    (e: unknown) => e,
  );
  expect(isValidationError(error)).toBe(true);
  return (error as ValidationError).field;
}

const payer = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
const pay = { amount: '10', currency: 'EUR', payer };
const cash = {
  amount: '50',
  orginatingCountry: 'SE',
  originalAmount: '560',
  originalCurrency: 'SEK',
  payerIdentificationType: 'PASS',
  payerIdentificationNumber: 'P1',
} as const;

describe('bad input to the other products is rejected with nothing sent', () => {
  const momo = makeClient();
  const cases: Array<[string, () => Promise<unknown>, string]> = [
    [
      'requestToPay without payer',
      () => momo.collection.requestToPay({ ...pay, payer: undefined } as never),
      'payer',
    ],
    [
      'requestToWithdraw with a bad amount',
      () => momo.collection.requestToWithdraw({ ...pay, amount: '1,5' }),
      'amount',
    ],
    ['getRequestToPay with a bad id', () => momo.collection.getRequestToPay('123'), 'referenceId'],
    [
      'redeemVoucher without a receiver id',
      () => momo.collection.redeemVoucher('V1', { receiver: { firstName: 'A' } }),
      'receiver',
    ],
    [
      'redeemVoucher with a non-numeric identification',
      () =>
        momo.collection.redeemVoucher('V1', {
          receiver: { msisdn: '46733123999', identification: 'AB12' },
        }),
      'receiver.identification',
    ],
    [
      'redeemVoucher with an unknown identification type',
      () =>
        momo.collection.redeemVoucher('V1', {
          receiver: { msisdn: '46733123999', identificationType: 'VISA' as 'PASS' },
        }),
      'receiver.identificationType',
    ],
    [
      'redeemVoucher with a path-escaping token',
      () => momo.collection.redeemVoucher('..', { receiver: { msisdn: '46733123999' } }),
      'voucherToken',
    ],
    ['getVoucherOtp with an empty token', () => momo.collection.getVoucherOtp(''), 'voucherToken'],
    ['getBalance with a bad currency', () => momo.collection.getBalance('euro'), 'currency'],
    [
      'getAccountStatus with an unknown identifier kind',
      () => momo.collection.getAccountStatus('walletid' as 'msisdn', '1'),
      'identifierType',
    ],
    [
      'getAccountStatus with a bad MSISDN',
      () => momo.collection.getAccountStatus('msisdn', 'abc'),
      'identifier',
    ],
    [
      'getAccountStatus with a non-UUID account id',
      () => momo.collection.getAccountStatus('accountid', '42'),
      'identifier',
    ],
    [
      'getAccountStatus with a 257-character alias',
      () => momo.collection.getAccountStatus('identityalias', 'a'.repeat(257)),
      'identifier',
    ],
    [
      'cashTransfer without orginatingCountry',
      () => momo.remittance.cashTransfer({ ...cash, orginatingCountry: undefined } as never),
      'orginatingCountry',
    ],
    [
      'cashTransfer with an unknown identification type',
      () => momo.remittance.cashTransfer({ ...cash, payerIdentificationType: 'CARD' as 'PASS' }),
      'payerIdentificationType',
    ],
    [
      'cashTransfer with a lower-case original currency',
      () => momo.remittance.cashTransfer({ ...cash, originalCurrency: 'sek' }),
      'originalCurrency',
    ],
    [
      'cashTransfer with a bad payer e-mail',
      () => momo.remittance.cashTransfer({ ...cash, payerEmail: 'nope' }),
      'payerEmail',
    ],
    [
      'getUserInfo without consent',
      () => momo.remittance.getUserInfo({} as never),
      'options.consent',
    ],
    [
      'consent.authorize with a bad MSISDN',
      () => momo.consent.authorize({ msisdn: 'x', scope: 'profile', accessType: 'online' }),
      'msisdn',
    ],
    [
      'consent.authorize with a bad callback URL',
      () =>
        momo.consent.authorize({
          msisdn: '46733123999',
          scope: 'profile',
          accessType: 'online',
          callbackUrl: 'ftp://x',
        }),
      'callbackUrl',
    ],
    ['consent.getToken with an empty id', () => momo.consent.getToken(''), 'auth_req_id'],
  ];

  it.each(cases)('%s', async (_, call, expected) => {
    expect(await field(call())).toBe(expected);
    expect(service.seen).toHaveLength(0);
  });
});
