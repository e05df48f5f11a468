import { isValidationError, MomoClient, ValidationError } from 'momo-partner-sdk';
import { describe, expect, it } from 'vitest';
import {
  BASE,
  makeClient,
  payee,
  tokenHandler,
  transferBody,
  useFakeService,
} from '../support/fake-service';

const service = useFakeService();

async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a ValidationError');
    },
    (e: unknown) => e,
  );
  expect(isValidationError(error)).toBe(true);
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

const refund = {
  amount: '10',
  currency: 'EUR',
  externalId: 'r1',
  referenceIdToRefund: '0b7c4b36-5f4d-4a53-8f6e-6f1f5b2ad001',
};

const badTransfers: Array<[string, Record<string, unknown>, string]> = [
  ['missing amount', { ...transferBody, amount: undefined }, 'amount'],
  ['numeric amount', { ...transferBody, amount: 100 }, 'amount'],
  ['zero amount', { ...transferBody, amount: '0' }, 'amount'],
  ['negative amount', { ...transferBody, amount: '-5' }, 'amount'],
  ['amount with letters', { ...transferBody, amount: '12abc' }, 'amount'],
  ['lower-case currency', { ...transferBody, currency: 'eur' }, 'currency'],
  ['four-letter currency', { ...transferBody, currency: 'EURO' }, 'currency'],
  ['missing payee', { ...transferBody, payee: undefined }, 'payee'],
  [
    'unknown party type',
    { ...transferBody, payee: { partyIdType: 'IBAN', partyId: 'x' } },
    'payee.partyIdType',
  ],
  [
    'bad MSISDN',
    { ...transferBody, payee: { partyIdType: 'MSISDN', partyId: '07-12 345' } },
    'payee.partyId',
  ],
  [
    'bad e-mail',
    { ...transferBody, payee: { partyIdType: 'EMAIL', partyId: 'not-an-email' } },
    'payee.partyId',
  ],
  [
    'bad party code',
    { ...transferBody, payee: { partyIdType: 'PARTY_CODE', partyId: '1234' } },
    'payee.partyId',
  ],
  ['forbidden note character', { ...transferBody, payerMessage: 'Fish & chips' }, 'payerMessage'],
  ['apostrophe in a note', { ...transferBody, payeeNote: "Don't" }, 'payeeNote'],
  ['note over 160 characters', { ...transferBody, payeeNote: 'x'.repeat(161) }, 'payeeNote'],
  ['markup in externalId', { ...transferBody, externalId: '<b>' }, 'externalId'],
  ['unknown field', { ...transferBody, payeeNotes: 'typo' }, 'payeeNotes'],
];

describe('bad input is rejected before anything is sent', () => {
  it.each(badTransfers)('deposit: %s', async (_, body, field) => {
    service.server.use(tokenHandler());
    const error = await rejection(makeClient().disbursement.deposit(body as never));
    expect(error.field).toBe(field);
    expect(error.message).toContain('Nothing was sent');
    expect(error.operation).toBe('disbursement.deposit');
    expect(service.seen).toHaveLength(0);
  });

  it.each([
    [
      'referenceIdToRefund not a UUID',
      { ...refund, referenceIdToRefund: 'abc' },
      'referenceIdToRefund',
    ],
    [
      'missing referenceIdToRefund',
      { ...refund, referenceIdToRefund: undefined },
      'referenceIdToRefund',
    ],
  ])('refund: %s', async (_, body, field) => {
    const error = await rejection(makeClient().disbursement.refund(body as never));
    expect(error.field).toBe(field);
    expect(service.seen).toHaveLength(0);
  });

  it('rejects a reference id that is not UUID v4', async () => {
    const error = await rejection(
      makeClient().disbursement.transfer(transferBody, {
        referenceId: '6ba7b810-9dad-11d1-80b4-00c04fd430c8', // v1
      }),
    );
    expect(error.field).toBe('options.referenceId');
    expect(service.seen).toHaveLength(0);
  });

  it('rejects a callback URL that is not absolute http(s)', async () => {
    const error = await rejection(
      makeClient().disbursement.deposit(transferBody, { callbackUrl: 'ftp://x/y' }),
    );
    expect(error.field).toBe('options.callbackUrl');
  });

  it('rejects consent calls without a consent token', async () => {
    const error = await rejection(
      makeClient().disbursement.transferWithConsent({ amount: '5' }, {} as never),
    );
    expect(error.field).toBe('options.consent');
    expect(service.seen).toHaveLength(0);
  });

  it('rejects bad lookup ids and path escapes', async () => {
    const momo = makeClient();
    expect((await rejection(momo.disbursement.getDeposit('../../token'))).field).toBe(
      'referenceId',
    );
    expect((await rejection(momo.disbursement.waitForDeposit('nope'))).field).toBe('referenceId');
    expect((await rejection(momo.disbursement.getBasicUserInfo('..'))).field).toBe('msisdn');
    expect((await rejection(momo.disbursement.getBasicUserInfo('4673/../x'))).field).toBe('msisdn');
    expect(service.seen).toHaveLength(0);
  });

  it('reports every problem at once', async () => {
    const error = await rejection(
      makeClient().disbursement.deposit({
        ...transferBody,
        amount: '0',
        currency: 'x',
        payee: { ...payee, partyId: 'a' },
      }),
    );
    expect(error.issues.map((i) => i.path)).toEqual(['amount', 'currency', 'payee.partyId']);
  });

  it('checks client options', () => {
    const make = (options: object) => () =>
      new MomoClient({ baseUrl: BASE, targetEnvironment: 'sandbox', ...options });
    expect(make({ baseUrl: 'http://momo.example.com' })).toThrow(/baseUrl must use https/);
    expect(make({ baseUrl: 'http://127.0.0.1:4010' })).not.toThrow();
    expect(make({ baseUrl: 'https://user:pw@momo.example.com' })).toThrow(
      /baseUrl must not carry credentials/,
    );
    expect(make({ baseUrl: 'https://momo.example.com/?tenant=a' })).toThrow(
      /baseUrl must not have a query or a fragment/,
    );
    expect(make({ targetEnvironment: '' })).toThrow(/targetEnvironment/);
    expect(make({ timeoutMs: -1 })).toThrow(/timeoutMs/);
  });

  it('names missing credentials when a product is used', async () => {
    const momo = new MomoClient({ baseUrl: BASE, targetEnvironment: 'sandbox' });
    const error = await rejection(momo.disbursement.getBalance());
    expect(error.issues.map((i) => i.path)).toEqual([
      'disbursement.subscriptionKey',
      'disbursement.apiUser.id',
      'disbursement.apiUser.key',
    ]);
    expect(service.seen).toHaveLength(0);
  });
});
