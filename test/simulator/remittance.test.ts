import { describe, expect, it } from 'vitest';
import { capture, deposit, party, rawClient, type Sim, simulator, uuidv4 } from './helpers';

const TRANSFER = '/remittance/v1_0/transfer';
const CASH = '/remittance/v2_0/cashtransfer';

const cash = (extra: Record<string, unknown> = {}) => ({
  amount: '50',
  currency: 'EUR',
  payee: party('46700000001'),
  externalId: 'cash-1',
  orginatingCountry: 'SE',
  originalAmount: '550.00',
  originalCurrency: 'SEK',
  payerMessage: 'From home',
  payeeNote: 'Family',
  payerIdentificationType: 'PASS',
  payerIdentificationNumber: 'P1234567',
  payerFirstName: 'Sand',
  payerSurName: 'Box',
  payerMsisdn: '46700000099',
  payerEmail: 'sand@box.example',
  payerGender: 'FEMA',
  ...extra,
});

/** A transfer without Authorization (spec 4.2: optional). */
function anonymousTransfer(sim: Sim, body: unknown, callbackUrl?: string) {
  const referenceId = uuidv4();
  const response = rawClient(sim).send('POST', TRANSFER, {
    headers: {
      'X-Reference-Id': referenceId,
      'Content-Type': 'application/json',
      ...(callbackUrl ? { 'X-Callback-Url': callbackUrl } : {}),
    },
    body,
  });
  return { referenceId, response };
}

describe('simulator: remittance transfer', () => {
  it('accepts 202 without Authorization, looks up, and debits the remittance account', async () => {
    const sim = simulator({ settleMs: 0, initialBalance: '150' });
    const { referenceId, response } = anonymousTransfer(sim, deposit());
    expect((await response).status).toBe(202);
    const tx = sim.transaction(referenceId);
    expect(tx).toMatchObject({ operation: 'remittance.transfer', status: 'SUCCESSFUL' });
    const http = rawClient(sim);
    const lookup = await http.get(`${TRANSFER}/${referenceId}`);
    expect(await lookup.json()).toEqual({
      amount: '100',
      currency: 'EUR',
      financialTransactionId: tx?.financialTransactionId,
      externalId: 'order-1',
      payee: party('46700000001'),
      payerMessage: 'Thanks',
      payeeNote: 'Cash in',
      status: 'SUCCESSFUL',
    });
    // 150 - 100 left: a second one fails for funds.
    const second = await http.create(TRANSFER, deposit());
    expect(sim.transaction(second.referenceId)?.reason?.code).toBe('NOT_ENOUGH_FUNDS');
    // The disbursement account is another account.
    const disbursement = await http.get('/disbursement/v1_0/account/balance');
    expect(await disbursement.json()).toMatchObject({ availableBalance: '150.00' });
  });

  it('checks a given Authorization: 401 for a token of another product', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const disbursement = await http.token('disbursement');
    const { response } = await http.create(TRANSFER, deposit(), { token: disbursement });
    expect(response.status).toBe(401);
    const remittance = await http.create(TRANSFER, deposit());
    expect(remittance.response.status).toBe(202);
  });

  it('sends its callback by POST, and decides by the payee', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const { referenceId, response } = anonymousTransfer(
      sim,
      deposit('46733123456'),
      'https://partner.example/r',
    );
    await response;
    expect(sim.transaction(referenceId)?.reason?.code).toBe('PAYEE_NOT_FOUND');
    expect(calls).toEqual([
      {
        url: 'https://partner.example/r',
        method: 'POST',
        body: expect.objectContaining({ status: 'FAILED', payee: party('46733123456') }),
      },
    ]);
  });

  it('rejects bad bodies with 400 and finds only remittance transfers', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const bad = await http.create(TRANSFER, { ...deposit(), payee: undefined });
    expect(bad.response.status).toBe(400);
    const dep = await http.create('/disbursement/v1_0/transfer', deposit());
    expect((await http.get(`${TRANSFER}/${dep.referenceId}`)).status).toBe(404);
    expect((await http.get(`${TRANSFER}/x`)).status).toBe(400);
  });
});

describe('simulator: cash transfer', () => {
  it('accepts 202 and looks up the result with the cash-transfer fields', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const { referenceId, response } = await http.create(CASH, cash());
    expect(response.status).toBe(202);
    const tx = sim.transaction(referenceId);
    expect(tx?.operation).toBe('remittance.cashTransfer');
    const lookup = await http.get(`${CASH}/${referenceId}`);
    expect(lookup.status).toBe(200);
    expect(await lookup.json()).toEqual({
      amount: '50',
      currency: 'EUR',
      financialTransactionId: tx?.financialTransactionId,
      externalId: 'cash-1',
      payee: party('46700000001'),
      payerMessage: 'From home',
      payeeNote: 'Family',
      originalAmount: '550.00',
      originalCurrency: 'SEK',
      orginatingCountry: 'SE',
      payerIdentificationType: 'PASS',
      payerIdentificationNumber: 'P1234567',
      payerFirstName: 'Sand',
      payerSurName: 'Box',
      payerEmail: 'sand@box.example',
      payerMsisdn: '46700000099',
      payerGender: 'FEMA',
      status: 'SUCCESSFUL',
    });
    const other = await http.get(`${TRANSFER}/${referenceId}`);
    expect(other.status).toBe(404);
  });

  it('accepts the minimal body (currency and payee optional)', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const minimal = {
      amount: '5',
      orginatingCountry: 'SE',
      originalAmount: '55',
      originalCurrency: 'SEK',
      payerIdentificationType: 'NRIN',
      payerIdentificationNumber: '1990',
    };
    const { referenceId, response } = await http.create(CASH, minimal);
    expect(response.status).toBe(202);
    expect(await (await http.get(`${CASH}/${referenceId}`)).json()).toMatchObject({
      amount: '5',
      currency: 'EUR',
      status: 'SUCCESSFUL',
    });
  });

  it('calls back by POST with the lookup body; the payee decides the outcome', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const http = rawClient(sim);
    const { referenceId } = await http.create(CASH, cash({ payee: party('46733123451') }), {
      callbackUrl: 'https://partner.example/cash',
    });
    const lookup = await (await http.get(`${CASH}/${referenceId}`)).json();
    expect(lookup).toMatchObject({ status: 'FAILED', reason: { code: 'APPROVAL_REJECTED' } });
    expect(calls).toEqual([{ url: 'https://partner.example/cash', method: 'POST', body: lookup }]);
  });

  it.each([
    ['no orginatingCountry', { orginatingCountry: undefined }],
    [
      'the spelling originatingCountry only',
      { orginatingCountry: undefined, originatingCountry: 'SE' },
    ],
    ['no originalAmount', { originalAmount: undefined }],
    ['a bad originalAmount', { originalAmount: 'ten' }],
    ['a bad originalCurrency', { originalCurrency: 'sek' }],
    ['no payerIdentificationType', { payerIdentificationType: undefined }],
    ['an unknown payerIdentificationType', { payerIdentificationType: 'VISA' }],
    ['no payerIdentificationNumber', { payerIdentificationNumber: undefined }],
    ['a bad payerMsisdn', { payerMsisdn: 'abc' }],
    ['a bad payerEmail', { payerEmail: 'abc' }],
    ['a numeric payerFirstName', { payerFirstName: 7 }],
    ['a bad payee', { payee: party('0') }],
    ['a bad amount', { amount: '-1' }],
  ])('answers 400 {code, message} to %s', async (_, extra) => {
    const sim = simulator();
    const { response } = await rawClient(sim).create(CASH, cash(extra));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
    expect(sim.transactions).toHaveLength(0);
  });

  it('needs a remittance Bearer token', async () => {
    const sim = simulator();
    const response = await rawClient(sim).send('POST', CASH, {
      headers: { 'X-Reference-Id': uuidv4() },
      body: cash(),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'missing_token' });
  });
});

describe('simulator: user info with consent (spec 4.20)', () => {
  it('answers the full user info, the same for the same MSISDN', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const { accessToken } = sim.grantConsent({ msisdn: '46700000003', scope: 'profile' });
    const response = await http.get('/remittance/oauth2/v1_0/userinfo', accessToken);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      sub: '46700000003',
      name: expect.any(String),
      given_name: expect.any(String),
      family_name: expect.any(String),
      middle_name: expect.any(String),
      email: expect.stringMatching(/@/),
      email_verified: true,
      gender: expect.stringMatching(/^(female|male)$/),
      locale: 'en-GB',
      phone_number: '46700000003',
      phone_number_verified: true,
      address: expect.any(String),
      updated_at: expect.any(Number),
      status: 'ACTIVE',
      birthdate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      credit_score: expect.any(String),
      active: true,
      country_of_birth: expect.any(String),
      region_of_birth: expect.any(String),
      city_of_birth: expect.any(String),
      occupation: expect.any(String),
      employer_name: expect.any(String),
      identification_type: expect.any(String),
      identification_value: expect.any(String),
    });
    const basic = await http.get(
      '/disbursement/v1_0/accountholder/msisdn/46700000003/basicuserinfo',
    );
    expect(await basic.json()).toMatchObject({
      given_name: body.given_name,
      family_name: body.family_name,
      birthdate: body.birthdate,
    });
    const again = await http.get('/remittance/oauth2/v1_0/userinfo', accessToken);
    expect(await again.json()).toEqual(body);
  });

  it('refuses an API-user token with 401 invalid_token', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const response = await http.get('/remittance/oauth2/v1_0/userinfo');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'invalid_token' });
  });
});
