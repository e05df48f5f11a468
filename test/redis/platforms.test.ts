import { createRedisState, type RedisState } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, it } from 'vitest';
import { platformScenario } from '../settle/platform-scenario';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

describeWithRedis('platform pinning with the Redis journal (real redis-server)', () => {
  let server: RedisServer;
  let redis: ConnectedClient;
  let shared: RedisState;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await connectClient('ioredis', server.url);
    shared = createRedisState(redis.client, { prefix: `pf-${process.pid}:` });
  });
  afterAll(async () => {
    await shared?.close();
    await redis?.close();
    await server?.dispose();
  });

  it('sent to A, listed but never sent or looked up on B, settled on A', async () => {
    await platformScenario(() => shared.journal);
  });
});
