import { redisSubscriptionStore } from 'momo-partner-sdk/redis';
import { afterAll, afterEach, beforeAll, beforeEach, it } from 'vitest';
import { expectSubscriptionTenantsApart } from '../subscriptions/tenant-support';
import { type TwoTenants, twoTenants } from '../support/two-tenants';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

// Issue 40 (DESIGN 10.4) on Redis: two tenants' subscriptions on one shared store.
describeWithRedis('subscriptions carry their tenant (real redis-server)', () => {
  let server: RedisServer;
  let redis: ConnectedClient;
  let two: TwoTenants;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await connectClient('node-redis', server.url);
  });
  afterAll(async () => {
    await redis?.close();
    await server?.dispose();
  });
  beforeEach(async () => {
    two = await twoTenants();
  });
  afterEach(() => two.close());

  it("each tenant's runner charges, lists and reports only its own", async () => {
    const prefix = `subs-tenants-${process.pid}:`;
    await expectSubscriptionTenantsApart(
      two,
      redisSubscriptionStore(redis.client, { prefix }),
      redisSubscriptionStore(redis.client, { prefix }),
    );
  });
});
