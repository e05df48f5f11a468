import { describe, expect, it } from 'vitest';
import { deposit, rawClient, simulator } from './helpers';

describe('simulator: revokeTokens()', () => {
  it('refuses every access token issued so far with 401; new ones work', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const old = await http.token();
    const consent = sim.grantConsent({ msisdn: '46700000001' });
    sim.revokeTokens();
    const refused = await http.send('GET', '/disbursement/v1_0/account/balance', {
      headers: { Authorization: `Bearer ${old}` },
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'invalid_token' });
    const fresh = await http.token();
    const accepted = await http.send('GET', '/disbursement/v1_0/account/balance', {
      headers: { Authorization: `Bearer ${fresh}` },
    });
    expect(accepted.status).toBe(200);
    const userInfo = await http.send('GET', '/remittance/oauth2/v1_0/userinfo', {
      headers: { Authorization: `Bearer ${consent.accessToken}` },
    });
    expect(userInfo.status).toBe(200); // consent tokens are not access tokens
  });
});

describe("simulator: the 'delay' fault", () => {
  it('stores the transaction at once and holds the answer back', async () => {
    const sim = simulator();
    const http = rawClient(sim);
    const token = await http.token();
    sim.inject({ kind: 'delay', ms: 200, match: 'POST /disbursement/v1_0/deposit' });
    let answered = false;
    const answer = http.create('/disbursement/v1_0/deposit', deposit(), { token }).then((r) => {
      answered = true;
      return r;
    });
    for (let i = 0; i < 100 && sim.transactions.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(sim.transactions).toHaveLength(1);
    expect(answered).toBe(false);
    expect((await answer).response.status).toBe(202);
  });

  it('refuses a delay that is not a finite number >= 0', () => {
    expect(() => simulator().inject({ kind: 'delay', ms: -1 })).toThrow(TypeError);
    expect(() => simulator().inject({ kind: 'delay', ms: Number.NaN })).toThrow(/ms must be/);
  });
});
