import { MomoClient, type StoredToken, type TokenStore } from 'momo-partner-sdk';
import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';

// Two platforms (two simulators on loopback) with the same API user, subscription key
// and target environment, and one token store shared by their clients.

const servers: ListeningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A shared TokenStore over a Map, as a partner might write one. */
function mapStore(): TokenStore & { keys(): string[] } {
  const tokens = new Map<string, StoredToken>();
  return {
    get: async (key) => tokens.get(key),
    set: async (key, token) => void tokens.set(key, token),
    delete: async (key, accessToken) => {
      if (accessToken === undefined || tokens.get(key)?.accessToken === accessToken)
        tokens.delete(key);
    },
    keys: () => [...tokens.keys()],
  };
}

async function platform(tokenStore: TokenStore) {
  const sim = createSimulator();
  const server = await sim.listen();
  servers.push(server);
  const { targetEnvironment, subscriptionKey, apiUser } = sim.credentials;
  const momo = new MomoClient({
    baseUrl: server.url,
    targetEnvironment,
    subscriptionKey,
    apiUser,
    tokenStore,
  });
  const requests = (path: string) => sim.requests.filter((r) => r.path === path);
  return { sim, server, momo, requests };
}

describe('tokens are keyed by platform', () => {
  it('a token store shared by two hosts gives each host only its own tokens', async () => {
    const store = mapStore();
    const a = await platform(store);
    const b = await platform(store);
    for (let i = 0; i < 2; i++) {
      await a.momo.disbursement.getBalance();
      await b.momo.disbursement.getBalance();
    }
    const BALANCE = '/disbursement/v1_0/account/balance';
    const bearers = (p: typeof a) =>
      new Set(p.requests(BALANCE).map((r) => r.headers.authorization));
    const [onA, onB] = [bearers(a), bearers(b)];
    expect(onA.size).toBe(1);
    expect(onB.size).toBe(1);
    expect([...onA].some((token) => onB.has(token))).toBe(false);
    // Each host was asked for one token and refused none (no 401 replay).
    expect(a.requests('/disbursement/token/')).toHaveLength(1);
    expect(b.requests('/disbursement/token/')).toHaveLength(1);
    expect(a.requests(BALANCE)).toHaveLength(2);
    expect(b.requests(BALANCE)).toHaveLength(2);
    expect(store.keys()).toHaveLength(2);
    expect(store.keys().map((key) => key.includes(`:${a.server.url}:`))).toContain(true);
  });
});
