import { describe, expect, it } from 'vitest';
import { useWireSimulator } from '../support/wire';
import { OK } from './simulator-cases';

// Each product's account queries and consent through the real client and msw, against the
// simulator's handlers: what went over the wire and the parsed result.

const { sim, momo, only, expectBearerCall, expectLookup, form } = useWireSimulator({
  settleMs: 0,
});
const { subscriptionKey, targetEnvironment } = sim.credentials;
const PRODUCTS = ['collection', 'disbursement', 'remittance'] as const;

describe.each(PRODUCTS)('%s account queries and consent (simulator)', (product) => {
  it(`isAccountHolderActive: GET /${product}/v1_0/accountholder/msisdn/{id}/active → boolean`, async () => {
    const client = momo()[product];
    expect(await client.isAccountHolderActive('msisdn', OK)).toBe(true);
    expect(await client.isAccountHolderActive('msisdn', '46733123456')).toBe(false);
    expectLookup(only('GET', `/${product}/v1_0/accountholder/msisdn/${OK}/active`));
  });

  it(`getBalance('EUR'): GET /${product}/v1_0/account/balance/EUR`, async () => {
    const balance = await momo()[product].getBalance('EUR');
    expectLookup(only('GET', `/${product}/v1_0/account/balance/EUR`));
    expect(balance).toEqual({
      availableBalance: expect.stringMatching(/^\d+\.\d\d$/),
      currency: 'EUR',
    });
  });

  it(`getBasicUserInfo(msisdn): GET /${product}/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo`, async () => {
    const info = await momo()[product].getBasicUserInfo(OK);
    expectLookup(only('GET', `/${product}/v1_0/accountholder/msisdn/${OK}/basicuserinfo`));
    expect(info).toMatchObject({
      locale: 'en-GB',
      status: 'ACTIVE',
      given_name: expect.any(String),
    });
  });

  it(`consent with { product }: bc-authorize and token on /${product}, then getUserInfo({ consent })`, async () => {
    const client = momo();
    const request = await client.consent.authorize({
      msisdn: OK,
      scope: 'profile',
      accessType: 'offline',
      product,
    });
    const authorize = only('POST', `/${product}/v1_0/bc-authorize`);
    expectBearerCall(authorize);
    expect(form(authorize)).toMatchObject({
      login_hint: `ID:${OK}/MSISDN`,
      scope: 'profile',
      access_type: 'offline',
    });
    sim.decide(request.authReqId, 'approve'); // the holder approves: the first poll gets it
    const token = await request.wait();
    const tokenRequest = only('POST', `/${product}/oauth2/token/`);
    expect(tokenRequest.headers.authorization).toMatch(/^Basic \S+$/);
    expect(tokenRequest.headers['ocp-apim-subscription-key']).toBe(subscriptionKey);
    expect(tokenRequest.headers['x-target-environment']).toBe(targetEnvironment);
    expect(form(tokenRequest)).toMatchObject({
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: request.authReqId,
    });
    const info = await client[product].getUserInfo({ consent: token });
    const userinfo = only('GET', `/${product}/oauth2/v1_0/userinfo`);
    expect(userinfo.headers.authorization).toBe(`Bearer ${token.accessToken}`);
    expect(userinfo.headers['x-target-environment']).toBe(targetEnvironment);
    expect(info).toMatchObject({ sub: expect.any(String) });
  });
});

describe.each(['collection', 'disbursement'] as const)(
  '%s basic user info by identity kind (simulator)',
  (product) => {
    it('getBasicUserInfo(idType, id): GET …/accountholder/{idType}/{id}/basicuserinfo', async () => {
      const info = await momo()[product].getBasicUserInfo('Email', 'ada@example.com');
      expectLookup(
        only('GET', `/${product}/v1_0/accountholder/Email/ada%40example.com/basicuserinfo`),
      );
      expect(info).toMatchObject({ status: 'ACTIVE' });
    });
  },
);
