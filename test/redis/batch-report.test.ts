import { redisBatchStore } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, it } from 'vitest';
import { useSimulator } from '../batches/harness';
import { expectReportAsRun, expectUnknownBatch } from '../batches/report-support';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

// DESIGN 10.5 on Redis: the report a run returns, read back by another store object (as
// a dashboard or an engine's worker would) with no request to the provider.
const h = useSimulator();

describeWithRedis('Batches.report on the Redis batch store (real redis-server)', () => {
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

  it("is the run's report, read without a request; an unknown batch is a ValidationError", async () => {
    const prefix = `report-${process.pid}:`;
    const read = redisBatchStore(redis.client, { prefix });
    await expectReportAsRun(h, redisBatchStore(redis.client, { prefix }), read);
    await expectUnknownBatch(h, read, 'no-such-batch');
  });
});
