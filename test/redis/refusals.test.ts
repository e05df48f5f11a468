import { inspect } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { isMomoError, isValidationError, MomoError } from 'momo-partner-sdk';
import {
  createRedisState,
  RedisCommandError,
  RedisConnection,
  RedisJournal,
  RedisUnavailableError,
} from 'momo-partner-sdk/redis';
import { createSimulator } from 'momo-partner-sdk/testing';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConnectedClient, connectClient } from './support/clients';
import { describeWithRedis, RedisServer } from './support/redis-server';

const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(isValidationError(error)).toBe(true);
    return JSON.stringify((error as { issues: unknown }).issues);
  }
  throw new Error('not refused');
};

describe('what the Redis package accepts, and what it refuses at construction', () => {
  it('accepts a node-redis createCluster client and an ioredis Cluster', () => {
    const nodeCluster = createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] });
    expect(new RedisConnection(nodeCluster).kind).toBe('node-redis-cluster');
    const ioCluster = new Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true });
    expect(new RedisConnection(ioCluster).kind).toBe('ioredis-cluster');
    expect(() => createRedisState(nodeCluster)).not.toThrow();
  });

  it('refuses an ioredis client with keyPrefix, naming it (scripts build key names)', () => {
    const single = new Redis({ lazyConnect: true, keyPrefix: 'shop:' });
    expect(messageOf(() => createRedisState(single))).toMatch(/client.*keyPrefix is not supported/);
    const cluster = new Cluster([{ host: '127.0.0.1', port: 1 }], {
      lazyConnect: true,
      keyPrefix: 'shop:',
    });
    expect(messageOf(() => createRedisState(cluster))).toMatch(/keyPrefix is not supported/);
  });

  it('refuses what is no client, and a prefix with braces (they would break the hash tags)', () => {
    expect(messageOf(() => createRedisState({} as never))).toMatch(
      /client.*node-redis client \(createClient or createCluster\) or an ioredis client/,
    );
    const single = new Redis({ lazyConnect: true });
    expect(messageOf(() => createRedisState(single, { prefix: '{shop}:' }))).toMatch(
      /prefix.*braces/,
    );
  });
});

/** What a command of `connection` failed with. */
const failureOf = (connection: RedisConnection, args: string[]): Promise<unknown> =>
  connection.command(args).then(
    () => expect.fail(`${args[0]} succeeded`),
    (error: unknown) => error,
  );

it("the package's errors are SDK errors: MomoError, Error, their own names and messages", async () => {
  const offline = new RedisConnection(new Redis({ lazyConnect: true }));
  const unavailable = await failureOf(offline, ['GET', 'momo:secret-key']);
  expect(unavailable).toBeInstanceOf(RedisUnavailableError);
  expect(unavailable).toBeInstanceOf(MomoError);
  expect(unavailable).toBeInstanceOf(Error);
  expect(isMomoError(unavailable)).toBe(true);
  expect(String(unavailable)).toMatch(
    /^RedisUnavailableError: Redis is not connected: .*lazyConnect/,
  );
  expect((unavailable as Error).constructor.name).toBe('RedisUnavailableError');
  expect(JSON.parse(JSON.stringify(unavailable))).toEqual({
    name: 'RedisUnavailableError',
    message: (unavailable as Error).message,
  });
  const refused = new RedisCommandError('ZADD', 'WRONGTYPE');
  expect(isMomoError(refused)).toBe(true);
  expect(refused).toBeInstanceOf(Error);
  expect(String(refused)).toBe('RedisCommandError: Redis refused ZADD: WRONGTYPE');
});

describeWithRedis('a Redis that answers with errors is no outage (real redis-server)', () => {
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

  it('a refused command is a RedisCommandError and a MomoError; neither key nor value in it', async () => {
    const connection = new RedisConnection(redis.client, { prefix: `e-${process.pid}:` });
    const key = `e-${process.pid}:secret-key`;
    await connection.command(['SET', key, 'a string']);
    const refused = await failureOf(connection, ['ZADD', key, '1', 'secret-member']);
    expect(refused).toBeInstanceOf(RedisCommandError);
    expect(isMomoError(refused)).toBe(true);
    expect(refused).toMatchObject({
      name: 'RedisCommandError',
      message: 'Redis refused ZADD: WRONGTYPE',
      code: 'WRONGTYPE',
      command: 'ZADD',
    });
    expect((refused as MomoError).toJSON()).toEqual({
      name: 'RedisCommandError',
      message: 'Redis refused ZADD: WRONGTYPE',
      code: 'WRONGTYPE',
      command: 'ZADD',
    });
    expect(inspect(refused)).not.toMatch(/secret/);
  });

  it('a journal write refused (WRONGTYPE): payments go on, an error is logged, health says failing', async () => {
    const prefix = `wt-${process.pid}:`;
    // Something else wrote a string where the journal keeps its sorted set.
    await (redis.client as { sendCommand(a: string[]): Promise<unknown> }).sendCommand([
      'SET',
      `{${prefix}journal}:pending`,
      'not a sorted set',
    ]);
    const journal = new RedisJournal(redis.client, { prefix });
    const lines: { level: string; message: string; fields?: unknown }[] = [];
    const at = (level: string) => (message: string, fields?: unknown) =>
      void lines.push({ level, message, fields });
    const sim = createSimulator({ settleMs: 10 });
    const momo = sim.client({
      journal,
      logger: { warn: at('warn'), info: at('info'), error: at('error') },
    });
    const body = {
      amount: '10',
      currency: 'EUR',
      externalId: 'order-1',
      payee: { partyIdType: 'MSISDN' as const, partyId: '46733123453' },
    };
    const sent = [await momo.disbursement.deposit(body), await momo.disbursement.deposit(body)];
    expect(lines).toEqual([
      {
        level: 'error',
        message: expect.stringMatching(/^shared state failing \(journal\)/),
        fields: { component: 'journal', cause: 'RedisCommandError (WRONGTYPE)', failures: 1 },
      },
    ]);
    expect(momo.health().journal).toMatchObject({
      state: 'failing',
      cause: 'RedisCommandError (WRONGTYPE)',
      failures: 2,
    });
    expect(momo.health().tokenStore.state).toBe('in-process');
    // Kept in memory meanwhile, and listed.
    const pending = (await momo.journal.pending()).map((e) => e.referenceId);
    expect(pending.sort()).toEqual(sent.map((a) => a.referenceId).sort());
  });
});
