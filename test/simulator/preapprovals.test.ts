import { afterEach, describe, expect, it, vi } from 'vitest';
import { basic, capture, party, rawClient, type Sim, simulator, uuidv4 } from './helpers';

// Pre-approvals over HTTP (the SDK's methods for them are written elsewhere at the same
// time), on the paths and with the headers of the provider's collection document.
const CREATE = '/collection/v2_0/preapproval';
const listPath = (idType: string, id: string) => `/collection/v1_0/preapprovals/${idType}/${id}`;
const cancelPath = (id: string) => `/collection/v1_0/preapproval/${id}`;

const preApproval = (partyId = '46700000001', extra: Record<string, unknown> = {}) => ({
  payer: party(partyId),
  payerCurrency: 'EUR',
  payerMessage: 'Monthly plan',
  validityTime: 3600,
  ...extra,
});

afterEach(() => {
  vi.useRealTimers();
});

async function cancel(sim: Sim, preApprovalId: string, token?: string) {
  const http = rawClient(sim);
  return http.send('DELETE', cancelPath(preApprovalId), {
    headers: { Authorization: `Bearer ${token ?? (await http.token('collection'))}` },
  });
}

async function approved(sim: Sim, idType: string, id: string, token?: string) {
  const response = await rawClient(sim).get(listPath(idType, id), token);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>[];
}

describe('simulator: pre-approvals', () => {
  it('is PENDING until the payer approves, then SUCCESSFUL, listed as APPROVED until it expires', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date', 'setTimeout'] });
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 100, callbackFetch });
    const http = rawClient(sim);
    const { referenceId, response } = await http.create(CREATE, preApproval(), {
      callbackUrl: 'https://partner.test/cb',
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');

    const lookup = async () => (await http.get(`${CREATE}/${referenceId}`)).json();
    expect(await lookup()).toEqual({
      payer: party('46700000001'),
      payerCurrency: 'EUR',
      payerMessage: 'Monthly plan',
      status: 'PENDING',
    });
    expect(await approved(sim, 'msisdn', '46700000001')).toEqual([]);

    await vi.advanceTimersByTimeAsync(100);
    const approvedAt = Date.now();
    const expiresAt = approvedAt + 3_600_000;
    expect(await lookup()).toEqual({
      payer: party('46700000001'),
      payerCurrency: 'EUR',
      payerMessage: 'Monthly plan',
      status: 'SUCCESSFUL',
      expirationDateTime: expiresAt,
    });
    expect(calls).toEqual([
      {
        url: 'https://partner.test/cb',
        method: 'PUT',
        body: expect.objectContaining({ status: 'SUCCESSFUL', expirationDateTime: expiresAt }),
      },
    ]);
    const tx = sim.transaction(referenceId);
    expect(tx).toMatchObject({
      kind: 'preApproval',
      payer: party('46700000001'),
      status: 'SUCCESSFUL',
      preApproval: { state: 'APPROVED', expiresAt },
    });
    expect(tx?.amount).toBeUndefined();

    const list = await approved(sim, 'msisdn', '46700000001');
    expect(list).toEqual([
      {
        preApprovalId: tx?.preApproval?.preApprovalId,
        toFri: `FRI:${sim.credentials.apiUser.id}/USER`,
        fromFri: 'FRI:46700000001/MSISDN',
        fromCurrency: 'EUR',
        createdTime: new Date(approvedAt - 100).toISOString(),
        approvedTime: new Date(approvedAt).toISOString(),
        expiryTime: new Date(expiresAt).toISOString(),
        status: 'APPROVED',
        message: 'Monthly plan',
      },
    ]);
    expect(list[0]?.preApprovalId).not.toBe(referenceId);
    expect(await approved(sim, 'msisdn', '46700000002')).toEqual([]);

    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(await approved(sim, 'msisdn', '46700000001')).toEqual([]);
    expect(sim.transaction(referenceId)?.preApproval?.state).toBe('EXPIRED');
    expect((await lookup()).status).toBe('SUCCESSFUL');
  });

  it.each([
    ['46733123451', 'APPROVAL_REJECTED'],
    ['46733123452', 'EXPIRED'],
    ['46733123456', 'PAYER_NOT_FOUND'],
  ])('the payer %s declines: FAILED with %s, never listed', async (payer, code) => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const { referenceId } = await http.create(CREATE, preApproval(payer));
    const body = await (await http.get(`${CREATE}/${referenceId}`)).json();
    expect(body).toMatchObject({ status: 'FAILED', reason: { code } });
    expect(body.expirationDateTime).toBeUndefined();
    expect(await approved(sim, 'msisdn', payer)).toEqual([]);
  });

  it('waits for sim.decide() or the control route when the payer never answers', async () => {
    const sim = simulator({ settleMs: 0 });
    const server = await sim.listen();
    try {
      const http = rawClient(sim, fetch, server.url);
      const first = await http.create(CREATE, preApproval('46733123453'));
      const second = await http.create(CREATE, preApproval('46733123454'));
      expect(sim.transaction(first.referenceId)?.status).toBe('PENDING');
      sim.decide(first.referenceId, 'approve');
      const decline = await fetch(
        `${server.url}/_simulator/operations/${second.referenceId}/decline`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
      );
      expect(decline.status).toBe(200);
      expect(await decline.json()).toMatchObject({ status: 'FAILED', kind: 'preApproval' });
      const one = await (await http.get(`${CREATE}/${first.referenceId}`)).json();
      expect(one.status).toBe('SUCCESSFUL');
      const two = await (await http.get(`${CREATE}/${second.referenceId}`)).json();
      expect(two).toMatchObject({ status: 'FAILED', reason: { code: 'APPROVAL_REJECTED' } });
      expect(await approved(sim, 'msisdn', '46733123453')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('cancels only an APPROVED one whose payee is the caller', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const { referenceId } = await http.create(CREATE, preApproval('46700000009'));
    const [listed] = await approved(sim, 'msisdn', '46700000009');
    const preApprovalId = String(listed?.preApprovalId);

    // Another API user (provisioned in the sandbox) is not the payee: it neither sees nor
    // cancels it.
    const other = uuidv4();
    await http.send('POST', '/v1_0/apiuser', {
      headers: { 'X-Reference-Id': other, 'Content-Type': 'application/json' },
      body: { providerCallbackHost: 'partner.test' },
    });
    const key = await (await http.send('POST', `/v1_0/apiuser/${other}/apikey`)).json();
    const token = await http.send('POST', '/collection/token/', {
      headers: { Authorization: basic(other, key.apiKey) },
    });
    const otherToken = (await token.json()).access_token as string;
    expect(await approved(sim, 'msisdn', '46700000009', otherToken)).toEqual([]);
    const foreign = await cancel(sim, preApprovalId, otherToken);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });

    // The reference id is not the pre-approval id; an unknown id is 404 too.
    expect((await cancel(sim, referenceId)).status).toBe(404);
    expect((await cancel(sim, uuidv4())).status).toBe(404);

    const ok = await cancel(sim, preApprovalId);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('');
    expect(await approved(sim, 'msisdn', '46700000009')).toEqual([]);
    expect(sim.transaction(referenceId)?.preApproval?.state).toBe('CANCELLED');

    const again = await cancel(sim, preApprovalId);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: 'NOT_ALLOWED' });
  });

  it('a PENDING or FAILED one is not approved: no pre-approval state, nothing listed', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    await http.create(CREATE, preApproval('46733123453'));
    await http.create(CREATE, preApproval('46733123451'));
    for (const tx of sim.transactions) {
      expect(tx.preApproval).toBeUndefined();
    }
    expect(sim.transactions.map((tx) => tx.status)).toEqual(['PENDING', 'FAILED']);
    expect(await approved(sim, 'msisdn', '46733123453')).toEqual([]);
  });

  it('lists by email and by party code; without validityTime it does not expire', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const code = uuidv4();
    await http.create(CREATE, { payer: { partyIdType: 'EMAIL', partyId: 'ann@example.com' } });
    await http.create(CREATE, { payer: { partyIdType: 'PARTY_CODE', partyId: code } });
    const byEmail = await approved(sim, 'email', 'Ann@Example.com');
    expect(byEmail).toHaveLength(1);
    expect(byEmail[0]).toMatchObject({ fromFri: 'FRI:ann@example.com/EMAIL', message: '' });
    expect(byEmail[0]?.expiryTime).toBeUndefined();
    expect(await approved(sim, 'id', code)).toHaveLength(1);
    expect(await approved(sim, 'alias', 'ann')).toEqual([]);
  });

  it('rejects bad data with 400, a bad id type with 400, a reused reference id with 409', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    for (const body of [
      {},
      { payer: party('0123') },
      preApproval('46700000001', { validityTime: -5 }),
      preApproval('46700000001', { validityTime: 1.5 }),
      preApproval('46700000001', { payerCurrency: 'euro' }),
      preApproval('46700000001', { payerMessage: "it's" }),
    ]) {
      const { response } = await http.create(CREATE, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'BAD_REQUEST' });
    }
    const v1 = await http.create(CREATE, preApproval(), {
      referenceId: uuidv4().replace(/^(.{14})4/, '$11'),
    });
    expect(v1.response.status).toBe(400);
    const { referenceId } = await http.create(CREATE, preApproval());
    const reused = await http.create(CREATE, preApproval(), { referenceId });
    expect(reused.response.status).toBe(409);
    expect(await reused.response.json()).toEqual({
      code: 'RESOURCE_ALREADY_EXIST',
      message: 'Duplicated reference id. Creation of resource failed.',
    });
    expect((await http.get(listPath('MSISDN', '46700000001'))).status).toBe(400);
    expect((await http.get(listPath('msisdn', 'abc'))).status).toBe(400);
    expect((await http.get(`${CREATE}/not-a-uuid`)).status).toBe(400);
    expect((await http.get(`${CREATE}/${uuidv4()}`)).status).toBe(404);
    expect(sim.transactions).toHaveLength(1);
  });

  it('needs a collection token and X-Target-Environment', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const disbursement = await http.token('disbursement');
    const refused = await http.create(CREATE, preApproval(), { token: disbursement });
    expect(refused.response.status).toBe(401);
    const token = await http.token('collection');
    const noEnvironment = await sim.fetch(`${sim.credentials.baseUrl}${CREATE}`, {
      method: 'POST',
      headers: {
        'Ocp-Apim-Subscription-Key': sim.credentials.subscriptionKey,
        Authorization: `Bearer ${token}`,
        'X-Reference-Id': uuidv4(),
      },
      body: JSON.stringify(preApproval()),
    });
    expect(noEnvironment.status).toBe(400);
    expect(sim.transactions).toHaveLength(0);
  });
});
