import { Disbursement } from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, SECRETS, tokenHandler, useFakeService } from '../support/fake-service';

const service = useFakeService();
const balance = () => HttpResponse.json({ availableBalance: '1', currency: 'EUR' });

describe('MomoClient and products', () => {
  it('uses per-product credentials over the defaults', async () => {
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/account/balance`, balance),
    );
    const momo = makeClient({
      disbursement: {
        subscriptionKey: 'disbursement-key-123',
        apiUser: { id: 'user-d', key: 'key-d-123456' },
      },
    });
    await momo.disbursement.getBalance();
    for (const request of service.seen) {
      expect(request.headers['ocp-apim-subscription-key']).toBe('disbursement-key-123');
    }
    const basic = service.seen.find((s) => s.path === '/disbursement/token/')?.headers
      .authorization;
    expect(basic).toBe(`Basic ${Buffer.from('user-d:key-d-123456').toString('base64')}`);
  });

  it('shares one token cache between the products of one client, not between clients', async () => {
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/account/balance`, balance),
    );
    const momo = makeClient();
    await momo.disbursement.getBalance();
    await momo.disbursement.getBalance();
    expect(momo.disbursement).toBe(momo.disbursement);
    await makeClient().disbursement.getBalance();
    expect(service.count('/disbursement/token/')).toBe(2);
  });

  it('new Disbursement(options) works standalone with the same options', async () => {
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/account/balance`, balance),
    );
    const disbursement = new Disbursement({
      baseUrl: BASE,
      targetEnvironment: 'mtnuganda',
      subscriptionKey: SECRETS.subscriptionKey,
      apiUser: { id: SECRETS.apiUserId, key: SECRETS.apiKey },
    });
    expect(await disbursement.getBalance()).toEqual({ availableBalance: '1', currency: 'EUR' });
    expect(service.seen.at(-1)?.headers['x-target-environment']).toBe('mtnuganda');
  });

  it('forceRefresh asks for a new token', async () => {
    service.server.use(tokenHandler());
    const momo = makeClient();
    const first = await momo.disbursement.getAccessToken();
    const cached = await momo.disbursement.getAccessToken();
    const fresh = await momo.disbursement.getAccessToken({ forceRefresh: true });
    expect(cached.accessToken).toBe(first.accessToken);
    expect(fresh.accessToken).not.toBe(first.accessToken);
  });

  it('passes extra headers but never lets them replace the ones it owns', async () => {
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/account/balance`, balance),
    );
    await makeClient().disbursement.getBalance({
      headers: { 'X-Trace': 't-1', 'X-Target-Environment': 'evil', authorization: 'Basic x' },
    });
    const request = service.seen.at(-1);
    expect(request?.headers['x-trace']).toBe('t-1');
    expect(request?.headers['x-target-environment']).toBe('sandbox');
    expect(request?.headers.authorization).toMatch(/^Bearer /);
  });
});
