import { ConsentToken, isConsentDeniedError } from 'momo-partner-sdk';
import { describe, expect, it } from 'vitest';
import { CALLBACK_TEMPLATE, useWireSimulator } from '../support/wire';

const { sim, momo, callbacks, sent, only, expectBearerCall, expectCreate, expectLookup, form } =
  useWireSimulator({ settleMs: 0, consentIntervalSeconds: 0.05 });
const { apiUser, targetEnvironment, subscriptionKey } = sim.credentials;
const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
const transfer = {
  amount: '40',
  currency: 'EUR',
  externalId: 'r-1',
  payee,
  payerMessage: 'Gift',
  payeeNote: 'Gift',
};
const cash = {
  amount: '50',
  currency: 'EUR',
  payee,
  externalId: 'cash-1',
  orginatingCountry: 'SE',
  originalAmount: '560',
  originalCurrency: 'SEK',
  payerMessage: 'Family',
  payeeNote: 'Family',
  payerIdentificationType: 'PASS',
  payerIdentificationNumber: 'P1234567',
  payerFirstName: 'Sven',
  payerSurName: 'Berg',
  payerMsisdn: '46700000001',
} as const;

/** Runs the consent flow for this MSISDN and returns the request and its outcome. */
async function consentFor(msisdn: string) {
  const client = momo();
  const request = await client.consent.authorize({
    msisdn,
    scope: 'profile',
    accessType: 'offline',
  });
  return { client, request, outcome: request.wait().catch((e: unknown) => e) };
}

describe('Remittance on the wire', () => {
  it('transfer: POST /remittance/v1_0/transfer (4.2), then GET .../transfer/{referenceId}', async () => {
    const accepted = await momo().remittance.transfer(transfer, { callbackUrl: CALLBACK_TEMPLATE });
    expectCreate(only('POST', '/remittance/v1_0/transfer'), accepted.referenceId, transfer);
    const result = await accepted.wait();
    expectLookup(only('GET', `/remittance/v1_0/transfer/${accepted.referenceId}`));
    expect(result).toMatchObject({ status: 'SUCCESSFUL', amount: '40', payee });
    await expect.poll(() => callbacks.length).toBe(1);
  });

  it('cashTransfer: POST /remittance/v2_0/cashtransfer with the 2.3 body (4.8), GET v2_0 lookup', async () => {
    const client = momo().remittance;
    const accepted = await client.cashTransfer(cash);
    expectCreate(only('POST', '/remittance/v2_0/cashtransfer'), accepted.referenceId, cash);
    const result = await client.waitForCashTransfer(accepted.referenceId);
    expectLookup(only('GET', `/remittance/v2_0/cashtransfer/${accepted.referenceId}`));
    expect(result).toMatchObject({ status: 'SUCCESSFUL', amount: '50', originalCurrency: 'SEK' });
    expect((await client.getCashTransfer(accepted.referenceId)).status).toBe('SUCCESSFUL');
  });

  it('uses the Remittance token (POST /remittance/token/)', async () => {
    const token = await momo().remittance.getAccessToken();
    expect(only('POST', '/remittance/token/').headers.authorization).toMatch(/^Basic /);
    expect(token.tokenType).toBeTruthy();
  });
});

describe('Consent (CIBA) on the wire', () => {
  it('authorize: form POST /collectionwithnewcapabilities/v1_0/bc-authorize with Bearer (4.21); token: form POST /collection/oauth2/token/ with Basic (4.9)', async () => {
    const { request, outcome } = await consentFor('46733123999');
    const token = await outcome;
    expect(token).toBeInstanceOf(ConsentToken);

    const authorize = only('POST', '/collectionwithnewcapabilities/v1_0/bc-authorize');
    expectBearerCall(authorize);
    expect(authorize.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form(authorize)).toEqual({
      login_hint: 'ID:46733123999/MSISDN',
      scope: 'profile',
      access_type: 'offline',
    });
    const polls = sent('POST', '/collection/oauth2/token/');
    expect(polls.length).toBeGreaterThanOrEqual(2); // pending first, then the token
    const basic = Buffer.from(`${apiUser.id}:${apiUser.key}`).toString('base64');
    for (const poll of polls) {
      expect(poll.headers.authorization).toBe(`Basic ${basic}`);
      expect(poll.headers['ocp-apim-subscription-key']).toBe(subscriptionKey);
      expect(poll.headers['x-target-environment']).toBe(targetEnvironment);
      expect(poll.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(form(poll)).toEqual({
        grant_type: 'urn:openid:params:grant-type:ciba',
        auth_req_id: request.authReqId,
      });
    }
    expect(token).toMatchObject({ scope: 'profile', tokenType: 'Bearer' });
  });

  it('the ConsentToken is accepted by transferWithConsent, merchantPaymentWithConsent and getUserInfo (4.3, 4.13, 4.20)', async () => {
    const { client, outcome } = await consentFor('46733123999');
    const consent = (await outcome) as ConsentToken;
    const bearer = `Bearer ${consent.accessToken}`;

    const moved = await client.disbursement
      .transferWithConsent({ amount: '5' }, { consent })
      .wait();
    expect(moved.status).toBe('SUCCESSFUL');
    expect(only('POST', '/disbursement/oauth2/v1_0/transfer').headers.authorization).toBe(bearer);

    const paid = await client.disbursement
      .merchantPaymentWithConsent({ amount: '6' }, { consent })
      .wait();
    expect(paid.status).toBe('SUCCESSFUL');
    expect(only('POST', '/disbursement/oauth2/v1_0/merchantpayment').headers.authorization).toBe(
      bearer,
    );

    const info = await client.remittance.getUserInfo({ consent });
    const request = only('GET', '/remittance/oauth2/v1_0/userinfo');
    expect(request.headers.authorization).toBe(bearer);
    expect(request.headers['x-target-environment']).toBe(targetEnvironment);
    expect(info).toMatchObject({ sub: '46733123999', email_verified: expect.any(Boolean) });
  });

  it('a denied request throws ConsentDeniedError', async () => {
    const { outcome } = await consentFor('46733123451');
    expect(isConsentDeniedError(await outcome)).toBe(true);
  });
});
