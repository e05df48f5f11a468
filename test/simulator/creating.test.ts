import { describe, expect, it } from 'vitest';
import { deposit, rawClient, simulator, uuidv1, uuidv4, uuidv7 } from './helpers';

describe('simulator: creating calls', () => {
  it('accepts a valid deposit with 202 and an empty body, and stores it PENDING', async () => {
    const sim = simulator();
    const { referenceId, response } = await rawClient(sim).create(
      '/disbursement/v1_0/deposit',
      deposit(),
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
    expect(sim.transactions).toEqual([
      expect.objectContaining({
        referenceId,
        operation: 'disbursement.deposit',
        status: 'PENDING',
        body: deposit(),
      }),
    ]);
    expect(sim.transaction(referenceId)?.financialTransactionId).toMatch(/^\d+$/);
  });

  it.each([
    ['missing', undefined],
    ['not a UUID', 'order-42'],
    ['a UUID v1', uuidv1()],
    ['a UUID v7', uuidv7()],
  ])('rejects an X-Reference-Id that is %s with 400 and stores nothing', async (_, id) => {
    const sim = simulator();
    const http = rawClient(sim);
    const token = await http.token();
    const response = await http.send('POST', '/disbursement/v1_0/transfer', {
      headers: {
        Authorization: `Bearer ${token}`,
        ...(id === undefined ? {} : { 'X-Reference-Id': id }),
      },
      body: deposit(),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
    expect(sim.transactions).toHaveLength(0);
  });

  it('answers 409 RESOURCE_ALREADY_EXIST to a reused reference id, across operations', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const referenceId = uuidv4();
    const first = await http.create('/disbursement/v1_0/deposit', deposit(), { referenceId });
    expect(first.response.status).toBe(202);
    for (const path of ['/disbursement/v1_0/deposit', '/disbursement/v1_0/transfer']) {
      const again = await http.create(path, deposit('46700000002'), {
        referenceId: referenceId.toUpperCase(),
      });
      expect(again.response.status).toBe(409);
      expect(await again.response.json()).toEqual({
        code: 'RESOURCE_ALREADY_EXIST',
        message: 'Duplicated reference id. Creation of resource failed.',
      });
    }
    expect(sim.transactions).toHaveLength(1);
  });

  const badBodies: [string, unknown][] = [
    ['no body', undefined],
    ['not JSON', '{"amount":'],
    ['an array', [deposit()]],
    ['no amount', { ...deposit(), amount: undefined }],
    ['a numeric amount', { ...deposit(), amount: 100 }],
    ['a zero amount', { ...deposit(), amount: '0' }],
    ['a negative amount', { ...deposit(), amount: '-5' }],
    ['an exponent amount', { ...deposit(), amount: '1e3' }],
    ['a lower-case currency', { ...deposit(), currency: 'eur' }],
    ['no currency', { ...deposit(), currency: undefined }],
    ['no payee', { ...deposit(), payee: undefined }],
    [
      'an unknown partyIdType',
      deposit('46700000001', { payee: { partyIdType: 'ALIAS', partyId: 'x' } }),
    ],
    ['a bad MSISDN', deposit('0123')],
    ['a bad e-mail', deposit('x', { payee: { partyIdType: 'EMAIL', partyId: 'not-mail' } })],
    ['a bad party code', deposit('x', { payee: { partyIdType: 'PARTY_CODE', partyId: 'abc' } })],
    ['an apostrophe in payerMessage', deposit('46700000001', { payerMessage: "Don't" })],
    ['a payeeNote over 160 characters', deposit('46700000001', { payeeNote: 'x'.repeat(161) })],
  ];

  it.each(badBodies)('rejects a deposit with %s: 400, nothing stored', async (_, body) => {
    const sim = simulator();
    const { response } = await rawClient(sim).create('/disbursement/v1_0/deposit', body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
    expect(sim.transactions).toHaveLength(0);
  });

  it('accepts e-mail and party-code payees', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const email = deposit('x', { payee: { partyIdType: 'EMAIL', partyId: 'a@b.example' } });
    const code = deposit('x', { payee: { partyIdType: 'PARTY_CODE', partyId: uuidv4() } });
    expect((await http.create('/disbursement/v1_0/transfer', email)).response.status).toBe(202);
    expect((await http.create('/disbursement/v1_0/transfer', code)).response.status).toBe(202);
  });

  it('rejects a refund without a UUID referenceIdToRefund', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    for (const referenceIdToRefund of [undefined, 'abc', 42]) {
      const { response } = await http.create('/disbursement/v1_0/refund', {
        amount: '1',
        currency: 'EUR',
        referenceIdToRefund,
      });
      expect(response.status).toBe(400);
    }
    expect(sim.transactions).toHaveLength(0);
  });

  it('answers 500 INVALID_CURRENCY to a well-formed currency the account does not hold', async () => {
    const sim = simulator();
    const { response } = await rawClient(sim).create(
      '/disbursement/v1_0/deposit',
      deposit('46700000001', { currency: 'UGX' }),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      code: 'INVALID_CURRENCY',
      message: 'Currency not supported.',
    });
    expect(sim.transactions).toHaveLength(0);
  });

  it('rejects an X-Callback-Url that is not an http(s) URL', async () => {
    const sim = simulator();
    const { response } = await rawClient(sim).create('/disbursement/v1_0/deposit', deposit(), {
      callbackUrl: 'ftp://example.test/cb',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'INVALID_CALLBACK_URL_HOST' });
    expect(sim.transactions).toHaveLength(0);
  });

  it('records every request in order, with lower-case header names and parsed bodies', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const { referenceId } = await http.create('/disbursement/v1_0/deposit', deposit());
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /disbursement/token/',
      'POST /disbursement/v1_0/deposit',
    ]);
    const last = sim.requests[1];
    expect(last?.headers['x-reference-id']).toBe(referenceId);
    expect(last?.body).toEqual(deposit());
    expect(sim.requests[0]?.body).toBeUndefined();
  });
});
