import { isValidationError, MomoClient } from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, SECRETS, tokenHandler, useFakeService } from '../support/fake-service';

// Account queries on every product, consent on every product, disbursement v2, request
// to withdraw v1 and what `compat` changes, on the wire against msw handlers written here.

const service = useFakeService();
const PRODUCTS = ['disbursement', 'collection', 'remittance'] as const;
const payee = { partyIdType: 'MSISDN', partyId: '46733123454' } as const;
const payer = { partyIdType: 'MSISDN', partyId: '46733123453' } as const;
const transfer = { amount: '25', currency: 'EUR', externalId: 'x-1', payee };

const only = async (method: string, path: string) => {
  const seen = (await service.settled()).filter((s) => s.method === method && s.path === path);
  expect(seen, `${method} ${path}`).toHaveLength(1);
  return seen[0];
};

describe.each(PRODUCTS)('%s account queries', (product) => {
  it(`isAccountHolderActive: GET /${product}/v1_0/accountholder/{idType}/{id}/active → boolean`, async () => {
    service.server.use(
      tokenHandler(product),
      http.get(`${BASE}/${product}/v1_0/accountholder/msisdn/46733123453/active`, () =>
        HttpResponse.json({ result: true }),
      ),
      http.get(`${BASE}/${product}/v1_0/accountholder/email/a%40b.example/active`, () =>
        HttpResponse.json({ result: false }),
      ),
    );
    const momo = makeClient();
    expect(await momo[product].isAccountHolderActive('msisdn', '46733123453')).toBe(true);
    expect(await momo[product].isAccountHolderActive('email', 'a@b.example')).toBe(false);
    const request = await only('GET', `/${product}/v1_0/accountholder/msisdn/46733123453/active`);
    expect(request?.headers.authorization).toMatch(/^Bearer token-/);
    expect(request?.headers['x-target-environment']).toBe('sandbox');
  });

  it('isAccountHolderActive with a bad id or kind: ValidationError naming it, nothing sent', async () => {
    const momo = makeClient();
    const bad = await momo[product]
      .isAccountHolderActive('msisdn', 'not-a-number')
      .catch((e: unknown) => e);
    expect(isValidationError(bad)).toBe(true);
    expect((bad as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      'accountHolderId',
    ]);
    const kind = await momo[product]
      .isAccountHolderActive('alias' as never, 'x')
      .catch((e: unknown) => e);
    expect((kind as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain(
      'accountHolderIdType',
    );
    expect(service.seen).toEqual([]);
  });

  it(`getBalance('EUR'): GET /${product}/v1_0/account/balance/EUR`, async () => {
    service.server.use(
      tokenHandler(product),
      http.get(`${BASE}/${product}/v1_0/account/balance/EUR`, () =>
        HttpResponse.json({ availableBalance: 1200.5, currency: 'EUR' }),
      ),
    );
    expect(await makeClient()[product].getBalance('EUR')).toEqual({
      availableBalance: '1200.5',
      currency: 'EUR',
    });
  });

  it(`getBasicUserInfo(msisdn): GET /${product}/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo`, async () => {
    service.server.use(
      tokenHandler(product),
      http.get(`${BASE}/${product}/v1_0/accountholder/msisdn/46733123453/basicuserinfo`, () =>
        HttpResponse.json({ given_name: 'Ada', family_name: 'Lovelace' }),
      ),
    );
    expect(await makeClient()[product].getBasicUserInfo('46733123453')).toEqual({
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
  });

  it(`getUserInfo({ consent }): GET /${product}/oauth2/v1_0/userinfo with the consent token`, async () => {
    service.server.use(
      http.get(`${BASE}/${product}/oauth2/v1_0/userinfo`, () =>
        HttpResponse.json({ sub: 46733123453, name: 'Ada' }),
      ),
    );
    const info = await makeClient()[product].getUserInfo({ consent: 'consent-token-0123456789' });
    expect(info).toEqual({ sub: '46733123453', name: 'Ada' });
    const request = await only('GET', `/${product}/oauth2/v1_0/userinfo`);
    expect(request?.headers.authorization).toBe('Bearer consent-token-0123456789');
  });

  it(`consent with { product }: POST /${product}/v1_0/bc-authorize, then /${product}/oauth2/token/`, async () => {
    service.server.use(
      tokenHandler(product),
      http.post(`${BASE}/${product}/v1_0/bc-authorize`, () =>
        HttpResponse.json({ auth_req_id: 'req-1', interval: 1, expires_in: 60 }),
      ),
      http.post(`${BASE}/${product}/oauth2/token/`, () =>
        HttpResponse.json({
          access_token: 'consent-abcdefghijkl',
          token_type: 'Bearer',
          expires_in: 3600,
        }),
      ),
    );
    const momo = makeClient();
    const request = await momo.consent.authorize({
      msisdn: '46733123453',
      scope: 'profile',
      accessType: 'offline',
      product,
    });
    const token = await request.wait();
    expect(token.accessToken).toBe('consent-abcdefghijkl');
    const authorize = await only('POST', `/${product}/v1_0/bc-authorize`);
    expect(authorize?.headers.authorization).toMatch(/^Bearer token-/);
    expect(new URLSearchParams(authorize?.body).get('login_hint')).toBe('ID:46733123453/MSISDN');
    const tokenRequest = await only('POST', `/${product}/oauth2/token/`);
    expect(tokenRequest?.headers.authorization).toBe(
      `Basic ${btoa(`${SECRETS.apiUserId}:${SECRETS.apiKey}`)}`,
    );
    expect(new URLSearchParams(tokenRequest?.body).get('auth_req_id')).toBe('req-1');
  });
});

describe('basic user info by identity kind (collection, disbursement)', () => {
  it.each(['collection', 'disbursement'] as const)(
    '%s: GET …/accountholder/{idType}/{id}/basicuserinfo',
    async (product) => {
      service.server.use(
        tokenHandler(product),
        http.get(
          `${BASE}/${product}/v1_0/accountholder/Email/ada%40example.com/basicuserinfo`,
          () => HttpResponse.json({ given_name: 'Ada' }),
        ),
      );
      expect(await makeClient()[product].getBasicUserInfo('Email', 'ada@example.com')).toEqual({
        given_name: 'Ada',
      });
    },
  );
});

describe('disbursement v2 and request to withdraw v1', () => {
  it.each([
    ['depositV2', '/disbursement/v2_0/deposit', '/disbursement/v1_0/deposit/', transfer],
    [
      'refundV2',
      '/disbursement/v2_0/refund',
      '/disbursement/v1_0/refund/',
      { amount: '5', currency: 'EUR', referenceIdToRefund: '0b5b6a0e-51a1-4c4f-9c39-2d8f6a4a1e77' },
    ],
  ] as const)('%s: POST %s, looked up as v1', async (method, path, lookup, body) => {
    service.server.use(
      tokenHandler('disbursement'),
      http.post(`${BASE}${path}`, () => new Response(null, { status: 202 })),
      http.get(`${BASE}${lookup}:id`, () =>
        HttpResponse.json({ status: 'SUCCESSFUL', amount: body.amount }),
      ),
    );
    const op = await makeClient().disbursement[method](body as never);
    expect(await op.wait()).toMatchObject({ status: 'SUCCESSFUL', referenceId: op.referenceId });
    const request = await only('POST', path);
    expect(request?.headers['x-reference-id']).toBe(op.referenceId);
    expect(JSON.parse(request?.body ?? '')).toEqual(body);
    await only('GET', `${lookup}${op.referenceId}`);
  });

  it('requestToWithdrawV1: POST /collection/v1_0/requesttowithdraw', async () => {
    service.server.use(
      tokenHandler('collection'),
      http.post(
        `${BASE}/collection/v1_0/requesttowithdraw`,
        () => new Response(null, { status: 202 }),
      ),
    );
    const body = { amount: '5', currency: 'EUR', payer };
    const op = await makeClient().collection.requestToWithdrawV1(body);
    const request = await only('POST', '/collection/v1_0/requesttowithdraw');
    expect(request?.headers['x-reference-id']).toBe(op.referenceId);
    expect(JSON.parse(request?.body ?? '')).toEqual(body);
  });
});

describe("compat: the specification's form by default, the documents' with 'provider'", () => {
  const withdraw = { amount: '5', currency: 'EUR', payer };

  it.each([
    [undefined, 'PUT'],
    ['spec', 'PUT'],
    ['provider', 'POST'],
  ] as const)('compat %s: request to withdraw v2 by %s', async (compat, method) => {
    service.server.use(
      tokenHandler('collection'),
      http.all(
        `${BASE}/collection/v2_0/requesttowithdraw`,
        () => new Response(null, { status: 202 }),
      ),
    );
    await makeClient(compat ? { compat } : {}).collection.requestToWithdraw(withdraw);
    await only(method, '/collection/v2_0/requesttowithdraw');
  });

  const cash = {
    amount: '10',
    orginatingCountry: 'SE',
    originalAmount: '10',
    originalCurrency: 'EUR',
    payerIdentificationNumber: '19800101',
  };

  it.each([
    ['SRSA', undefined, 'SRSA'],
    ['SRSSA', undefined, 'SRSA'],
    ['SRSA', 'provider', 'SRSSA'],
    ['SRSSA', 'provider', 'SRSSA'],
  ] as const)(
    'cash transfer identification %s with compat %s is sent as %s',
    async (given, compat, sent) => {
      service.server.use(
        tokenHandler('remittance'),
        http.post(
          `${BASE}/remittance/v2_0/cashtransfer`,
          () => new Response(null, { status: 202 }),
        ),
      );
      await makeClient(compat ? { compat } : {}).remittance.cashTransfer({
        ...cash,
        payerIdentificationType: given,
      });
      const request = await only('POST', '/remittance/v2_0/cashtransfer');
      expect(JSON.parse(request?.body ?? '').payerIdentificationType).toBe(sent);
    },
  );

  it.each([
    ['Your order is on its way', 'Your order is on its way'],
    ['Votre commande est expédiée', undefined], // not header-safe: the body alone carries it
  ])('delivery notification %j: notificationMessage header %s', async (message, header) => {
    const id = '0b5b6a0e-51a1-4c4f-9c39-2d8f6a4a1e77';
    const path = `/collection/v1_0/requesttopay/${id}/deliverynotification`;
    service.server.use(
      tokenHandler('collection'),
      http.post(`${BASE}${path}`, () => new Response(null, { status: 200 })),
    );
    await makeClient().collection.sendDeliveryNotification(id, message);
    const request = await only('POST', path);
    expect(request?.headers.notificationmessage).toBe(header);
    expect(JSON.parse(request?.body ?? '')).toEqual({ notificationMessage: message });
  });

  it('an unknown compat is a ValidationError naming it', () => {
    const error = (() => {
      try {
        return new MomoClient({
          baseUrl: BASE,
          targetEnvironment: 'sandbox',
          compat: 'mtn' as never,
        });
      } catch (e) {
        return e;
      }
    })();
    expect(isValidationError(error)).toBe(true);
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(['compat']);
  });
});
