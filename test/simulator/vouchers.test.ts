import { describe, expect, it } from 'vitest';
import { capture, rawClient, simulator } from './helpers';

const redeemPath = (token: string) => `/collection/v2_0/voucher/${token}/redeem`;
const otpPath = (token: string) => `/collection/v3_0/voucher/${token}/otp/cancel`;

const redeem = (extra: Record<string, unknown> = {}) => ({
  externalId: 'voucher-1',
  receiver: {
    firstName: 'Sand',
    surname: 'Box',
    birthDate: '1990-01-31',
    identificationType: 'PASS',
    identification: '123456',
    msisdn: '46700000001',
    languageCode: 'en',
  },
  otp: 'ABC123',
  secret: 'S3cret',
  ...extra,
});

describe('simulator: voucher redeem', () => {
  it('accepts 202, stores collection.redeemVoucher, credits the account, calls back by PUT', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const http = rawClient(sim);
    const { referenceId, response } = await http.create(redeemPath('VOUCHER_abc-1'), redeem(), {
      callbackUrl: 'https://partner.example/v',
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
    const tx = sim.transaction(referenceId);
    expect(tx).toMatchObject({
      operation: 'collection.redeemVoucher',
      status: 'SUCCESSFUL',
      body: redeem(),
    });
    expect(calls).toEqual([
      {
        url: 'https://partner.example/v',
        method: 'PUT',
        body: {
          amount: '100',
          currency: 'EUR',
          financialTransactionId: tx?.financialTransactionId,
          externalId: 'voucher-1',
          status: 'SUCCESSFUL',
        },
      },
    ]);
    const balance = await http.send('GET', '/collection/v1_0/account/balance');
    expect(await balance.json()).toMatchObject({ availableBalance: '1000100.00' });
  });

  it('accepts Basic credentials and a receiver known only by alias', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const { response } = await http.create(
      redeemPath('v1'),
      { receiver: { alias: 'sandbox-user' } },
      { authorization: http.basic() },
    );
    expect(response.status).toBe(202);
  });

  it('settles an unknown voucher FAILED with NOT_FOUND, and still calls back', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const { referenceId } = await rawClient(sim).create(redeemPath('unknown-1'), redeem(), {
      callbackUrl: 'https://partner.example/v',
    });
    expect(sim.transaction(referenceId)).toMatchObject({
      status: 'FAILED',
      reason: { code: 'NOT_FOUND', message: 'The voucher was not found.' },
    });
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      body: { status: 'FAILED', reason: { code: 'NOT_FOUND' } },
    });
  });

  it("uses the receiver's magic MSISDN, and fails a second redemption with NOT_ALLOWED", async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const rejected = await http.create(
      redeemPath('v2'),
      redeem({ receiver: { msisdn: '46733123451' } }),
    );
    const first = await http.create(redeemPath('v3'), redeem());
    const second = await http.create(redeemPath('v3'), redeem());
    expect(sim.transaction(rejected.referenceId)?.reason?.code).toBe('APPROVAL_REJECTED');
    expect(sim.transaction(first.referenceId)?.status).toBe('SUCCESSFUL');
    expect(sim.transaction(second.referenceId)).toMatchObject({
      status: 'FAILED',
      reason: { code: 'NOT_ALLOWED' },
    });
  });

  it.each([
    ['a token over 128 characters', 'v'.repeat(129), redeem()],
    ['a token with a dot', 'a.b', redeem()],
    ['no receiver', 'v4', { externalId: 'x' }],
    ['a receiver without identifier', 'v4', redeem({ receiver: { firstName: 'Sand' } })],
    [
      'a bad identificationType',
      'v4',
      redeem({ receiver: { alias: 'a', identificationType: 'X' } }),
    ],
    [
      'a non-numeric identification',
      'v4',
      redeem({ receiver: { alias: 'a', identification: 'A1' } }),
    ],
    ['a bad receiver msisdn', 'v4', redeem({ receiver: { msisdn: 'abc' } })],
    ['a bad receiver email', 'v4', redeem({ receiver: { email: 'nope' } })],
    ['a bad birthDate', 'v4', redeem({ receiver: { alias: 'a', birthDate: '31/01/1990' } })],
    ['a numeric otp', 'v4', redeem({ otp: 1234 })],
  ])('answers 400 to %s and stores nothing', async (_, token, body) => {
    const sim = simulator();
    const { response } = await rawClient(sim).create(redeemPath(token), body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
    expect(sim.transactions).toHaveLength(0);
  });

  it('has no status lookup (the spec shows none)', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const { referenceId } = await http.create(redeemPath('v5'), redeem());
    const response = await http.get(`/collection/v2_0/voucher/v5/redeem/${referenceId}`);
    expect(response.status).toBe(404);
    expect((await http.get(redeemPath('v5'))).status).toBe(405);
  });
});

describe('simulator: voucher OTP (cancel)', () => {
  it('answers 200 {type: CANCEL, msisdn}, the same MSISDN for the same token', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const first = await http.get(otpPath('VOUCHER-1'));
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toEqual({ type: 'CANCEL', msisdn: expect.stringMatching(/^46700\d{6}$/) });
    const again = await http.send('GET', otpPath('VOUCHER-1'), {
      headers: { Authorization: http.basic() },
    });
    expect(await again.json()).toEqual(body);
  });

  it('answers 404 RESOURCE_NOT_FOUND to an unknown voucher and 400 to a malformed token', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const unknown = await http.get(otpPath('unknown-voucher'));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: expect.any(String),
    });
    const malformed = await http.get(otpPath('bad%20token'));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
  });

  it('requires X-Target-Environment and valid credentials', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const token = await http.token('collection');
    const missing = await sim.fetch(`${sim.credentials.baseUrl}${otpPath('v1')}`, {
      headers: {
        'Ocp-Apim-Subscription-Key': sim.credentials.subscriptionKey,
        Authorization: `Bearer ${token}`,
      },
    });
    expect(missing.status).toBe(400);
    const unauthorized = await http.send('GET', otpPath('v1'));
    expect(unauthorized.status).toBe(401);
  });
});
