import { createRedisState } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectNestedCaps, reserveForThreeKeys } from '../support/nested-budget';
import { CLUSTER_LIBRARIES, connectClient } from './support/clients';
import { RedisCluster } from './support/redis-cluster';
import { describeWithRedis, RedisServer } from './support/redis-server';

// The tenants' nested budget on Redis: each subscription key in its own window and all
// keys in one, reserved together by one script (one moment keeps both). Real servers;
// the moments handed back are counted in sliding seconds, nothing is timed.
describeWithRedis('nested rate budget on Redis (a key window and the overall one)', () => {
  let server: RedisServer;
  let cluster: RedisCluster;
  beforeAll(async () => {
    [server, cluster] = await Promise.all([RedisServer.start(), RedisCluster.start()]);
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
    await cluster?.dispose();
  });

  it('server: three keys under 4/s each and 10/s together, no key in clear in Redis', async () => {
    const redis = await connectClient('node-redis', server.url);
    const { rateBudget } = createRedisState(redis.client, { prefix: 'scopes:' });
    try {
      expect(rateBudget.scopes).toBe(true);
      expectNestedCaps(await reserveForThreeKeys(rateBudget, 'create'));
      const reader = redis.client as unknown as { sendCommand(args: string[]): Promise<unknown> };
      const keys = (await reader.sendCommand(['KEYS', '*'])) as string[];
      expect(keys.some((key) => key.includes('{scopes:rate}:all:create'))).toBe(true);
      // Each key's window and its last moment (the even spacing's).
      const windows = keys.filter((key) => key.includes(':key:') && !key.endsWith(':last'));
      expect(windows).toHaveLength(3);
      expect(keys.filter((key) => key.includes(':key:') && key.endsWith(':last'))).toHaveLength(3);
      expect(keys.join(' ')).not.toMatch(/key-[abc]/);
    } finally {
      await redis.close();
    }
  }, 60_000);

  for (const library of CLUSTER_LIBRARIES) {
    it(`${library}: the same on a 3-master cluster (every window in one slot)`, async () => {
      const redis = await connectClient(library, cluster.urls.join(','));
      const { rateBudget } = createRedisState(redis.client, { prefix: `scopes-${library}:` });
      try {
        expectNestedCaps(await reserveForThreeKeys(rateBudget, 'lookup'));
      } finally {
        await redis.close();
      }
    }, 60_000);
  }
});
