import { afterEach, describe, expect, it, vi } from 'vitest';
import { deposit, rawClient, simulator, uuidv4 } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

const magic: [string, string, string | undefined][] = [
  ['46733123450', 'FAILED', 'INTERNAL_PROCESSING_ERROR'],
  ['46733123451', 'FAILED', 'APPROVAL_REJECTED'],
  ['46733123452', 'FAILED', 'EXPIRED'],
  ['46733123453', 'PENDING', undefined],
  ['46733123454', 'PENDING', undefined],
  ['46733123455', 'FAILED', 'NOT_ENOUGH_FUNDS'],
  ['46733123456', 'FAILED', 'PAYEE_NOT_FOUND'],
  ['46733123457', 'SUCCESSFUL', undefined],
  ['46733123460', 'FAILED', 'NOT_ALLOWED'],
  ['46733123461', 'FAILED', 'PAYER_LIMIT_REACHED'],
  ['46733123462', 'FAILED', 'PAYEE_NOT_ALLOWED_TO_RECEIVE'],
  ['46733123999', 'SUCCESSFUL', undefined],
  // Any country's format: the last six digits decide.
  ['233244123451', 'FAILED', 'APPROVAL_REJECTED'],
  ['256772123455', 'FAILED', 'NOT_ENOUGH_FUNDS'],
  ['233244123453', 'PENDING', undefined],
  ['233241234450', 'SUCCESSFUL', undefined],
];

describe('simulator: outcomes and lookups', () => {
  it.each(magic)('payee %s ends %s %s', async (partyId, status, code) => {
    vi.useFakeTimers();
    const sim = simulator({ settleMs: 1_000 });
    const http = rawClient(sim);
    const token = await http.token();
    for (const operation of ['deposit', 'transfer']) {
      const path = `/disbursement/v1_0/${operation}`;
      const { referenceId } = await http.create(path, deposit(partyId), { token });
      const pending = await http.get(`${path}/${referenceId}`, token);
      expect(await pending.json()).toMatchObject({ status: 'PENDING' });
      vi.advanceTimersByTime(999);
      expect(sim.transaction(referenceId)?.status).toBe('PENDING');
      vi.advanceTimersByTime(20 * 60_000); // twice, within the token's hour
      const final = await http.get(`${path}/${referenceId}`, token);
      expect(final.status).toBe(200);
      const body = await final.json();
      expect(body).toMatchObject({
        amount: '100',
        currency: 'EUR',
        externalId: 'order-1',
        payee: { partyIdType: 'MSISDN', partyId },
        payerMessage: 'Thanks',
        payeeNote: 'Cash in',
        status,
      });
      expect(body.referenceId).toBeUndefined();
      if (code) expect(body.reason).toEqual({ code, message: expect.any(String) });
      else expect(body.reason).toBeUndefined();
      if (status === 'SUCCESSFUL') expect(body.financialTransactionId).toMatch(/^\d+$/);
      else expect(body.financialTransactionId).toBeUndefined();
    }
  });

  it('settles lazily on lookup from Date.now(), even when timers never fire', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const { referenceId } = await http.create('/disbursement/v1_0/deposit', deposit());
    const response = await http.get(`/disbursement/v1_0/deposit/${referenceId}`);
    expect(await response.json()).toMatchObject({ status: 'SUCCESSFUL' });
  });

  it('answers 404 RESOURCE_NOT_FOUND to an unknown id or one of another operation', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const { referenceId } = await http.create('/disbursement/v1_0/deposit', deposit());
    for (const path of [
      `/disbursement/v1_0/transfer/${referenceId}`,
      `/disbursement/v1_0/refund/${uuidv4()}`,
    ]) {
      const response = await http.get(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        code: 'RESOURCE_NOT_FOUND',
        message: 'Requested resource was not found.',
      });
    }
  });

  it('answers 400 to a lookup id that is not a UUID', async () => {
    const sim = simulator();
    const response = await rawClient(sim).get('/disbursement/v1_0/deposit/not-a-uuid');
    expect(response.status).toBe(400);
  });

  it('moves the balance: deposits and transfers debit, failures do not', async () => {
    vi.useFakeTimers();
    const sim = simulator({ initialBalance: '500.00', settleMs: 10 });
    const http = rawClient(sim);
    const token = await http.token();
    await http.create('/disbursement/v1_0/deposit', deposit('46700000001', { amount: '100.25' }), {
      token,
    });
    await http.create('/disbursement/v1_0/transfer', deposit('46733123450', { amount: '50' }), {
      token,
    });
    await http.create('/disbursement/v1_0/transfer', deposit('46700000001', { amount: '0.5' }), {
      token,
    });
    vi.advanceTimersByTime(10);
    const balance = await http.get('/disbursement/v1_0/account/balance', token);
    expect(await balance.json()).toEqual({ availableBalance: '399.25', currency: 'EUR' });
  });

  it('fails a debit larger than the balance with NOT_ENOUGH_FUNDS', async () => {
    const sim = simulator({ initialBalance: '10', settleMs: 0 });
    const http = rawClient(sim);
    const { referenceId } = await http.create(
      '/disbursement/v1_0/deposit',
      deposit('46700000001', { amount: '10.01' }),
    );
    expect(sim.transaction(referenceId)).toMatchObject({
      status: 'FAILED',
      reason: { code: 'NOT_ENOUGH_FUNDS' },
    });
  });

  it('refunds a successful transaction, and fails other refunds with NOT_ALLOWED', async () => {
    const sim = simulator({ settleMs: 0, initialBalance: '1000' });
    const http = rawClient(sim);
    const token = await http.token();
    const original = await http.create('/disbursement/v1_0/transfer', deposit(), { token });
    const failed = await http.create('/disbursement/v1_0/transfer', deposit('46733123451'), {
      token,
    });
    const refund = (referenceIdToRefund: string, amount = '40') =>
      http.create(
        '/disbursement/v1_0/refund',
        { amount, currency: 'EUR', referenceIdToRefund },
        { token },
      );
    const ok = await refund(original.referenceId);
    const tooMuch = await refund(original.referenceId, '60.01');
    const rest = await refund(original.referenceId, '60');
    const unknown = await refund(uuidv4());
    const unsuccessful = await refund(failed.referenceId);
    const status = async (id: string) =>
      (await (await http.get(`/disbursement/v1_0/refund/${id}`, token)).json()) as Record<
        string,
        unknown
      >;
    expect(await status(ok.referenceId)).toMatchObject({
      status: 'SUCCESSFUL',
      amount: '40',
      payee: { partyIdType: 'MSISDN', partyId: '46700000001' },
    });
    expect(await status(rest.referenceId)).toMatchObject({ status: 'SUCCESSFUL' });
    for (const id of [tooMuch.referenceId, unknown.referenceId, unsuccessful.referenceId]) {
      expect(await status(id)).toMatchObject({ status: 'FAILED', reason: { code: 'NOT_ALLOWED' } });
    }
    // 1000 - 100 (transfer) - 40 - 60 (refunds, paid from the partner's account)
    expect(
      await (await http.get('/disbursement/v1_0/account/balance', token)).json(),
    ).toMatchObject({
      availableBalance: '800.00',
    });
  });

  it('settle() forces an outcome, also for a forever-pending payee', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const a = await http.create('/disbursement/v1_0/deposit', deposit('46733123453'));
    const b = await http.create('/disbursement/v1_0/deposit', deposit('46733123454'));
    expect(sim.transaction(a.referenceId)?.status).toBe('PENDING');
    sim.settle(a.referenceId, 'SUCCESSFUL');
    sim.settle(b.referenceId, 'FAILED', { code: 'TRANSACTION_CANCELED', message: 'Cancelled.' });
    expect(sim.transaction(a.referenceId)?.status).toBe('SUCCESSFUL');
    const response = await http.get(`/disbursement/v1_0/deposit/${b.referenceId}`);
    expect(await response.json()).toMatchObject({
      status: 'FAILED',
      reason: { code: 'TRANSACTION_CANCELED', message: 'Cancelled.' },
    });
    expect(() => sim.settle(a.referenceId, 'FAILED')).toThrow(/already SUCCESSFUL/);
    expect(() => sim.settle(uuidv4(), 'FAILED')).toThrow(/no transaction/);
  });

  it('settle() can fail a transaction before its time', async () => {
    const sim = simulator({ settleMs: 60_000 });
    const { referenceId } = await rawClient(sim).create('/disbursement/v1_0/deposit', deposit());
    sim.settle(referenceId, 'FAILED');
    expect(sim.transaction(referenceId)?.reason?.code).toBe('INTERNAL_PROCESSING_ERROR');
  });

  it('looks up consent payments: transfer at /transfer/{id}, merchant payment with referenceId', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const { accessToken } = sim.grantConsent({ msisdn: '46733123451' });
    const transfer = await http.create(
      '/disbursement/oauth2/v1_0/transfer',
      { amount: '7' },
      { token: accessToken },
    );
    const payment = await http.create(
      '/disbursement/oauth2/v1_0/merchantpayment',
      { amount: '8' },
      { token: accessToken },
    );
    const byTransfer = await http.get(`/disbursement/v1_0/transfer/${transfer.referenceId}`);
    expect(await byTransfer.json()).toEqual({
      amount: '7',
      currency: 'EUR',
      payee: { partyIdType: 'MSISDN', partyId: '46733123451' },
      status: 'FAILED',
      reason: { code: 'APPROVAL_REJECTED', message: expect.any(String) },
    });
    const byPayment = await http.get(
      `/disbursementwithnewcapabilities/oauth2/v1_0/merchantpayment/${payment.referenceId}`,
    );
    expect(byPayment.status).toBe(200);
    expect(await byPayment.json()).toMatchObject({
      referenceId: payment.referenceId,
      amount: '8',
      status: 'FAILED',
    });
  });

  it('reset() empties transactions, callbacks, requests and faults, and restores the balance', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const token = await http.token();
    await http.create('/disbursement/v1_0/deposit', deposit(), { token });
    sim.inject({ kind: 'status', status: 503 });
    sim.reset();
    expect(sim.transactions).toHaveLength(0);
    expect(sim.requests).toHaveLength(0);
    const balance = await http.get('/disbursement/v1_0/account/balance', token);
    expect(balance.status).toBe(200);
    expect(await balance.json()).toMatchObject({ availableBalance: '1000000.00' });
  });
});

describe('simulator: inactive numbers in any format', () => {
  it('answers inactive for numbers ending 123456, 123460 and 123462, active otherwise', async () => {
    const { createSimulator } = await import('momo-partner-sdk/testing');
    const momo = createSimulator().client();
    const active = async (msisdn: string) =>
      momo.disbursement.isAccountHolderActive('msisdn', msisdn);
    for (const msisdn of ['46733123456', '233244123460', '256772123462']) {
      expect(await active(msisdn), msisdn).toBe(false);
    }
    for (const msisdn of ['233244123999', '256772123455', '46733123461']) {
      expect(await active(msisdn), msisdn).toBe(true);
    }
  });
});
