import { afterEach, describe, expect, it, vi } from 'vitest';
import { basic, deposit, rawClient, simulator } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

describe('simulator: subscription key and credentials', () => {
  it('issues an access token for the configured API user', async () => {
    const sim = simulator({ tokenTtlSeconds: 120 });
    const http = rawClient(sim);
    const { apiUser } = sim.credentials;
    const response = await http.send('POST', '/disbursement/token/', {
      headers: { Authorization: basic(apiUser.id, apiUser.key) },
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: 'access_token',
      expires_in: 120,
    });
    expect(body.access_token.split('.')).toHaveLength(3);
  });

  it('rejects bad Basic credentials with 401 {error}', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    for (const authorization of [basic(sim.credentials.apiUser.id, 'wrong'), 'Basic !!', '']) {
      const response = await http.send('POST', '/disbursement/token/', {
        headers: { Authorization: authorization },
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'login_failed' });
    }
  });

  it('rejects a body on the token endpoint with 400', async () => {
    const sim = simulator();
    const { apiUser } = sim.credentials;
    const response = await rawClient(sim).send('POST', '/disbursement/token/', {
      headers: { Authorization: basic(apiUser.id, apiUser.key) },
      body: { grant_type: 'client_credentials' },
    });
    expect(response.status).toBe(400);
  });

  it('answers 401 {error} to a missing or wrong subscription key, on every endpoint', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const token = await http.token();
    for (const key of [undefined, 'not-the-key']) {
      const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
      if (key !== undefined) headers['Ocp-Apim-Subscription-Key'] = key;
      const plain = await sim.fetch(
        `${sim.credentials.baseUrl}/disbursement/v1_0/account/balance`,
        {
          headers: { ...headers, 'X-Target-Environment': 'sandbox' },
        },
      );
      expect(plain.status).toBe(401);
      expect(await plain.json()).toEqual({
        error: key === undefined ? 'missing_subscription_key' : 'invalid_subscription_key',
      });
    }
    const tokenCall = await sim.fetch(`${sim.credentials.baseUrl}/disbursement/token/`, {
      method: 'POST',
      headers: { Authorization: basic(sim.credentials.apiUser.id, sim.credentials.apiUser.key) },
    });
    expect(tokenCall.status).toBe(401);
  });

  it('answers 401 {error} to a missing, unknown or expired Bearer token', async () => {
    vi.useFakeTimers();
    const sim = simulator({ tokenTtlSeconds: 60 });
    const http = rawClient(sim);
    const token = await http.token();
    const cases: [string | undefined, string][] = [
      [undefined, 'missing_token'],
      ['not-a-token', 'invalid_token'],
    ];
    for (const [value, error] of cases) {
      const response = await http.send('POST', '/disbursement/v1_0/deposit', {
        headers: {
          ...(value ? { Authorization: `Bearer ${value}` } : {}),
          'X-Reference-Id': crypto.randomUUID(),
        },
        body: deposit(),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error });
    }
    expect((await http.get('/disbursement/v1_0/account/balance', token)).status).toBe(200);
    vi.advanceTimersByTime(60_000);
    const expired = await http.get('/disbursement/v1_0/account/balance', token);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ error: 'token_expired' });
    expect(sim.transactions).toHaveLength(0);
  });

  it('accepts the balance call without Authorization (spec 4.19: optional)', async () => {
    const sim = simulator();
    const response = await rawClient(sim).send('GET', '/disbursement/v1_0/account/balance');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ availableBalance: '1000000.00', currency: 'EUR' });
  });

  it('checks X-Target-Environment: missing is 400, another value is 500', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const token = await http.token();
    const path = '/disbursement/v1_0/account/balance';
    const missing = await sim.fetch(`${sim.credentials.baseUrl}${path}`, {
      headers: {
        'Ocp-Apim-Subscription-Key': 'sim-subscription-key',
        Authorization: `Bearer ${token}`,
      },
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'NOT_ALLOWED_TARGET_ENVIRONMENT' });
    const wrong = await http.send('GET', path, {
      headers: { Authorization: `Bearer ${token}`, 'X-Target-Environment': 'mtnuganda' },
    });
    expect(wrong.status).toBe(500);
    expect(await wrong.json()).toEqual({
      code: 'NOT_ALLOWED_TARGET_ENVIRONMENT',
      message: 'Access to target environment is forbidden.',
    });
  });

  it('accepts a consent token only on the oauth2 endpoints', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const consent = sim.grantConsent({ msisdn: '46700000009', scope: 'payments' });
    expect(consent.expiresIn).toBe(3600);
    const withApiToken = await http.create('/disbursement/oauth2/v1_0/transfer', { amount: '5' });
    expect(withApiToken.response.status).toBe(401);
    expect(await withApiToken.response.json()).toEqual({ error: 'invalid_token' });
    const withConsent = await http.create(
      '/disbursement/oauth2/v1_0/transfer',
      { amount: '5' },
      { token: consent.accessToken },
    );
    expect(withConsent.response.status).toBe(202);
    const onDeposit = await http.create('/disbursement/v1_0/deposit', deposit(), {
      token: consent.accessToken,
    });
    expect(onDeposit.response.status).toBe(401);
    expect(sim.transactions.map((tx) => tx.operation)).toEqual([
      'disbursement.transferWithConsent',
    ]);
    expect(() => sim.grantConsent({ msisdn: 'abc' })).toThrow(TypeError);
  });

  it('serves basic user info: 200, 400 for a bad MSISDN, 401 for a bad token', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const ok = await http.get('/disbursement/v1_0/accountholder/msisdn/46733123450/basicuserinfo');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      given_name: expect.any(String),
      family_name: expect.any(String),
      birthdate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      locale: 'en-GB',
      gender: expect.stringMatching(/^(female|male)$/),
      status: 'ACTIVE',
    });
    const bad = await http.get(
      '/disbursement/v1_0/accountholder/msisdn/not-a-number/basicuserinfo',
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'BAD_REQUEST' });
    const unauthorized = await http.get(
      '/disbursement/v1_0/accountholder/msisdn/46733123450/basicuserinfo',
      'forged',
    );
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({ error: 'invalid_token' });
  });

  it('answers 404 to an unknown path and 405 to a wrong method', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const unknown = await http.send('GET', '/disbursement/v9_9/nothing');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    const wrongMethod = await http.send('DELETE', '/disbursement/v1_0/deposit');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });
});
