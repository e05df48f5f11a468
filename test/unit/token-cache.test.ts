import { createHmac } from 'node:crypto';
import { isAuthenticationError, type StoredToken } from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { BASE, makeClient, SECRETS, tokenHandler, useFakeService } from '../support/fake-service';

const SUBSCRIPTION_KEY = SECRETS.subscriptionKey;

const service = useFakeService();
const balance = () => HttpResponse.json({ availableBalance: '10.00', currency: 'EUR' });
const TOKEN = '/disbursement/token/';

describe('access tokens', () => {
  it('makes one token request for 50 concurrent calls on a cold client', async () => {
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/account/balance`, balance),
    );
    const momo = makeClient();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => momo.disbursement.getBalance()),
    );
    expect(results).toHaveLength(50);
    expect(service.count(TOKEN)).toBe(1);
    const bearer = new Set(
      service.seen.filter((s) => s.path !== TOKEN).map((s) => s.headers.authorization),
    );
    expect(bearer.size).toBe(1);
  });

  it('keeps the token for its lifetime and refreshes it 10 minutes before expiry (the provider asks so)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      service.server.use(
        tokenHandler('disbursement', 3600),
        http.get(`${BASE}/disbursement/v1_0/account/balance`, balance),
      );
      const momo = makeClient();
      await momo.disbursement.getBalance();
      vi.setSystemTime(Date.now() + 2_990_000); // 610 s left: still outside the 600 s window
      await momo.disbursement.getBalance();
      expect(service.count(TOKEN)).toBe(1);
      vi.setSystemTime(Date.now() + 20_000); // 590 s left: refresh
      await momo.disbursement.getBalance();
      expect(service.count(TOKEN)).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("takes the refresh window from tokenRefreshWindowMs, at most half a short token's life", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      service.server.use(
        tokenHandler('disbursement', 3600),
        http.get(`${BASE}/disbursement/v1_0/account/balance`, balance),
      );
      const momo = makeClient({ tokenRefreshWindowMs: 60_000 });
      await momo.disbursement.getBalance();
      vi.setSystemTime(Date.now() + 3_500_000); // 100 s left: outside a 60 s window
      await momo.disbursement.getBalance();
      expect(service.count(TOKEN)).toBe(1);
      vi.setSystemTime(Date.now() + 50_000); // 50 s left: refresh
      await momo.disbursement.getBalance();
      expect(service.count(TOKEN)).toBe(2);

      service.server.use(tokenHandler('disbursement', 300)); // a 5-minute token
      const short = makeClient();
      await short.disbursement.getBalance();
      vi.setSystemTime(Date.now() + 140_000); // 160 s left: inside 600 s, outside half (150 s)
      await short.disbursement.getBalance();
      expect(service.count(TOKEN)).toBe(3);
      vi.setSystemTime(Date.now() + 20_000); // 140 s left: refresh
      await short.disbursement.getBalance();
      expect(service.count(TOKEN)).toBe(4);

      const error = (() => {
        try {
          makeClient({ tokenRefreshWindowMs: -1 });
        } catch (e) {
          return e as { field?: string };
        }
      })();
      expect(error?.field).toBe('tokenRefreshWindowMs');
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends Basic credentials and no body to the token endpoint', async () => {
    service.server.use(tokenHandler());
    const token = await makeClient().disbursement.getAccessToken();
    const [request] = service.seen;
    expect(request?.method).toBe('POST');
    expect(request?.headers.authorization).toMatch(/^Basic [A-Za-z0-9+/=]+$/);
    expect(request?.headers['ocp-apim-subscription-key']).toBe('sub-key-0123456789abcdef');
    expect(request?.body).toBe('');
    expect(token.accessToken).toMatch(/^token-/);
    expect(token.expiresIn).toBeGreaterThan(3590);
  });

  it('encodes a non-ASCII API key as the UTF-8 bytes of id:key in Basic', async () => {
    service.server.use(tokenHandler());
    const key = 'clé-Ключ-鍵-🔑-0123';
    await makeClient({ apiUser: { id: 'user-ü', key } }).disbursement.getAccessToken();
    const sent = service.seen[0]?.headers.authorization?.replace(/^Basic /, '') ?? '';
    const decoded = new TextDecoder().decode(Uint8Array.from(atob(sent), (c) => c.charCodeAt(0)));
    expect(decoded).toBe(`user-ü:${key}`);
  });

  it('replays a call refused with 401 once, with a new token', async () => {
    let calls = 0;
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/account/balance`, () =>
        ++calls === 1 ? HttpResponse.json({ error: 'token expired' }, { status: 401 }) : balance(),
      ),
    );
    const result = await makeClient().disbursement.getBalance();
    expect(result.availableBalance).toBe('10.00');
    expect(service.count(TOKEN)).toBe(2);
    const [first, second] = service.seen.filter((s) => s.path.endsWith('/balance'));
    expect(first?.headers.authorization).not.toBe(second?.headers.authorization);
  });

  it('replays only once: a second 401 is an AuthenticationError', async () => {
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/account/balance`, () =>
        HttpResponse.json({ error: 'denied' }, { status: 401 }),
      ),
    );
    const error = await makeClient()
      .disbursement.getBalance()
      .catch((e) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(error.code).toBe('denied');
    expect(service.count('/disbursement/v1_0/account/balance')).toBe(2);
  });

  it('raises AuthenticationError for bad API-user credentials without retrying', async () => {
    service.server.use(
      http.post(`${BASE}/disbursement/token/`, () =>
        HttpResponse.json({ error: 'login_failed' }, { status: 401 }),
      ),
    );
    const error = await makeClient()
      .disbursement.getBalance()
      .catch((e) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(error.operation).toBe('disbursement.getBalance'); // the call whose token failed
    expect(error.cause.operation).toBe('disbursement.getAccessToken');
    expect(service.count(TOKEN)).toBe(1);
  });

  it('shares tokens through a tokenStore', async () => {
    const stored = new Map<string, StoredToken>();
    const tokenStore = {
      get: (key: string) => stored.get(key),
      set: (key: string, token: StoredToken) => void stored.set(key, token),
      delete: (key: string) => void stored.delete(key),
    };
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/account/balance`, balance),
    );
    await makeClient({ tokenStore }).disbursement.getBalance();
    await makeClient({ tokenStore }).disbursement.getBalance(); // a second process
    expect(service.count(TOKEN)).toBe(1);
    // The subscription key appears only as 16 hex digits of a one-way digest of it.
    const digest = createHmac('sha256', SUBSCRIPTION_KEY)
      .update('momo-callback:')
      .digest('hex')
      .slice(0, 16);
    expect([...stored.keys()]).toEqual([
      `momo:disbursement:a5d0b0b4-5b3c-4c3e-9f61-1f0c6f0a8e11:sandbox:${BASE}:${digest}`,
    ]);
    expect([...stored.keys()].join()).not.toContain(SUBSCRIPTION_KEY);
  });

  it('keeps the tokens of two subscription keys with the same API user apart', async () => {
    const stored = new Map<string, StoredToken>();
    const tokenStore = {
      get: (key: string) => stored.get(key),
      set: (key: string, token: StoredToken) => void stored.set(key, token),
      delete: (key: string) => void stored.delete(key),
    };
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/account/balance`, balance),
    );
    await makeClient({ tokenStore }).disbursement.getBalance();
    await makeClient({
      tokenStore,
      subscriptionKey: 'another-partner-key',
    }).disbursement.getBalance();
    expect(service.count(TOKEN)).toBe(2);
    expect(stored.size).toBe(2);
  });
});
