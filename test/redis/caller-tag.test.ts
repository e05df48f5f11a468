import { createRedisState, type RedisState } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tagOf } from '../support/caller-tag';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

describeWithRedis('the Redis journal keeps whose payment an entry is (real redis-server)', () => {
  let server: RedisServer;
  let redis: ConnectedClient;
  let shared: RedisState;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await connectClient('node-redis', server.url);
    shared = createRedisState(redis.client, { prefix: `tag-${process.pid}:` });
  });
  afterAll(async () => {
    await shared?.close();
    await redis?.close();
    await server?.dispose();
  });

  it('the tag option, else externalId, else none; read back by get() and pending()', async () => {
    expect(await tagOf(shared.journal, 'order-7', { tag: 'payroll-11/row-42' })).toBe(
      'payroll-11/row-42',
    );
    expect(await tagOf(shared.journal, 'order-7')).toBe('order-7');
    expect(await tagOf(shared.journal, undefined)).toBeUndefined();
    const tags = (await shared.journal.pending()).map((entry) => entry.tag);
    expect(tags).toEqual(['payroll-11/row-42', 'order-7', undefined]);
  });
});
