import { redisBatchStore } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { useSimulator } from '../batches/harness';
import {
  runsAThrowingHookAgainOnTheNextRun,
  settlesEachItemOnceAfterItsOutcome,
} from '../support/item-settled';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

const h = useSimulator();
let prefixes = 0;
const freshPrefix = () => `s${++prefixes}-${process.pid}:`;

describeWithRedis(
  'batches.run({ onItemSettled }) on the Redis batch store (real redis-server)',
  () => {
    let server: RedisServer;
    let redis: ConnectedClient;
    beforeAll(async () => {
      server = await RedisServer.start();
      redis = await connectClient('ioredis', server.url);
    });
    afterAll(async () => {
      await redis?.close();
      await server?.dispose();
    });

    describe('redisBatchStore', () => {
      it('runs once per settled item, after its outcome is recorded', async () => {
        await settlesEachItemOnceAfterItsOutcome(
          h,
          redisBatchStore(redis.client, { prefix: freshPrefix() }),
        );
      });
      it('a throw leaves the item UNRESOLVED, marked owed; the next run runs it again', async () => {
        await runsAThrowingHookAgainOnTheNextRun(
          h,
          redisBatchStore(redis.client, { prefix: freshPrefix() }),
        );
      });
    });
  },
);
