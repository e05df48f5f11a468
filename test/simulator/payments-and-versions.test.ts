import { describe, expect, it } from 'vitest';
import {
  capture,
  deposit,
  party,
  payment,
  rawClient,
  type Sim,
  simulator,
  uuidv4,
} from './helpers';

// Payments (bills, top-ups) and the other versions of existing operations: request to
// withdraw v1 (callback POST), deposit and refund v2 (callback PUT, looked up at v1).
const PAYMENT = '/collection/v2_0/payment';

const bill = (customerReference = '46700000001', extra: Record<string, unknown> = {}) => ({
  externalTransactionId: 'bill-7',
  money: { amount: '40', currency: 'EUR' },
  customerReference,
  serviceProviderUserName: 'Electricity Inc',
  receiverMessage: 'Meter 12',
  senderNote: 'March',
  maxNumberOfRetries: 2,
  includeSenderCharges: false,
  ...extra,
});

async function lookup(sim: Sim, path: string) {
  const response = await rawClient(sim).get(path);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

const collectionBalance = async (sim: Sim) =>
  (await lookup(sim, '/collection/v1_0/account/balance')).availableBalance;

describe('simulator: payments', () => {
  it('settles like a transfer: PENDING, then SUCCESSFUL, debiting the collection account', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch, initialBalance: '100.00' });
    const { referenceId, response } = await rawClient(sim).create(PAYMENT, bill(), {
      callbackUrl: 'https://partner.test/pay',
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
    const tx = sim.transaction(referenceId);
    const body = await lookup(sim, `${PAYMENT}/${referenceId}`);
    expect(body).toEqual({
      referenceId,
      status: 'SUCCESSFUL',
      financialTransactionId: tx?.financialTransactionId,
    });
    expect(calls).toEqual([{ url: 'https://partner.test/pay', method: 'PUT', body }]);
    expect(tx).toMatchObject({
      kind: 'payment',
      payee: party('46700000001'),
      amount: '40',
      currency: 'EUR',
    });
    expect(await collectionBalance(sim)).toBe('60.00');
  });

  it('is PENDING until settled when the customer reference never answers', async () => {
    const sim = simulator({ settleMs: 0 });
    const { referenceId } = await rawClient(sim).create(PAYMENT, bill('46733123454'));
    expect(await lookup(sim, `${PAYMENT}/${referenceId}`)).toEqual({
      referenceId,
      status: 'PENDING',
    });
    sim.settle(referenceId, 'FAILED');
    expect(await lookup(sim, `${PAYMENT}/${referenceId}`)).toMatchObject({
      status: 'FAILED',
      reason: { code: 'INTERNAL_PROCESSING_ERROR' },
    });
  });

  it.each([
    ['46733123450', 'INTERNAL_PROCESSING_ERROR'],
    ['46733123456', 'PAYEE_NOT_FOUND'],
  ])('fails by the magic number %s with %s', async (reference, code) => {
    const sim = simulator({ settleMs: 0 });
    const { referenceId } = await rawClient(sim).create(PAYMENT, bill(reference));
    const body = await lookup(sim, `${PAYMENT}/${referenceId}`);
    expect(body).toMatchObject({ status: 'FAILED', reason: { code } });
    expect(body.financialTransactionId).toBeUndefined();
    expect(await collectionBalance(sim)).toBe('1000000.00');
  });

  it('fails NOT_ENOUGH_FUNDS beyond the balance; a non-MSISDN reference succeeds', async () => {
    const sim = simulator({ settleMs: 0, initialBalance: '10' });
    const http = rawClient(sim);
    const short = await http.create(PAYMENT, bill());
    expect(await lookup(sim, `${PAYMENT}/${short.referenceId}`)).toMatchObject({
      status: 'FAILED',
      reason: { code: 'NOT_ENOUGH_FUNDS' },
    });
    const topUp = await http.create(PAYMENT, {
      money: { amount: '5', currency: 'EUR' },
      customerReference: 'ACC-991',
    });
    expect((await lookup(sim, `${PAYMENT}/${topUp.referenceId}`)).status).toBe('SUCCESSFUL');
    expect(sim.transaction(topUp.referenceId)?.payee).toBeUndefined();
  });

  it('rejects bad data with 400 and a reused reference id with 409', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    for (const body of [
      {},
      bill('46700000001', { money: undefined }),
      bill('46700000001', { money: { amount: '-1', currency: 'EUR' } }),
      bill('46700000001', { money: '40 EUR' }),
      bill('46700000001', { customerReference: 46700000001 }),
      bill('46700000001', { maxNumberOfRetries: -1 }),
      bill('46700000001', { includeSenderCharges: 'no' }),
      bill('46700000001', { senderNote: 'x'.repeat(161) }),
    ]) {
      const { response } = await http.create(PAYMENT, body);
      expect(response.status).toBe(400);
    }
    const { referenceId } = await http.create(PAYMENT, bill());
    expect((await http.create(PAYMENT, bill(), { referenceId })).response.status).toBe(409);
    expect((await http.get(`${PAYMENT}/${uuidv4()}`)).status).toBe(404);
    expect((await http.get(`/collection/v2_0/invoice/${referenceId}`)).status).toBe(404);
  });
});

describe('simulator: request to withdraw v1 and v2', () => {
  it('v1 is POST with a POST callback; v2 takes PUT and POST with a PUT callback; one lookup', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const http = rawClient(sim);
    const v1 = await http.create('/collection/v1_0/requesttowithdraw', payment(), {
      callbackUrl: 'https://partner.test/v1',
    });
    const v2put = await http.create('/collection/v2_0/requesttowithdraw', payment(), {
      method: 'PUT',
      callbackUrl: 'https://partner.test/v2put',
    });
    const v2post = await http.create('/collection/v2_0/requesttowithdraw', payment(), {
      callbackUrl: 'https://partner.test/v2post',
    });
    for (const created of [v1, v2put, v2post]) expect(created.response.status).toBe(202);
    for (const { referenceId } of [v1, v2put, v2post]) {
      const body = await lookup(sim, `/collection/v1_0/requesttowithdraw/${referenceId}`);
      expect(body).toMatchObject({ payer: party('46700000001'), status: 'SUCCESSFUL' });
    }
    expect(calls.map(({ url, method }) => [url, method])).toEqual([
      ['https://partner.test/v1', 'POST'],
      ['https://partner.test/v2put', 'PUT'],
      ['https://partner.test/v2post', 'PUT'],
    ]);
    expect(sim.transactions.map((tx) => [tx.operation, tx.kind])).toEqual([
      ['collection.requestToWithdrawV1', 'requestToWithdraw'],
      ['collection.requestToWithdraw', 'requestToWithdraw'],
      ['collection.requestToWithdraw', 'requestToWithdraw'],
    ]);
    expect(
      (await http.create('/collection/v1_0/requesttowithdraw', payment('012'))).response.status,
    ).toBe(400);
  });

  it('v1 decides by the payer', async () => {
    const sim = simulator({ settleMs: 0 });
    const { referenceId } = await rawClient(sim).create(
      '/collection/v1_0/requesttowithdraw',
      payment('46733123451'),
    );
    expect(sim.transaction(referenceId)).toMatchObject({
      status: 'FAILED',
      reason: { code: 'APPROVAL_REJECTED' },
    });
  });
});

describe('simulator: deposit and refund v2', () => {
  it('call back by PUT and are looked up at the v1 paths', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch, initialBalance: '500' });
    const http = rawClient(sim);
    const paid = await http.create('/disbursement/v2_0/deposit', deposit(), {
      callbackUrl: 'https://partner.test/dep',
    });
    expect(paid.response.status).toBe(202);
    const refunded = await http.create(
      '/disbursement/v2_0/refund',
      { amount: '30', currency: 'EUR', referenceIdToRefund: paid.referenceId },
      { callbackUrl: 'https://partner.test/ref' },
    );
    expect(refunded.response.status).toBe(202);
    const depositBody = await lookup(sim, `/disbursement/v1_0/deposit/${paid.referenceId}`);
    expect(depositBody).toMatchObject({ amount: '100', status: 'SUCCESSFUL' });
    const refundBody = await lookup(sim, `/disbursement/v1_0/refund/${refunded.referenceId}`);
    expect(refundBody).toMatchObject({ amount: '30', status: 'SUCCESSFUL' });
    expect(calls).toEqual([
      { url: 'https://partner.test/dep', method: 'PUT', body: depositBody },
      { url: 'https://partner.test/ref', method: 'PUT', body: refundBody },
    ]);
    expect(sim.transactions.map((tx) => [tx.operation, tx.kind])).toEqual([
      ['disbursement.depositV2', 'deposit'],
      ['disbursement.refundV2', 'refund'],
    ]);
    expect(await lookup(sim, '/disbursement/v1_0/account/balance')).toMatchObject({
      availableBalance: '370.00',
    });
    expect((await http.get(`/disbursement/v1_0/transfer/${paid.referenceId}`)).status).toBe(404);
  });

  it('keeps the refund rules across versions: a v2 refund cannot be refunded, the sum is capped', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const paid = await http.create('/disbursement/v1_0/deposit', deposit());
    const refund = (referenceIdToRefund: string, amount: string, version = 'v2_0') =>
      http.create(`/disbursement/${version}/refund`, {
        amount,
        currency: 'EUR',
        referenceIdToRefund,
      });
    const first = await refund(paid.referenceId, '60');
    const second = await refund(paid.referenceId, '60', 'v1_0');
    const ofRefund = await refund(first.referenceId, '1');
    expect(sim.transaction(first.referenceId)?.status).toBe('SUCCESSFUL');
    expect(sim.transaction(second.referenceId)?.reason?.code).toBe('NOT_ALLOWED');
    expect(sim.transaction(ofRefund.referenceId)?.reason?.message).toBe(
      'A refund cannot be refunded.',
    );
  });
});

describe('simulator: the provider documents’ forms over a real server', () => {
  it('accepts SRSSA for SRSA in a cash transfer, and a DELETE with a body over listen()', async () => {
    const sim = simulator({ settleMs: 0 });
    const server = await sim.listen();
    try {
      const http = rawClient(sim, fetch, server.url);
      const cash = await http.create('/remittance/v2_0/cashtransfer', {
        amount: '10',
        currency: 'EUR',
        originalAmount: '10',
        originalCurrency: 'EUR',
        orginatingCountry: 'SE',
        payerIdentificationType: 'SRSSA',
        payerIdentificationNumber: 'A1',
      });
      expect(cash.response.status).toBe(202);
      const invoice = await http.create('/collection/v2_0/invoice', {
        amount: '9',
        currency: 'EUR',
        intendedPayer: party('46733123453'),
      });
      const cancelId = uuidv4();
      const cancelled = await http.send(
        'DELETE',
        `/collection/v2_0/invoice/${invoice.referenceId}`,
        {
          headers: {
            Authorization: `Bearer ${await http.token('collection')}`,
            'X-Reference-Id': cancelId,
            'Content-Type': 'application/json',
          },
          body: { externalId: 'x-1' },
        },
      );
      expect(cancelled.status).toBe(200);
      expect(sim.transaction(cancelId)?.body).toEqual({ externalId: 'x-1' });
      expect(sim.transaction(invoice.referenceId)?.reason?.code).toBe('TRANSACTION_CANCELED');
    } finally {
      await server.close();
    }
  });
});
