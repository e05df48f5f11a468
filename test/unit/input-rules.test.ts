import { isValidationError, normalizeMsisdn, type ValidationError } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { refused, type Sim } from '../support/refused';

/*
 * One MSISDN rule for every number the SDK sends, amounts against their currency's minor
 * unit, and the opt-in normalizeMsisdn helper: each through a client wired to the
 * simulator, and the simulator's own answer to the same input sent raw.
 */

/** Whether `call` got past validation (the simulator may still refuse it). */
async function accepted(call: () => Promise<unknown>): Promise<void> {
  await call().catch((e: unknown) => {
    if (isValidationError(e)) throw e;
  });
}

const WITH_PLUS = '+46733123999';
const consentAuthorize = { scope: 'profile', accessType: 'offline' } as const;
const transfer = (extra: Record<string, unknown>) => ({
  amount: '100',
  currency: 'EUR',
  payee: { partyIdType: 'MSISDN' as const, partyId: '46733123999' },
  ...extra,
});

describe('one MSISDN rule: digits only, country code first, no leading +', () => {
  const calls: [string, string, (sim: Sim) => Promise<unknown>][] = [
    [
      'transfer payee',
      'payee.partyId',
      (sim) =>
        sim
          .client()
          .disbursement.transfer(
            transfer({ payee: { partyIdType: 'MSISDN', partyId: WITH_PLUS } }),
          ),
    ],
    [
      'isAccountHolderActive',
      'accountHolderId',
      (sim) => sim.client().collection.isAccountHolderActive('msisdn', WITH_PLUS),
    ],
    [
      'getBasicUserInfo(msisdn)',
      'msisdn',
      (sim) => sim.client().remittance.getBasicUserInfo(WITH_PLUS),
    ],
    [
      "getBasicUserInfo('MSISDN', id)",
      'accountHolderId',
      (sim) => sim.client().disbursement.getBasicUserInfo('MSISDN', WITH_PLUS),
    ],
    [
      "getApprovedPreApprovals('msisdn', id)",
      'accountHolderId',
      (sim) => sim.client().collection.getApprovedPreApprovals('msisdn', WITH_PLUS),
    ],
    [
      'getAccountStatus',
      'identifier',
      (sim) => sim.client().collection.getAccountStatus('msisdn', WITH_PLUS),
    ],
    [
      'consent.authorize',
      'msisdn',
      (sim) => sim.client().consent.authorize({ msisdn: WITH_PLUS, ...consentAuthorize }),
    ],
    [
      'standard-style msisdn debit party',
      'debitParty.0.value',
      (sim) =>
        sim.client().collection.standardDisbursement({
          debitParty: [{ key: 'msisdn', value: WITH_PLUS }],
          amount: '10',
          currency: 'EUR',
        }),
    ],
  ];

  it.each(calls)('%s refuses a leading +, naming the field', async (_, field, call) => {
    const sim = createSimulator();
    const error = await refused(sim, () => call(sim));
    expect(error.field).toBe(field);
    expect(error.message).toContain('no leading +');
  });

  it('the same number without + is sent and answered', async () => {
    const sim = createSimulator();
    const client = sim.client();
    await expect(client.collection.isAccountHolderActive('msisdn', '46733123999')).resolves.toBe(
      true,
    );
    await expect(
      client.disbursement.getBasicUserInfo('MSISDN', '46733123999'),
    ).resolves.toMatchObject({ given_name: expect.any(String) });
    await expect(
      client.collection.getApprovedPreApprovals('msisdn', '46733123999'),
    ).resolves.toEqual([]);
  });

  it('the simulator refuses the + form too (400), on a path and in a body', async () => {
    const sim = createSimulator();
    const token = await sim.client().collection.getAccessToken();
    const headers = {
      Authorization: `Bearer ${token.accessToken}`,
      'Ocp-Apim-Subscription-Key': sim.credentials.subscriptionKey,
      'X-Target-Environment': sim.credentials.targetEnvironment,
    };
    const base = sim.credentials.baseUrl;
    const active = await sim.fetch(
      `${base}/collection/v1_0/accountholder/msisdn/${encodeURIComponent(WITH_PLUS)}/active`,
      { headers },
    );
    expect(active.status).toBe(400);
    const pay = await sim.fetch(`${base}/collection/v1_0/requesttopay`, {
      method: 'POST',
      headers: { ...headers, 'X-Reference-Id': crypto.randomUUID() },
      body: JSON.stringify({
        amount: '1',
        currency: 'EUR',
        payer: { partyIdType: 'MSISDN', partyId: WITH_PLUS },
      }),
    });
    expect(pay.status).toBe(400);
  });
});

describe('amounts have no more decimals than their currency has (ISO 4217 minor units)', () => {
  it.each([
    ['UGX', '50000.5', 'UGX'],
    ['UGX', '50000.555', 'UGX'],
    ['EUR', '10.505', '2 decimals'],
    ['KWD', '1.2345', '3 decimals'],
    ['XYZ (unknown: 2 decimals)', '1.234', '2 decimals'],
  ])('%s refuses %s', async (code, amount, words) => {
    const sim = createSimulator();
    const currency = code.slice(0, 3);
    const error = await refused(sim, () =>
      sim.client().disbursement.transfer(transfer({ amount, currency })),
    );
    expect(error.field).toBe('amount');
    expect(error.message).toContain(words);
  });

  it.each([
    ['UGX', '50000'],
    ['EUR', '10.50'],
    ['KWD', '1.234'],
    ['XYZ', '1.23'],
  ])('%s takes %s', async (currency, amount) => {
    const sim = createSimulator({ currency: currency === 'XYZ' ? 'EUR' : currency });
    await accepted(() => sim.client().disbursement.transfer(transfer({ amount, currency })));
  });

  it('checks every amount of a body against its own currency', async () => {
    const sim = createSimulator();
    const cash = await refused(sim, () =>
      sim.client().remittance.cashTransfer({
        amount: '10',
        currency: 'EUR',
        orginatingCountry: 'UG',
        originalAmount: '37000.50',
        originalCurrency: 'UGX',
        payerIdentificationType: 'PASS',
        payerIdentificationNumber: 'A1',
      }),
    );
    expect(cash.field).toBe('originalAmount');
    const payment = await refused(sim, () =>
      sim.client().collection.createPayment({ money: { amount: '5.5', currency: 'RWF' } }),
    );
    expect(payment.field).toBe('money.amount');
  });

  it('the simulator refuses the same amounts (400)', async () => {
    const sim = createSimulator({ currency: 'UGX' });
    const post = async (product: 'disbursement' | 'remittance', path: string, body: unknown) => {
      const token = await sim.client()[product].getAccessToken();
      return sim.fetch(`${sim.credentials.baseUrl}/${product}/${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token.accessToken}`,
          'Ocp-Apim-Subscription-Key': sim.credentials.subscriptionKey,
          'X-Target-Environment': sim.credentials.targetEnvironment,
          'X-Reference-Id': crypto.randomUUID(),
        },
        body: JSON.stringify(body),
      });
    };
    const transferred = await post(
      'disbursement',
      'v1_0/transfer',
      transfer({ amount: '50000.5', currency: 'UGX' }),
    );
    expect(transferred.status).toBe(400);
    expect(await transferred.text()).toContain('amount must be a whole number for UGX');
    const cash = await post('remittance', 'v2_0/cashtransfer', {
      amount: '50000',
      currency: 'UGX',
      orginatingCountry: 'SE',
      originalAmount: '12.505',
      originalCurrency: 'EUR',
      payerIdentificationType: 'PASS',
      payerIdentificationNumber: 'A1',
    });
    expect(cash.status).toBe(400);
    expect(await cash.text()).toContain('originalAmount must have at most 2 decimals for EUR');
  });
});

describe('normalizeMsisdn: the local forms of a spreadsheet, in the canonical form', () => {
  it.each([
    ['0772 123 456', '256772123456'],
    ['+256 772 123456', '256772123456'],
    ['+256 (772) 123-456', '256772123456'],
    ['00256772123456', '256772123456'],
    ['772123456', '256772123456'],
    ['256772123456', '256772123456'],
    ['0772.123.456', '256772123456'],
    ['+46 73 312 39 99', '46733123999'],
  ])('%s → %s', (input, output) => {
    expect(normalizeMsisdn(input, { countryCode: '256' })).toBe(output);
  });

  it('what it gives is what the SDK sends', async () => {
    const sim = createSimulator();
    const msisdn = normalizeMsisdn('0733-123 999', { countryCode: '46' });
    await expect(sim.client().collection.isAccountHolderActive('msisdn', msisdn)).resolves.toBe(
      true,
    );
  });

  it.each([
    ['letters', '0772 12E 456', 'msisdn'],
    ['two pluses', '++256772123456', 'msisdn'],
    ['too short', '01', 'msisdn'],
    ['too long', '0772 123 456 789 012 345', 'msisdn'],
    ['a huge input', '0'.repeat(40_000), 'msisdn'],
  ])('refuses %s with a ValidationError naming the input', (_, input, field) => {
    let error: unknown;
    try {
      normalizeMsisdn(input, { countryCode: '256' });
    } catch (e) {
      error = e;
    }
    expect(isValidationError(error)).toBe(true);
    expect((error as ValidationError).field).toBe(field);
    expect((error as ValidationError).message).not.toContain(input);
  });

  it('names the field it is given, and refuses a bad country code', () => {
    expect(() => normalizeMsisdn('x', { countryCode: '256', field: 'rows.3.phone' })).toThrow(
      /rows\.3\.phone/,
    );
    expect(() => normalizeMsisdn('0772123456', { countryCode: '+256' })).toThrow(
      /options\.countryCode/,
    );
  });
});
