import { describe, expect, it } from 'vitest';
import { capture, deposit, party, payment, rawClient, simulator, uuidv4 } from './helpers';

const RTP = '/collection/v1_0/requesttopay';
const RTW = '/collection/v2_0/requesttowithdraw';

describe('simulator: collection tokens', () => {
  it('issues collection tokens, which only collection paths accept', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const collection = await http.token('collection');
    const disbursement = await http.token('disbursement');
    expect((await http.get('/collection/v1_0/account/balance', collection)).status).toBe(200);
    const refused = await http.create(RTP, payment(), { token: disbursement });
    expect(refused.response.status).toBe(401);
    expect(await refused.response.json()).toEqual({ error: 'invalid_token' });
    const elsewhere = await http.get('/disbursement/v1_0/account/balance', collection);
    expect(elsewhere.status).toBe(401);
  });

  it('answers 401 login_failed to bad Basic credentials on /collection/token/', async () => {
    const sim = simulator();
    const response = await rawClient(sim).send('POST', '/collection/token/', {
      headers: { Authorization: 'Basic Zm9vOmJhcg==' },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'login_failed' });
  });
});

describe('simulator: request to pay', () => {
  it('accepts 202, looks up a RequestToPayResult with the payer, and credits the account', async () => {
    const sim = simulator({ settleMs: 0, initialBalance: '10.00' });
    const http = rawClient(sim);
    const { referenceId, response } = await http.create(RTP, payment());
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
    const tx = sim.transaction(referenceId);
    expect(tx).toMatchObject({ operation: 'collection.requestToPay', status: 'SUCCESSFUL' });
    const lookup = await http.get(`${RTP}/${referenceId}`);
    expect(lookup.status).toBe(200);
    expect(await lookup.json()).toEqual({
      amount: '100',
      currency: 'EUR',
      financialTransactionId: tx?.financialTransactionId,
      externalId: 'order-1',
      payer: party('46700000001'),
      payerMessage: 'Pay',
      payeeNote: 'Paid',
      status: 'SUCCESSFUL',
    });
    const balance = await http.get('/collection/v1_0/account/balance');
    expect(await balance.json()).toEqual({ availableBalance: '110.00', currency: 'EUR' });
  });

  it.each([
    ['46733123451', 'APPROVAL_REJECTED'],
    ['46733123455', 'NOT_ENOUGH_FUNDS'],
    ['46733123456', 'PAYER_NOT_FOUND'],
  ])('decides the outcome by the payer: %s fails with %s', async (payer, code) => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const { referenceId } = await http.create(RTP, payment(payer));
    const body = await (await http.get(`${RTP}/${referenceId}`)).json();
    expect(body).toMatchObject({ status: 'FAILED', reason: { code, message: expect.any(String) } });
    expect(body.financialTransactionId).toBeUndefined();
    const balance = await http.get('/collection/v1_0/account/balance');
    expect(await balance.json()).toMatchObject({ availableBalance: '1000000.00' });
  });

  it('rejects a bad body with 400 and a reused id with 409', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    for (const body of [
      { ...payment(), payer: undefined },
      deposit(), // a payee is not a payer
      payment('0123'),
      { ...payment(), amount: '0' },
    ]) {
      const { response } = await http.create(RTP, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'BAD_REQUEST' });
    }
    const first = await http.create(RTP, payment());
    const again = await http.create(RTP, payment(), { referenceId: first.referenceId });
    expect(again.response.status).toBe(409);
    expect(await again.response.json()).toMatchObject({ code: 'RESOURCE_ALREADY_EXIST' });
    expect(sim.transactions).toHaveLength(1);
  });

  it('sends its callback by PUT with the lookup body', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const http = rawClient(sim);
    const { referenceId } = await http.create(RTP, payment(), {
      callbackUrl: 'https://partner.example/cb',
    });
    const lookup = await (await http.get(`${RTP}/${referenceId}`)).json();
    expect(calls).toEqual([{ url: 'https://partner.example/cb', method: 'PUT', body: lookup }]);
  });

  it('finds only requests to pay: 404 for other operations, 400 for a non-UUID', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const withdraw = await http.create(RTW, payment(), { method: 'PUT' });
    const dep = await http.create('/disbursement/v1_0/deposit', deposit());
    for (const id of [withdraw.referenceId, dep.referenceId, uuidv4()]) {
      const response = await http.get(`${RTP}/${id}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        code: 'RESOURCE_NOT_FOUND',
        message: 'Requested resource was not found.',
      });
    }
    expect((await http.get(`${RTP}/nope`)).status).toBe(400);
  });
});

describe('simulator: request to withdraw', () => {
  it('accepts PUT with Basic or Bearer, and looks up at v1_0 with the payer', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const byBasic = await http.create(RTW, payment(), {
      method: 'PUT',
      authorization: http.basic(),
    });
    const byBearer = await http.create(RTW, payment('46733123452'), { method: 'PUT' });
    expect(byBasic.response.status).toBe(202);
    expect(byBearer.response.status).toBe(202);
    const ok = await http.get(`/collection/v1_0/requesttowithdraw/${byBasic.referenceId}`);
    expect(await ok.json()).toMatchObject({ status: 'SUCCESSFUL', payer: party('46700000001') });
    const expired = await http.get(`/collection/v1_0/requesttowithdraw/${byBearer.referenceId}`);
    expect(await expired.json()).toMatchObject({ status: 'FAILED', reason: { code: 'EXPIRED' } });
    const other = await http.get(`/collection/v1_0/requesttopay/${byBasic.referenceId}`);
    expect(other.status).toBe(404);
    expect(sim.transactions.map((tx) => tx.operation)).toEqual([
      'collection.requestToWithdraw',
      'collection.requestToWithdraw',
    ]);
  });

  it('accepts POST too (the provider document), 405 to DELETE, 401 to wrong Basic', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const post = await http.create(RTW, payment());
    expect(post.response.status).toBe(202);
    expect(sim.transaction(post.referenceId)?.operation).toBe('collection.requestToWithdraw');
    const removal = await http.create(RTW, payment(), { method: 'DELETE' });
    expect(removal.response.status).toBe(405);
    expect(removal.response.headers.get('allow')).toBe('PUT, POST');
    const wrong = await http.create(RTW, payment(), {
      method: 'PUT',
      authorization: 'Basic Zm9vOmJhcg==',
    });
    expect(wrong.response.status).toBe(401);
    expect(await wrong.response.json()).toEqual({ error: 'login_failed' });
    expect(sim.transactions).toHaveLength(1);
  });

  it('sends its callback by PUT', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    await rawClient(sim).create(RTW, payment('46733123450'), {
      method: 'PUT',
      callbackUrl: 'https://partner.example/w',
    });
    expect(sim.transactions[0]?.status).toBe('FAILED'); // settles the due transaction now
    expect(calls.map((c) => c.method)).toEqual(['PUT']);
    expect(calls[0]?.body).toMatchObject({
      payer: party('46733123450'),
      status: 'FAILED',
      reason: { code: 'INTERNAL_PROCESSING_ERROR' },
    });
  });
});

describe('simulator: collection balance', () => {
  it('answers the balance with or without Authorization, and in the account currency', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const plain = await http.send('GET', '/collection/v1_0/account/balance');
    expect(await plain.json()).toEqual({ availableBalance: '1000000.00', currency: 'EUR' });
    const inEur = await http.send('GET', '/collection/v1_0/account/balance/EUR');
    expect(inEur.status).toBe(200);
    expect(await inEur.json()).toEqual({ availableBalance: '1000000.00', currency: 'EUR' });
    const bearer = await http.get('/collection/v1_0/account/balance/EUR');
    expect(bearer.status).toBe(200);
  });

  it('answers 400 INVALID_CURRENCY to another currency and 400 to a malformed one', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const other = await http.send('GET', '/collection/v1_0/account/balance/UGX');
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({
      code: 'INVALID_CURRENCY',
      message: 'Currency not supported.',
    });
    for (const bad of ['eur', 'EU', 'EURO']) {
      const response = await http.send('GET', `/collection/v1_0/account/balance/${bad}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'BAD_REQUEST' });
    }
  });
});
