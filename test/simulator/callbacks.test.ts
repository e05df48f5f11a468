import { afterEach, describe, expect, it, vi } from 'vitest';
import { deposit, rawClient, simulator } from './helpers';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function capture(status = 200) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const callbackFetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      body: JSON.parse(String(init?.body)),
    });
    return new Response(null, { status });
  });
  return { calls, callbackFetch: callbackFetch as unknown as typeof fetch };
}

describe('simulator: callbacks', () => {
  it('sends deposit and refund callbacks by POST, from the timer, with the lookup body', async () => {
    vi.useFakeTimers();
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 50, callbackFetch });
    const http = rawClient(sim);
    const token = await http.token();
    const url = 'https://partner.example/momo/cb';
    const dep = await http.create('/disbursement/v1_0/deposit', deposit(), {
      token,
      callbackUrl: url,
    });
    vi.advanceTimersByTime(50);
    const refund = await http.create(
      '/disbursement/v1_0/refund',
      { amount: '10', currency: 'EUR', referenceIdToRefund: dep.referenceId },
      { token, callbackUrl: `${url}?r=1` },
    );
    expect(calls).toHaveLength(1);
    vi.advanceTimersByTime(50);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`POST ${url}`, `POST ${url}?r=1`]);
    const lookup = await http.get(`/disbursement/v1_0/deposit/${dep.referenceId}`, token);
    expect(calls[0]?.body).toEqual(await lookup.json());
    expect(calls[0]?.body).not.toHaveProperty('referenceId');
    expect(calls[1]?.body).toMatchObject({ amount: '10', status: 'SUCCESSFUL' });
    await vi.waitFor(() => expect(sim.callbacks.map((c) => c.status)).toEqual([200, 200]));
    expect(sim.callbacks[1]).toMatchObject({ url: `${url}?r=1`, method: 'POST' });
    expect(refund.response.status).toBe(202);
  });

  it('sends transfer, consent transfer and merchant payment callbacks by PUT, FAILED ones too', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const http = rawClient(sim);
    const { accessToken } = sim.grantConsent({ msisdn: '46700000003' });
    const callbackUrl = 'http://127.0.0.1:9/cb';
    await http.create('/disbursement/v1_0/transfer', deposit('46733123456'), { callbackUrl });
    await http.create(
      '/disbursement/oauth2/v1_0/transfer',
      { amount: '1' },
      { token: accessToken, callbackUrl },
    );
    const payment = await http.create(
      '/disbursement/oauth2/v1_0/merchantpayment',
      { amount: '2' },
      { token: accessToken, callbackUrl },
    );
    expect(sim.transactions.every((tx) => tx.status !== 'PENDING')).toBe(true);
    expect(calls.map((c) => c.method)).toEqual(['PUT', 'PUT', 'PUT']);
    expect(calls[0]?.body).toMatchObject({ status: 'FAILED', reason: { code: 'PAYEE_NOT_FOUND' } });
    expect(calls[2]?.body).toEqual({
      amount: '2',
      currency: 'EUR',
      financialTransactionId: sim.transaction(payment.referenceId)?.financialTransactionId,
      payee: { partyIdType: 'MSISDN', partyId: '46700000003' },
      status: 'SUCCESSFUL',
    });
  });

  it('sends nothing without X-Callback-Url, and nothing while PENDING', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const http = rawClient(sim);
    await http.create('/disbursement/v1_0/deposit', deposit());
    const pending = await http.create('/disbursement/v1_0/deposit', deposit('46733123453'), {
      callbackUrl: 'https://partner.example/cb',
    });
    expect(sim.transactions).toHaveLength(2);
    expect(calls).toHaveLength(0);
    sim.settle(pending.referenceId, 'FAILED');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toMatchObject({
      status: 'FAILED',
      reason: { code: 'INTERNAL_PROCESSING_ERROR' },
    });
  });

  it('records a failed delivery and a non-2xx answer, and never throws', async () => {
    const failing = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    const sim = simulator({ settleMs: 0, callbackFetch: failing as unknown as typeof fetch });
    const http = rawClient(sim);
    await http.create('/disbursement/v1_0/deposit', deposit(), {
      callbackUrl: 'https://down.example/cb',
    });
    await vi.waitFor(() => expect(sim.callbacks[0]?.error).toBe('fetch failed'));
    const { callbackFetch } = capture(500);
    const other = simulator({ settleMs: 0, callbackFetch });
    await rawClient(other).create('/disbursement/v1_0/deposit', deposit(), {
      callbackUrl: 'https://partner.example/cb',
    });
    await vi.waitFor(() => expect(other.callbacks[0]?.status).toBe(500));
  });

  it('uses globalThis.fetch looked up at send time when no callbackFetch is given', async () => {
    const sim = simulator({ settleMs: 0, callbackHosts: ['partner.example'] });
    const { calls, callbackFetch } = capture(204);
    vi.stubGlobal('fetch', callbackFetch);
    await rawClient(sim).create('/disbursement/v1_0/deposit', deposit(), {
      callbackUrl: 'https://partner.example/cb',
    });
    await vi.waitFor(() => expect(sim.callbacks[0]?.status).toBe(204));
    expect(calls).toHaveLength(1);
  });
});
