import { ConsentToken } from 'momo-partner-sdk';
import { describe, expect, it } from 'vitest';
import { useWireSimulator } from '../support/wire';

// Wire tests: the real client, through msw, against the simulator's handlers. Each test
// asserts what went over the wire (method, exact path, headers, body) and what came back.
const { sim, momo, callbacks, sent, only, expectBearerCall, expectCreate, expectLookup } =
  useWireSimulator();
const { subscriptionKey, apiUser, baseUrl } = sim.credentials;
const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
const body = {
  amount: '100',
  currency: 'EUR',
  externalId: 'ext-1',
  payee,
  payerMessage: 'Hi',
  payeeNote: 'Yo',
};

describe('Disbursement on the wire', () => {
  it('POST /disbursement/token/ with Basic credentials and no body (4.7)', async () => {
    const token = await momo().disbursement.getAccessToken();
    const request = only('POST', '/disbursement/token/');
    const basic = Buffer.from(`${apiUser.id}:${apiUser.key}`).toString('base64');
    expect(request.headers.authorization).toBe(`Basic ${basic}`);
    expect(request.headers['ocp-apim-subscription-key']).toBe(subscriptionKey);
    // DESIGN 7.2: the provider's new production platform refuses a token request without it.
    expect(request.headers['x-target-environment']).toBe('sandbox');
    expect(request.body).toBeUndefined();
    expect(token.tokenType).toBe('access_token');
    expect(token.expiresIn).toBeGreaterThan(3500);
  });

  it.each([
    ['transfer', '/disbursement/v1_0/transfer'],
    ['deposit', '/disbursement/v1_0/deposit'],
  ] as const)('%s: POST %s, then GET %s/{referenceId}', async (method, path) => {
    const client = momo();
    const accepted = await client.disbursement[method](body, {
      callbackUrl: 'https://partner.test/momo/{referenceId}',
    });
    const request = only('POST', path);
    expectCreate(request, accepted.referenceId, body);
    expect(request.headers['x-callback-url']).toBe(
      `https://partner.test/momo/${accepted.referenceId}`,
    );
    expect(accepted.callbackUrl).toBe(`https://partner.test/momo/${accepted.referenceId}`);

    const result = await accepted.wait();
    expectLookup(only('GET', `${path}/${accepted.referenceId}`));
    expect(result).toMatchObject({
      status: 'SUCCESSFUL',
      amount: '100',
      currency: 'EUR',
      externalId: 'ext-1',
      payee,
    });
  });

  it('deposit callback arrives by POST at the filled-in URL (6.2)', async () => {
    const accepted = await momo().disbursement.deposit(body, {
      callbackUrl: 'https://partner.test/momo/{referenceId}',
    });
    await accepted.wait();
    await expect.poll(() => callbacks.length).toBe(1);
    expect(callbacks[0]).toMatchObject({
      method: 'POST',
      path: `/momo/${accepted.referenceId}`,
      body: { status: 'SUCCESSFUL' },
    });
  });

  it('refund: POST /disbursement/v1_0/refund, callback by POST, GET /refund/{referenceId} (4.4)', async () => {
    const client = momo();
    const deposit = await client.disbursement.deposit(body);
    await deposit.wait();
    const refundBody = {
      amount: '100',
      currency: 'EUR',
      externalId: 'ext-r',
      payerMessage: 'Refund',
      payeeNote: 'Refund',
      referenceIdToRefund: deposit.referenceId,
    };
    const refund = await client.disbursement.refund(refundBody, {
      callbackUrl: 'https://partner.test/momo/{referenceId}',
    });
    expectCreate(only('POST', '/disbursement/v1_0/refund'), refund.referenceId, refundBody);
    const result = await client.disbursement.waitForRefund(refund.referenceId);
    expectLookup(only('GET', `/disbursement/v1_0/refund/${refund.referenceId}`));
    expect(result.status).toBe('SUCCESSFUL');
    await expect.poll(() => callbacks.map((c) => c.method)).toEqual(['POST']);
  });

  it('transferWithConsent: POST /disbursement/oauth2/v1_0/transfer with the consent token (4.3)', async () => {
    const grant = sim.grantConsent({ msisdn: '46733123999', scope: 'profile' });
    const consent = new ConsentToken({
      accessToken: grant.accessToken,
      expiresIn: grant.expiresIn,
    });
    const accepted = await momo().disbursement.transferWithConsent({ amount: '15' }, { consent });
    const request = only('POST', '/disbursement/oauth2/v1_0/transfer');
    expectCreate(request, accepted.referenceId, { amount: '15' });
    expect(request.headers.authorization).toBe(`Bearer ${grant.accessToken}`);
    expect(sent('POST', '/disbursement/token/')).toHaveLength(0); // consent calls need no API-user token
    expect((await accepted.status()).status).toMatch(/PENDING|SUCCESSFUL/);
  });

  it('merchantPaymentWithConsent: POST .../oauth2/v1_0/merchantpayment, GET withnewcapabilities lookup (4.13, 4.1)', async () => {
    const grant = sim.grantConsent({ msisdn: '46733123999' });
    const accepted = await momo().disbursement.merchantPaymentWithConsent(
      { amount: '20' },
      { consent: grant.accessToken },
    );
    const request = only('POST', '/disbursement/oauth2/v1_0/merchantpayment');
    expectCreate(request, accepted.referenceId, { amount: '20' });
    expect(request.headers.authorization).toBe(`Bearer ${grant.accessToken}`);
    const result = await accepted.wait();
    const lookup = only(
      'GET',
      `/disbursementwithnewcapabilities/oauth2/v1_0/merchantpayment/${accepted.referenceId}`,
    );
    expectLookup(lookup);
    expect(lookup.headers.authorization).not.toBe(`Bearer ${grant.accessToken}`); // the API user's token
    expect(result).toMatchObject({ status: 'SUCCESSFUL', amount: '20' });
  });

  it('getTransfer / getDeposit / getRefund / getMerchantPayment read FAILED results with their reason (2.5)', async () => {
    const client = momo().disbursement;
    const failing = { ...body, payee: { partyIdType: 'MSISDN', partyId: '46733123451' } } as const;
    const accepted = await client.transfer(failing);
    const result = await client.waitForTransfer(accepted.referenceId);
    expect(result.status).toBe('FAILED');
    expect(result.reason).toMatchObject({ code: 'APPROVAL_REJECTED' });
    const direct = await client.getTransfer(accepted.referenceId);
    expect(direct.reason?.code).toBe('APPROVAL_REJECTED');
  });

  it('getBalance: GET /disbursement/v1_0/account/balance (4.19)', async () => {
    const balance = await momo().disbursement.getBalance();
    expectBearerCall(only('GET', '/disbursement/v1_0/account/balance'));
    expect(balance).toEqual({ availableBalance: '1000000.00', currency: 'EUR' });
  });

  it('getBasicUserInfo: GET /disbursement/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo (4.18)', async () => {
    const info = await momo().disbursement.getBasicUserInfo('46733123999');
    expectBearerCall(
      only('GET', '/disbursement/v1_0/accountholder/msisdn/46733123999/basicuserinfo'),
    );
    expect(Object.keys(info)).toEqual(
      expect.arrayContaining([
        'given_name',
        'family_name',
        'birthdate',
        'locale',
        'gender',
        'status',
      ]),
    );
  });

  it('the caller chooses the X-Reference-Id, and the simulator stores exactly that', async () => {
    const referenceId = '7d3b6c1e-2f4a-4b8e-9c1d-2e3f4a5b6c7d';
    const accepted = await momo().disbursement.deposit(body, { referenceId });
    expect(accepted.referenceId).toBe(referenceId);
    expect(sim.transaction(referenceId)?.operation).toBe('disbursement.deposit');
    expect(baseUrl).toMatch(/^https:/);
  });
});
