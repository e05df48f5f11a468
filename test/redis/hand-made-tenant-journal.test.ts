import { createRedisState, type RedisState } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, it } from 'vitest';
import { expectHandMadeTenantsStamped } from '../support/hand-made-tenants';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

// TN8 on the Redis journal: clients made by hand with `tenant`, no `Tenants` in between.
describeWithRedis('a hand-made tenant client on the Redis journal (real redis-server)', () => {
  let server: RedisServer;
  let redis: ConnectedClient;
  let shared: RedisState;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await connectClient('ioredis', server.url);
    shared = createRedisState(redis.client, { prefix: `hand-tn-${process.pid}:` });
  });
  afterAll(async () => {
    await shared?.close();
    await redis?.close();
    await server?.dispose();
  });

  it('stamps every entry with its tenant; reconcile and resume keep to their own', async () => {
    await expectHandMadeTenantsStamped(shared.journal);
  });
});
