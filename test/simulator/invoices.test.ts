import { afterEach, describe, expect, it, vi } from 'vitest';
import { capture, party, rawClient, type Sim, simulator, uuidv4 } from './helpers';

// Invoices over HTTP, on the paths and with the headers of the provider's document.
const CREATE = '/collection/v2_0/invoice';

const invoice = (payer = '46700000001', extra: Record<string, unknown> = {}) => ({
  externalId: 'inv-1',
  amount: '250',
  currency: 'EUR',
  validityDuration: '3600',
  intendedPayer: party(payer),
  payee: party('46700000005'),
  description: 'Water bill',
  ...extra,
});

afterEach(() => {
  vi.useRealTimers();
});

async function lookup(sim: Sim, referenceId: string) {
  const response = await rawClient(sim).get(`${CREATE}/${referenceId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function cancel(
  sim: Sim,
  invoiceId: string,
  options: { referenceId?: string; callbackUrl?: string; body?: unknown } = {},
) {
  const http = rawClient(sim);
  const referenceId = options.referenceId ?? uuidv4();
  const response = await http.send('DELETE', `${CREATE}/${invoiceId}`, {
    headers: {
      Authorization: `Bearer ${await http.token('collection')}`,
      'X-Reference-Id': referenceId,
      'Content-Type': 'application/json',
      ...(options.callbackUrl ? { 'X-Callback-Url': options.callbackUrl } : {}),
    },
    body: options.body ?? { externalId: 'inv-1' },
  });
  return { referenceId, response };
}

const balance = async (sim: Sim) =>
  (await (await rawClient(sim).get('/collection/v1_0/account/balance')).json()).availableBalance;

describe('simulator: invoices', () => {
  it('is CREATED, then SUCCESSFUL once paid: PUT callback, the collection account credited', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 60_000, callbackFetch, initialBalance: '0' });
    const http = rawClient(sim);
    const { referenceId, response } = await http.create(CREATE, invoice(), {
      callbackUrl: 'https://partner.test/inv',
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
    const tx = sim.transaction(referenceId);
    const created = await lookup(sim, referenceId);
    expect(created).toEqual({
      referenceId,
      externalId: 'inv-1',
      amount: '250',
      currency: 'EUR',
      status: 'CREATED',
      paymentReference: tx?.financialTransactionId,
      invoiceId: expect.any(String),
      expiryDateTime: new Date((tx?.createdAt ?? 0) + 3_600_000).toISOString(),
      payeeFirstName: expect.any(String),
      payeeLastName: expect.any(String),
      intendedPayer: party('46700000001'),
      description: 'Water bill',
    });
    expect(tx).toMatchObject({
      kind: 'invoice',
      payer: party('46700000001'),
      payee: party('46700000005'),
      amount: '250',
      currency: 'EUR',
      status: 'PENDING',
    });

    sim.settle(referenceId, 'SUCCESSFUL'); // the payer pays now
    const paid = await lookup(sim, referenceId);
    expect(paid).toMatchObject({ referenceId, status: 'SUCCESSFUL' });
    expect(paid.errorReason).toBeUndefined();
    expect(calls).toEqual([{ url: 'https://partner.test/inv', method: 'PUT', body: paid }]);
    expect(await balance(sim)).toBe('250.00');
  });

  it('a normal payer pays after settleMs', async () => {
    const sim = simulator({ settleMs: 0 });
    const { referenceId } = await rawClient(sim).create(CREATE, invoice());
    expect((await lookup(sim, referenceId)).status).toBe('SUCCESSFUL');
  });

  it('FAILED with EXPIRED when validityDuration runs out unpaid (fake timers)', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 100, callbackFetch });
    const http = rawClient(sim);
    // 46733123452 never pays; 46733123453 pays when told; a number validity is accepted too.
    const lapsed = await http.create(CREATE, invoice('46733123452', { validityDuration: 2 }), {
      callbackUrl: 'https://partner.test/a',
    });
    const waiting = await http.create(CREATE, invoice('46733123453', { validityDuration: '2' }));
    await vi.advanceTimersByTimeAsync(1_999);
    expect((await lookup(sim, lapsed.referenceId)).status).toBe('CREATED');
    await vi.advanceTimersByTimeAsync(1);
    const body = await lookup(sim, lapsed.referenceId);
    expect(body).toMatchObject({
      status: 'FAILED',
      errorReason: { code: 'EXPIRED', message: expect.any(String) },
    });
    expect(body.reason).toBeUndefined();
    expect(calls).toEqual([{ url: 'https://partner.test/a', method: 'PUT', body }]);
    expect((await lookup(sim, waiting.referenceId)).status).toBe('FAILED');
  });

  it('a validity shorter than settleMs expires before the payer pays', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    const sim = simulator({ settleMs: 5_000 });
    const { referenceId } = await rawClient(sim).create(
      CREATE,
      invoice('46700000001', { validityDuration: 1 }),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await lookup(sim, referenceId)).toMatchObject({
      status: 'FAILED',
      errorReason: { code: 'EXPIRED' },
    });
  });

  it.each([
    ['46733123451', 'APPROVAL_REJECTED'],
    ['46733123456', 'PAYER_NOT_FOUND'],
  ])('the payer %s fails it with %s', async (payer, code) => {
    const sim = simulator({ settleMs: 0 });
    const { referenceId } = await rawClient(sim).create(CREATE, invoice(payer));
    expect(await lookup(sim, referenceId)).toMatchObject({
      status: 'FAILED',
      errorReason: { code },
    });
  });

  it('DELETE with its own X-Reference-Id cancels a CREATED invoice; both callbacks by PUT', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const http = rawClient(sim);
    const { referenceId } = await http.create(CREATE, invoice('46733123453'), {
      callbackUrl: 'https://partner.test/inv',
    });
    const cancelled = await cancel(sim, referenceId, {
      callbackUrl: 'https://partner.test/cancel',
    });
    expect(cancelled.response.status).toBe(200);
    expect(await cancelled.response.text()).toBe('');
    const body = await lookup(sim, referenceId);
    expect(body).toMatchObject({
      status: 'FAILED',
      errorReason: { code: 'TRANSACTION_CANCELED' },
    });
    expect(calls).toEqual([
      { url: 'https://partner.test/inv', method: 'PUT', body },
      { url: 'https://partner.test/cancel', method: 'PUT', body },
    ]);
    expect(sim.transaction(cancelled.referenceId)).toMatchObject({
      kind: 'invoiceCancellation',
      operation: 'collection.cancelInvoice',
      status: 'SUCCESSFUL',
      body: { externalId: 'inv-1' },
    });
    const request = sim.requests.find((r) => r.method === 'DELETE');
    expect(request).toMatchObject({
      method: 'DELETE',
      path: `${CREATE}/${referenceId}`,
      headers: { 'x-reference-id': cancelled.referenceId },
      body: { externalId: 'inv-1' },
    });

    // The same X-Reference-Id again: 409 (it landed); a new one: 400, no longer CREATED.
    const replay = await cancel(sim, referenceId, { referenceId: cancelled.referenceId });
    expect(replay.response.status).toBe(409);
    const late = await cancel(sim, referenceId);
    expect(late.response.status).toBe(400);
    expect(await late.response.json()).toMatchObject({ code: 'NOT_ALLOWED' });
  });

  it('a cancel whose answer was lost is seen to have landed: 409 for the same X-Reference-Id', async () => {
    const sim = simulator({ settleMs: 0 });
    const { referenceId } = await rawClient(sim).create(CREATE, invoice('46733123453'));
    sim.inject({ kind: 'drop-after-processing', match: `DELETE ${CREATE}/${referenceId}` });
    const cancelId = uuidv4();
    await expect(cancel(sim, referenceId, { referenceId: cancelId })).rejects.toThrow(TypeError);
    expect(sim.transaction(referenceId)?.reason?.code).toBe('TRANSACTION_CANCELED');
    const retry = await cancel(sim, referenceId, { referenceId: cancelId });
    expect(retry.response.status).toBe(409);
    expect(sim.transactions.filter((tx) => tx.kind === 'invoiceCancellation')).toHaveLength(1);
  });

  it('cancel: 404 for an unknown invoice or another operation; 400 for bad headers or body', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    expect((await cancel(sim, uuidv4())).response.status).toBe(404);
    const rtp = await http.create('/collection/v1_0/requesttopay', {
      amount: '1',
      currency: 'EUR',
      payer: party('46733123453'),
    });
    expect((await cancel(sim, rtp.referenceId)).response.status).toBe(404);
    const { referenceId } = await http.create(CREATE, invoice('46733123453'));
    expect((await cancel(sim, 'not-a-uuid')).response.status).toBe(400);
    expect((await cancel(sim, referenceId, { referenceId: 'nope' })).response.status).toBe(400);
    expect((await cancel(sim, referenceId, { body: '[1' })).response.status).toBe(400);
    expect((await cancel(sim, referenceId, { body: { externalId: 7 } })).response.status).toBe(400);
    expect(
      (await cancel(sim, referenceId, { callbackUrl: 'ftp://partner.test' })).response.status,
    ).toBe(400);
    expect((await lookup(sim, referenceId)).status).toBe('CREATED');
    // An empty body is accepted: the document's body holds only an optional externalId.
    expect((await cancel(sim, referenceId, { body: '' })).response.status).toBe(200);
  });

  it('rejects bad data with 400 and a reused reference id with 409', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    for (const body of [
      { ...invoice(), amount: 250 },
      { ...invoice(), intendedPayer: undefined },
      invoice('46700000001', { validityDuration: '0' }),
      invoice('46700000001', { validityDuration: 'soon' }),
      invoice('46700000001', { payee: party('x') }),
      invoice('46700000001', { description: '<b>' }),
    ]) {
      const { response } = await http.create(CREATE, body);
      expect(response.status).toBe(400);
    }
    const other = await http.create(CREATE, invoice('46700000001', { currency: 'USD' }));
    expect(other.response.status).toBe(500);
    expect(await other.response.json()).toMatchObject({ code: 'INVALID_CURRENCY' });
    const { referenceId } = await http.create(CREATE, invoice());
    expect((await http.create(CREATE, invoice(), { referenceId })).response.status).toBe(409);
    expect((await http.get(`${CREATE}/${uuidv4()}`)).status).toBe(404);
    expect(sim.transactions).toHaveLength(1);
  });
});
