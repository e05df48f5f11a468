import { redisBatchStore } from 'momo-partner-sdk/redis';
import { afterAll, afterEach, beforeAll, beforeEach, it } from 'vitest';
import { expectBatchTenantsApart } from '../batches/tenant-support';
import { type TwoTenants, twoTenants } from '../support/two-tenants';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

// Issue 40 (DESIGN 10.4) on Redis: two tenants' batch items on one shared store.
describeWithRedis('batch items carry their tenant (real redis-server)', () => {
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

  it('each tenant records, reports and sends only its own items', async () => {
    const prefix = `tenants-${process.pid}:`;
    await expectBatchTenantsApart(
      two,
      redisBatchStore(redis.client, { prefix }),
      redisBatchStore(redis.client, { prefix }),
    );
  });
});
