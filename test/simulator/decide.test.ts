import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { capture, deposit, party, payment, rawClient, simulator, uuidv4 } from './helpers';

// The payer's decision on anything pending, the same way for every kind: sim.decide()
// and POST /_simulator/operations/{id}/approve|decline.
const never = '46733123453'; // a party that never answers by itself

describe('sim.decide()', () => {
  it('approve ends SUCCESSFUL, decline FAILED with APPROVAL_REJECTED, for every kind', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const http = rawClient(sim);
    const cb = { callbackUrl: 'https://partner.test/cb' };
    const created = [
      await http.create('/collection/v1_0/requesttopay', payment(never), cb),
      await http.create('/collection/v1_0/requesttowithdraw', payment(never), cb),
      await http.create('/disbursement/v1_0/transfer', deposit(never), cb),
      await http.create(
        '/collection/v2_0/invoice',
        { amount: '9', currency: 'EUR', intendedPayer: party(never) },
        cb,
      ),
      await http.create('/collection/v2_0/preapproval', { payer: party(never) }, cb),
      await http.create(
        '/collection/v2_0/payment',
        { money: { amount: '3', currency: 'EUR' }, customerReference: never },
        cb,
      ),
    ].map(({ referenceId }) => referenceId);
    expect(sim.transactions.map((tx) => [tx.kind, tx.status])).toEqual([
      ['requestToPay', 'PENDING'],
      ['requestToWithdraw', 'PENDING'],
      ['transfer', 'PENDING'],
      ['invoice', 'PENDING'],
      ['preApproval', 'PENDING'],
      ['payment', 'PENDING'],
    ]);
    created.forEach((referenceId, index) => {
      sim.decide(referenceId, index % 2 === 0 ? 'approve' : 'decline');
    });
    expect(sim.transactions.map((tx) => [tx.status, tx.reason?.code])).toEqual([
      ['SUCCESSFUL', undefined],
      ['FAILED', 'APPROVAL_REJECTED'],
      ['SUCCESSFUL', undefined],
      ['FAILED', 'APPROVAL_REJECTED'],
      ['SUCCESSFUL', undefined],
      ['FAILED', 'APPROVAL_REJECTED'],
    ]);
    expect(calls.map((call) => call.method)).toEqual(['PUT', 'POST', 'PUT', 'PUT', 'PUT', 'PUT']);
    expect(() => sim.decide(created[0] ?? '', 'decline')).toThrow(/already SUCCESSFUL/);
    expect(() => sim.decide(uuidv4(), 'approve')).toThrow(/no transaction or consent/);
    expect(() => sim.decide(created[0] ?? '', 'maybe' as 'approve')).toThrow(TypeError);
  });

  it('ends a client wait(): approve for a request to pay, decline for a transfer', async () => {
    const sim = simulator({ settleMs: 0 });
    const momo = sim.client();
    const asked = await momo.collection.requestToPay({
      amount: '5',
      currency: 'EUR',
      payer: { partyIdType: 'MSISDN', partyId: never },
    });
    const sent = await momo.disbursement.transfer({
      amount: '5',
      currency: 'EUR',
      payee: { partyIdType: 'MSISDN', partyId: never },
    });
    const paid = asked.wait();
    const refused = sent.wait();
    sim.decide(asked.referenceId, 'approve');
    sim.decide(sent.referenceId, 'decline');
    expect(await paid).toMatchObject({ status: 'SUCCESSFUL' });
    expect(await refused).toMatchObject({
      status: 'FAILED',
      reason: { code: 'APPROVAL_REJECTED' },
    });
  });

  it('answers a consent request by its auth_req_id', async () => {
    const sim = simulator();
    const momo = sim.client();
    const request = await momo.consent.authorize({
      msisdn: never,
      scope: 'profile',
      accessType: 'offline',
    });
    sim.decide(request.authReqId, 'decline');
    expect(sim.consentRequests[0]?.status).toBe('denied');
    expect(() => sim.decide(request.authReqId, 'approve')).toThrow(/already denied/);
  });
});

describe('control routes: approve and decline', () => {
  const sim = createSimulator({ settleMs: 0 });
  let server: ListeningServer;
  beforeAll(async () => {
    server = await sim.listen();
  });
  afterEach(() => sim.reset());
  afterAll(() => server.close());

  const post = (path: string) =>
    fetch(`${server.url}/_simulator/operations/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });

  it('decides a pending transaction: 200 with it, 409 once final, 404 unknown', async () => {
    const http = rawClient(sim, fetch, server.url);
    const { referenceId } = await http.create(
      '/collection/v1_0/requesttopay',
      payment(never, { amount: '12' }),
    );
    const state = await (await fetch(`${server.url}/_simulator/state`)).json();
    expect(state.transactions).toEqual([
      expect.objectContaining({
        referenceId,
        kind: 'requestToPay',
        payer: party(never),
        amount: '12',
        currency: 'EUR',
        status: 'PENDING',
      }),
    ]);
    const approved = await post(`${referenceId}/approve`);
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ referenceId, status: 'SUCCESSFUL' });
    const again = await post(`${referenceId}/decline`);
    expect(again.status).toBe(409);
    expect((await post(`${uuidv4()}/approve`)).status).toBe(404);
    const wrongMethod = await fetch(`${server.url}/_simulator/operations/${referenceId}/approve`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('decides a pending consent request: 200 with it', async () => {
    const request = await sim
      .client()
      .consent.authorize({ msisdn: never, scope: 'profile', accessType: 'online' });
    const approved = await post(`${request.authReqId}/approve`);
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({
      authReqId: request.authReqId,
      status: 'approved',
    });
    expect((await post(`${request.authReqId}/decline`)).status).toBe(409);
  });
});
