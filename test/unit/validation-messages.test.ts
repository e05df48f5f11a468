import { isValidationError, parseCallback, type ValidationError } from 'momo-partner-sdk';
import { describe, expect, it } from 'vitest';
import { makeClient, payee, transferBody, useFakeService } from '../support/fake-service';

const service = useFakeService();

async function issue(promise: Promise<unknown>): Promise<string> {
  const error = await promise.catch((e: unknown) => e);
  if (!isValidationError(error)) throw new Error(`expected a ValidationError, got ${error}`);
  expect(service.seen).toHaveLength(0);
  const [first] = (error as ValidationError).issues;
  return `${first?.path || '(input)'} ${first?.message}`;
}

const deposit = (body: unknown) => makeClient().disbursement.deposit(body as never);

describe('validation messages describe the actual problem', () => {
  it.each([
    [
      'a number where a decimal string is required',
      { ...transferBody, amount: 10.5 },
      'amount must be a decimal string like "10.50", got a number',
    ],
    ['a missing amount', { ...transferBody, amount: undefined }, 'amount is required'],
    [
      'a malformed amount',
      { ...transferBody, amount: '10,50' },
      'amount must be a positive decimal string such as "100" or "12.50"',
    ],
    ['a zero amount', { ...transferBody, amount: '0.00' }, 'amount must be greater than zero'],
    [
      'a number as currency',
      { ...transferBody, currency: 978 },
      'currency must be a currency code like "EUR", got a number',
    ],
    [
      'a number as a note',
      { ...transferBody, payerMessage: 5 },
      'payerMessage must be a string, got a number',
    ],
    [
      'a party that is a string',
      { ...transferBody, payee: '46733123999' },
      'payee must be an object, got a string',
    ],
    [
      'an unknown party type',
      { ...transferBody, payee: { ...payee, partyIdType: 'IBAN' } },
      'payee.partyIdType must be one of "MSISDN", "EMAIL", "PARTY_CODE"',
    ],
    [
      'a party id of the wrong kind',
      { ...transferBody, payee: { ...payee, partyId: 'abc' } },
      'payee.partyId must be an MSISDN: digits only, country code first, no leading + or spaces (e.g. 46733123999)',
    ],
    ['null instead of a body', null, '(input) must be an object, got null'],
    ['a misspelt field', { ...transferBody, payeNote: 'x' }, 'payeNote is not a known field'],
  ])('%s', async (_, body, expected) => {
    expect(await issue(deposit(body))).toBe(expected);
  });

  it('a fractional number of seconds says "whole number", not "required"', async () => {
    const authorize = makeClient().consent.authorize({
      msisdn: '46733123999',
      scope: 'profile',
      accessType: 'online',
      consentValidIn: 1.5,
    });
    expect(await issue(authorize)).toBe('consentValidIn must be a whole number of seconds');
  });

  it.each([
    [0, 'validityTime must be 1 or more'],
    [2 ** 53, 'validityTime must be a whole number of seconds'],
    ['60', 'validityTime must be a number, got a string'],
  ])('a pre-approval validity of %s says what is wrong', async (validityTime, message) => {
    const preApproval = makeClient().collection.preApproval({
      payer: payee,
      payerCurrency: 'EUR',
      validityTime: validityTime as number,
    });
    expect(await issue(preApproval)).toBe(message);
  });

  it('an unknown path-parameter kind lists the accepted ones', async () => {
    const lookup = makeClient().collection.getAccountStatus('iban' as never, 'SE123');
    expect(await issue(lookup)).toBe(
      'identifierType must be one of "accountid", "msisdn", "identityalias", "emailaddress"',
    );
  });

  it('values are never echoed, only their kind', async () => {
    const secretLooking = 'sk_live_0123456789';
    const message = await issue(deposit({ ...transferBody, amount: { key: secretLooking } }));
    expect(message).toBe('amount must be a decimal string like "10.50", got an object');
    expect(() => parseCallback({ status: 42 })).toThrow('status must be a string, got a number');
  });
});
