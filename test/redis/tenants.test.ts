import { createRedisState, type RedisState } from 'momo-partner-sdk/redis';
import { Tenants } from 'momo-partner-sdk/tenants';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

const payee = { partyIdType: 'MSISDN', partyId: '46733100001' } as const;
const partners = [0, 1].map((i) => ({
  name: `merchant-${i}`,
  subscriptionKey: `redis-tenant-key-${i}-8f3a`,
  apiUsers: [{ id: `7c0e4d2a-1b3f-4a5e-8d6c-00000000000${i}`, key: `redis-tenant-api-${i}` }],
}));

describeWithRedis('tenants on the Redis state (real redis-server)', () => {
  let server: RedisServer;
  let redis: ConnectedClient;
  let shared: RedisState;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await connectClient('ioredis', server.url);
    shared = createRedisState(redis.client, { prefix: `tn-${process.pid}:` });
  });
  afterAll(async () => {
    await shared?.close();
    await redis?.close();
    await server?.dispose();
  });

  it("keeps each tenant's journal entries and tokens its own; an evicted tenant resumes its pending payment", async () => {
    const sim = createSimulator({ settleMs: 3_600_000, partners });
    const tenants = new Tenants({
      resolve: (id) => sim.partner(id),
      shared: {
        journal: shared.journal,
        tokenStore: shared.tokenStore,
        rateBudget: shared.rateBudget,
      },
      maxLive: 1,
      limits: { createRate: 20, lookupRate: 100 },
      globalLimits: { lookupRate: 150 },
      client: { fetch: sim.fetch, polling: { initialDelayMs: 20, maxDelayMs: 50 } },
    });
    const zero = await tenants.client('merchant-0');
    const { referenceId } = await zero.disbursement.deposit({
      amount: '4',
      currency: 'EUR',
      payee,
    });
    await (await tenants.client('merchant-1')).disbursement.getBalance(); // merchant-0 evicted
    expect((await shared.journal.get(referenceId))?.tenant).toBe('merchant-0');
    expect(await tenants.journal('merchant-1').pending()).toEqual([]);
    // Token store keys: two tenants, no subscription key in any key.
    const ioredis = redis.client as unknown as { keys(pattern: string): Promise<string[]> };
    const keys = await ioredis.keys(`*tn-${process.pid}:*token*`);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const partner of partners) {
      expect(keys.join(' ')).not.toContain(partner.subscriptionKey);
    }
    sim.settle(referenceId, 'SUCCESSFUL');
    await tenants.client('merchant-0'); // made again: resumes its own pending payment
    await expect
      .poll(async () => (await shared.journal.get(referenceId))?.outcome, { timeout: 10_000 })
      .toBe('SUCCESSFUL');
    tenants.close();
  });
});
