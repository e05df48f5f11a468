import { MomoClient } from 'momo-partner-sdk';
import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// The /_simulator/ control routes of a simulator served over HTTP, driven with plain
// fetch as a curl user or another language would.
const sim = createSimulator({ settleMs: 10 });
let server: ListeningServer;
beforeAll(async () => {
  server = await sim.listen({ port: 0 });
});
afterEach(() => sim.reset());
afterAll(() => server.close());

const post = (path: string, body?: unknown) =>
  fetch(`${server.url}/_simulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const pendingPayee = { partyIdType: 'MSISDN', partyId: '46733123453' } as const;
const deposit = () =>
  sim.client().disbursement.deposit({ amount: '7', currency: 'EUR', payee: pendingPayee });

describe('simulator control routes', () => {
  it('settle: POST /_simulator/operations/{referenceId}/settle ends a PENDING operation', async () => {
    const { referenceId, wait } = await deposit();
    const response = await post(`operations/${referenceId}/settle`, {
      status: 'FAILED',
      reason: { code: 'EXPIRED', message: 'Too late.' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ referenceId, status: 'FAILED' });
    expect(await wait()).toMatchObject({ status: 'FAILED', reason: { code: 'EXPIRED' } });

    const again = await post(`operations/${referenceId}/settle`, { status: 'SUCCESSFUL' });
    expect(again.status).toBe(409);
    const unknown = await post(`operations/${crypto.randomUUID()}/settle`, { status: 'FAILED' });
    expect(unknown.status).toBe(404);
    const bad = await post(`operations/${referenceId}/settle`, { status: 'DONE' });
    expect(bad.status).toBe(400);
    expect(
      (await post(`operations/${referenceId}/settle`, { status: 'FAILED', reason: 'x' })).status,
    ).toBe(400);
  });

  it('consent: approve and deny a pending consent request', async () => {
    const momo = sim.client();
    const msisdn = '46733123453'; // never answers by itself
    const approved = await momo.consent.authorize({
      msisdn,
      scope: 'profile',
      accessType: 'offline',
    });
    const denied = await momo.consent.authorize({
      msisdn,
      scope: 'profile',
      accessType: 'offline',
    });
    const ok = await post(`consent/${approved.authReqId}/approve`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ authReqId: approved.authReqId, status: 'approved' });
    expect((await post(`consent/${denied.authReqId}/deny`)).status).toBe(200);
    await expect(approved.wait()).resolves.toMatchObject({ accessToken: expect.any(String) });
    await expect(denied.wait()).rejects.toMatchObject({ name: 'ConsentDeniedError' });
    expect((await post(`consent/${denied.authReqId}/approve`)).status).toBe(409);
    expect((await post('consent/nope/deny')).status).toBe(404);
  });

  it('faults: POST /_simulator/faults arms a fault of the simulator’s fault model', async () => {
    const armed = await post('faults', {
      kind: 'status',
      status: 503,
      match: 'GET /disbursement/v1_0/account/balance',
    });
    expect(armed.status).toBe(201);
    const momo = sim.client({ maxRetries: 0 });
    await expect(momo.disbursement.getBalance()).rejects.toMatchObject({ status: 503 });
    await expect(momo.disbursement.getBalance()).resolves.toMatchObject({ currency: 'EUR' });

    expect((await post('faults', { kind: 'explode' })).status).toBe(400);
    expect((await post('faults', { kind: 'status', status: 999 })).status).toBe(400);
    expect((await post('faults', { kind: 'drop-after-processing', times: 0 })).status).toBe(400);
    expect((await post('faults', 'not json')).status).toBe(400);
  });

  it('faults: a delay fault armed over HTTP holds the answer of a processed creating call', async () => {
    const armed = await post('faults', {
      kind: 'delay',
      ms: 1_000,
      match: 'POST /disbursement/v1_0/deposit',
    });
    expect(armed.status).toBe(201);
    const momo = new MomoClient({ ...sim.credentials, baseUrl: server.url });
    const referenceId = crypto.randomUUID();
    let answered = false;
    const sent = momo.disbursement
      .deposit({ amount: '3', currency: 'EUR', payee: pendingPayee }, { referenceId })
      .finally(() => {
        answered = true;
      });
    // Stored while the client still waits for its 202: the crash window of a creating call.
    await expect.poll(() => sim.transaction(referenceId)?.status).toBe('PENDING');
    expect(answered).toBe(false);
    await expect(sent).resolves.toMatchObject({ referenceId });

    expect((await post('faults', { kind: 'delay' })).status).toBe(400);
    expect((await post('faults', { kind: 'delay', ms: '5' })).status).toBe(400);
    expect((await post('faults', { kind: 'delay', ms: -1 })).status).toBe(400);
  });

  it('the payer page offers the delay fault', async () => {
    const page = await (await fetch(`${server.url}/_simulator/`)).text();
    expect(page).toContain('<option value="delay">');
  });

  it('state and reset', async () => {
    const { referenceId } = await deposit();
    const state = await (await fetch(`${server.url}/_simulator/state`)).json();
    expect(state.transactions).toEqual([
      expect.objectContaining({ referenceId, status: 'PENDING' }),
    ]);
    expect(state.credentials).toMatchObject({ targetEnvironment: 'sandbox' });
    expect((await post('reset')).status).toBe(204);
    const after = await (await fetch(`${server.url}/_simulator/state`)).json();
    expect(after.transactions).toEqual([]);
  });

  it('wrong method is 405, an unknown control route 404; sim.fetch does not serve them', async () => {
    expect((await fetch(`${server.url}/_simulator/faults`)).status).toBe(405);
    expect((await post('state')).status).toBe(405);
    expect((await post('nothing')).status).toBe(404);
    const viaFetch = await sim.fetch('/_simulator/state');
    expect(viaFetch.status).toBe(404);
    expect(await viaFetch.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
