import { MomoClient, type StoredToken, type TokenStore } from 'momo-partner-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLoopbackService } from '../support/loopback-service';

// A token endpoint on loopback answering odd lifetimes: expired on arrival, or "for ever".

let service: Awaited<ReturnType<typeof startLoopbackService>> | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await service?.close();
  service = undefined;
});

const DAY_MS = 86_400_000;

/** A loopback service whose tokens say `expires_in: expiresIn`, and a store that records what it is given. */
async function withTokenLifetime(expiresIn: number) {
  let issued = 0;
  service = await startLoopbackService({
    'POST /disbursement/token/': (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ access_token: `lifetime-token-${++issued}`, expires_in: expiresIn }),
      );
    },
    'GET /disbursement/v1_0/account/balance': (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ availableBalance: '10.00', currency: 'EUR' }));
    },
  });
  const stored: StoredToken[] = [];
  const tokenStore: TokenStore = {
    get: async () => undefined,
    set: async (_key, token) => void stored.push(token),
    delete: async () => {},
  };
  const momo = new MomoClient({ ...service.options, tokenStore });
  return { momo, stored, issued: () => issued };
}

describe('token lifetimes are sanity-checked', () => {
  it.each([0, -5])(
    'expires_in %d: the token serves its call, and is neither cached nor stored',
    async (expiresIn) => {
      const { momo, stored, issued } = await withTokenLifetime(expiresIn);
      await momo.disbursement.getBalance();
      await momo.disbursement.getBalance();
      expect(issued()).toBe(2);
      expect(stored).toEqual([]);
      const bearers = service?.seen
        .filter((s) => s.path.endsWith('/balance'))
        .map((s) => s.headers.authorization);
      expect(bearers).toEqual(['Bearer lifetime-token-1', 'Bearer lifetime-token-2']);
    },
  );

  it('expires_in 1e20: kept for 24 hours at most', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { momo, stored, issued } = await withTokenLifetime(1e20);
    const token = await momo.disbursement.getAccessToken();
    expect(token.expiresIn).toBe(86_400);
    expect(stored.map((t) => t.expiresAt - t.issuedAt)).toEqual([DAY_MS]);
    await momo.disbursement.getBalance();
    expect(issued()).toBe(1);
    vi.setSystemTime(Date.now() + DAY_MS);
    await momo.disbursement.getBalance();
    expect(issued()).toBe(2);
  });
});
