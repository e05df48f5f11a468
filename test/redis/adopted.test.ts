import { redisBatchStore } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll } from 'vitest';
import { adoptedCases } from '../support/adopted-cases';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

let prefixes = 0;

describeWithRedis('Redis batch store (real redis-server)', () => {
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
  const raw = (args: string[]) =>
    (redis.client as { sendCommand(a: string[]): Promise<unknown> }).sendCommand(args);

  // The batch's keys gone (its retention ran out, or they were deleted) between the runs.
  adoptedCases('redisBatchStore', async () => {
    const prefix = `adopted${++prefixes}-${process.pid}:`;
    return {
      store: () => redisBatchStore(redis.client, { prefix }),
      lose: async () => {
        const keys = (await raw(['KEYS', `*${prefix}*`])) as string[];
        if (keys.length > 0) await raw(['DEL', ...keys]);
      },
    };
  });
});
