import { RedisJournal } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, it } from 'vitest';
import { dropThen401 } from '../support/drop-then-401';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

describeWithRedis('drop, then 401, on the Redis journal (real redis-server)', () => {
  let server: RedisServer;
  let redis: ConnectedClient;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await connectClient('node-redis', server.url);
  });
  afterAll(async () => {
    await redis?.close();
    await server?.dispose();
  });

  it('keeps the id pending (never REJECTED), and a lookup settles it', async () => {
    await dropThen401(new RedisJournal(redis.client, { prefix: `d401-${process.pid}:` }));
  });
});
