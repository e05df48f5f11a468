import { Batches } from 'momo-partner-sdk/batches';
import { redisBatchStore } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from '../batches/harness';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

// DESIGN 9.2 on Redis: lone surrogates, written as U+FFFD, made two keys of one batch
// share one record (the second reported SUCCESSFUL unsent). Now each is REJECTED.
const h = useSimulator();

describeWithRedis('key rules on the Redis batch store (real redis-server)', () => {
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

  it('two keys differing only in a lone surrogate are each REJECTED, nothing recorded or sent', async () => {
    const store = redisBatchStore(redis.client, { prefix: `keys-${process.pid}:` });
    const momo = h.client();
    const first = await new Batches(momo).run([row('emp-\ud800', PAYEE.ok)], { id: 'b', store });
    const second = await new Batches(momo).run([row('emp-\udbff', PAYEE.ok)], { id: 'b', store });
    expect([first.items[0]?.status, second.items[0]?.status]).toEqual(['REJECTED', 'REJECTED']);
    expect(second.items[0]?.reason).toMatch(/^key: must be well-formed Unicode/);
    const records = [];
    for await (const record of (await store.open('b')).records()) records.push(record);
    expect(records).toEqual([]);
    expect(h.transferPosts()).toEqual([]);
  });
});
