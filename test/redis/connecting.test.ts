import { Redis } from 'ioredis';
import { createRedisState, RedisConnection, RedisUnavailableError } from 'momo-partner-sdk/redis';
import { createSimulator } from 'momo-partner-sdk/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithRedis, freePort, RedisServer } from './support/redis-server';

// docs/redis.md shows `new Redis()` handed to the SDK as is: ioredis connects in the
// background, so the SDK sees it 'connecting' at first. It waits for that first
// connection; a client that will never connect by itself is refused saying why.
const failureOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => expect.fail('succeeded'),
    (error: unknown) => error,
  );

describeWithRedis('an ioredis client handed over while it connects (real redis-server)', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(() => server?.dispose());

  it('new Redis(url) given at once: the first payments are journalled in Redis, not refused', async () => {
    const client = new Redis(server.url);
    client.on('error', () => {});
    const prefix = `conn-${process.pid}:`;
    const shared = createRedisState(client, { prefix });
    expect(client.status).not.toBe('ready'); // still connecting: what the SDK is handed
    const sim = createSimulator({ settleMs: 10 });
    const errors: string[] = [];
    const momo = sim.client({
      journal: shared.journal,
      tokenStore: shared.tokenStore,
      logger: { warn: (m) => errors.push(m), info: () => {}, error: (m) => errors.push(m) },
    });
    try {
      const accepted = await momo.disbursement.deposit({
        amount: '10',
        currency: 'EUR',
        externalId: 'order-1',
        payee: { partyIdType: 'MSISDN', partyId: '46733123453' },
      });
      expect(errors).toEqual([]);
      expect(momo.health().journal.state).toBe('ok');
      const keys = (await client.call('KEYS', `*${prefix}*`)) as string[];
      expect(keys.length).toBeGreaterThan(0);
      const listed = (await momo.journal.pending()).map((entry) => entry.referenceId);
      expect(listed).toEqual([accepted.referenceId]);
    } finally {
      await shared.close();
      client.disconnect();
    }
  });

  it('a client that never connects is refused after commandTimeoutMs, saying it was never ready', async () => {
    const port = await freePort(); // nobody listens there
    const client = new Redis({ port, host: '127.0.0.1', retryStrategy: () => 20 });
    client.on('error', () => {});
    try {
      const connection = new RedisConnection(client, { commandTimeoutMs: 100 });
      const refused = await failureOf(connection.command(['PING']));
      expect(refused).toBeInstanceOf(RedisUnavailableError);
      expect((refused as Error).message).toMatch(
        /^Redis is not connected: the ioredis client was still '\w+' after 100 ms and has never been ready/,
      );
    } finally {
      client.disconnect();
    }
  });
});

it('a lazyConnect ioredis client or an unconnected node-redis client is refused, saying to connect it', async () => {
  const lazy = new RedisConnection(new Redis({ lazyConnect: true }));
  const lazyRefusal = await failureOf(lazy.command(['PING']));
  expect(lazyRefusal).toBeInstanceOf(RedisUnavailableError);
  expect((lazyRefusal as Error).message).toMatch(/lazyConnect.*await client\.connect\(\)/);
  const unopened = createClient({ url: 'redis://127.0.0.1:1' });
  const nodeRefusal = await failureOf(new RedisConnection(unopened).command(['PING']));
  expect((nodeRefusal as Error).message).toMatch(
    /node-redis client is not open.*client\.connect\(\)/,
  );
});
