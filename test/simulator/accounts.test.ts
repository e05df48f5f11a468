import { describe, expect, it } from 'vitest';
import { type ProductName, rawClient, type Sim, simulator } from './helpers';

// What every product serves besides its transactions (the provider's documents): account
// holder validation, basic user info, balance in a currency, user info with consent, and
// the consent flow on the product's own paths.
const PRODUCTS: ProductName[] = ['collection', 'disbursement', 'remittance'];

const active = (product: string, idType: string, id: string) =>
  `/${product}/v1_0/accountholder/${idType}/${id}/active`;

async function json(response: Response, status = 200) {
  expect(response.status).toBe(status);
  return response.json();
}

describe.each(PRODUCTS)('simulator: %s account holders and balance', (product) => {
  it('answers /active by the magic numbers: the not-found ones inactive', async () => {
    const http = rawClient(simulator());
    expect(await json(await http.get(active(product, 'msisdn', '46700000001')))).toEqual({
      result: true,
    });
    expect(await json(await http.get(active(product, 'msisdn', '46733123456')))).toEqual({
      result: false,
    });
    expect(await json(await http.get(active(product, 'msisdn', '+46733123456')))).toEqual({
      result: false,
    });
    expect(await json(await http.get(active(product, 'email', 'ann@example.com')))).toEqual({
      result: true,
    });
    expect(await json(await http.get(active(product, 'email', 'unknown@example.com')))).toEqual({
      result: false,
    });
    // The document demands the id type in small letters.
    expect((await http.get(active(product, 'MSISDN', '46700000001'))).status).toBe(400);
    expect((await http.get(active(product, 'msisdn', 'abc'))).status).toBe(400);
    expect((await http.get(active(product, 'email', 'not-an-email'))).status).toBe(400);
    expect((await http.get(active(product, 'alias', 'ann'))).status).toBe(400);
    const other = product === 'collection' ? 'disbursement' : 'collection';
    const wrongToken = await http.get(
      active(product, 'msisdn', '46700000001'),
      await http.token(other),
    );
    expect(wrongToken.status).toBe(401);
  });

  it('answers the balance, also in the account currency; 400 for another', async () => {
    const sim = simulator({ initialBalance: '12.5' });
    const http = rawClient(sim);
    const expected = { availableBalance: '12.50', currency: 'EUR' };
    expect(await json(await http.get(`/${product}/v1_0/account/balance`))).toEqual(expected);
    expect(await json(await http.get(`/${product}/v1_0/account/balance/EUR`))).toEqual(expected);
    const usd = await http.get(`/${product}/v1_0/account/balance/USD`);
    expect(await json(usd, 400)).toEqual({
      code: 'INVALID_CURRENCY',
      message: 'Currency not supported.',
    });
    expect((await http.get(`/${product}/v1_0/account/balance/eur`)).status).toBe(400);
  });

  it('serves basic user info by MSISDN', async () => {
    const http = rawClient(simulator());
    const body = await json(
      await http.get(`/${product}/v1_0/accountholder/msisdn/46700000003/basicuserinfo`),
    );
    expect(body).toMatchObject({ given_name: expect.any(String), status: 'ACTIVE' });
    const disbursement = await http.get(
      '/disbursement/v1_0/accountholder/msisdn/46700000003/basicuserinfo',
    );
    expect(await disbursement.json()).toEqual(body);
  });
});

describe('simulator: basic user info by id type (collection and disbursement documents)', () => {
  it.each(['collection', 'disbursement'])(
    '%s accepts MSISDN, Email, Alias and ID',
    async (product) => {
      const http = rawClient(simulator());
      const path = (idType: string, id: string) =>
        `/${product}/v1_0/accountholder/${idType}/${id}/basicuserinfo`;
      const byMsisdn = await json(await http.get(path('MSISDN', '46700000003')));
      expect(await json(await http.get(path('msisdn', '46700000003')))).toEqual(byMsisdn);
      const byEmail = await json(await http.get(path('email', 'ann@example.com')));
      expect(byEmail).toMatchObject({ given_name: expect.any(String), locale: 'en-GB' });
      expect(await json(await http.get(path('Email', 'ann@example.com')))).toEqual(byEmail);
      expect((await http.get(path('alias', 'ann'))).status).toBe(200);
      expect((await http.get(path('ID', '12345'))).status).toBe(200);
      expect((await http.get(path('email', 'ann'))).status).toBe(400);
      expect((await http.get(path('passport', 'X1'))).status).toBe(400);
    },
  );

  it('remittance has it by MSISDN only, as its document', async () => {
    const http = rawClient(simulator());
    const byEmail = await http.get('/remittance/v1_0/accountholder/email/a@b.co/basicuserinfo');
    expect(byEmail.status).toBe(404);
  });
});

/** Runs the consent flow on a product's paths; returns the consent access token. */
async function consentOn(sim: Sim, product: ProductName, msisdn: string): Promise<string> {
  const http = rawClient(sim);
  const authorize = await http.send('POST', `/${product}/v1_0/bc-authorize`, {
    headers: {
      Authorization: `Bearer ${await http.token(product)}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      login_hint: `ID:${msisdn}/MSISDN`,
      scope: 'profile',
      access_type: 'offline',
    }).toString(),
  });
  const { auth_req_id: authReqId } = await json(authorize);
  sim.decide(authReqId, 'approve');
  const token = await http.send('POST', `/${product}/oauth2/token/`, {
    headers: {
      Authorization: http.basic(),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: authReqId,
    }).toString(),
  });
  const body = await json(token);
  expect(body).toMatchObject({ token_type: 'Bearer', scope: 'profile' });
  return body.access_token;
}

describe.each(PRODUCTS)('simulator: %s consent and user info', (product) => {
  it('runs bc-authorize and the consent token on its own paths; userinfo takes the token', async () => {
    const sim = simulator({ consentIntervalSeconds: 0 });
    const http = rawClient(sim);
    const token = await consentOn(sim, product, '46700000004');
    const info = await json(await http.get(`/${product}/oauth2/v1_0/userinfo`, token));
    expect(info).toMatchObject({ sub: '46700000004', phone_number: '46700000004', active: true });
    const refused = await http.get(`/${product}/oauth2/v1_0/userinfo`);
    expect(refused.status).toBe(401);
    expect(sim.consentRequests).toEqual([
      expect.objectContaining({ msisdn: '46700000004', status: 'approved', tokenIssued: true }),
    ]);
  });

  it('bc-authorize needs a token of its product', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const other = product === 'remittance' ? 'collection' : 'remittance';
    const response = await http.send('POST', `/${product}/v1_0/bc-authorize`, {
      headers: {
        Authorization: `Bearer ${await http.token(other)}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'login_hint=ID:46700000001/MSISDN&scope=profile&access_type=online',
    });
    expect(response.status).toBe(401);
    expect(sim.consentRequests).toHaveLength(0);
  });
});
