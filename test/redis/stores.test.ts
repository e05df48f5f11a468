import { isValidationError, type StoredToken } from 'momo-partner-sdk';
import {
  createRedisState,
  RedisCallbackBus,
  RedisJournal,
  RedisTokenStore,
} from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPendingInRecordOrder } from '../support/journal-order';
import { type ConnectedClient, connectClient, LIBRARIES } from './support/clients';
import { until } from './support/instances';
import { describeWithRedis, RedisServer } from './support/redis-server';

const KEY = 'momo:disbursement:3f1c5e2a-8b4d-4c6e-9a7b-1d2e3f405162:sandbox';
const token = (accessToken: string, lifetimeMs = 60_000): StoredToken => {
  const now = Date.now();
  return { accessToken, tokenType: 'access_token', issuedAt: now, expiresAt: now + lifetimeMs };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let prefixes = 0;
const PLATFORM = { baseUrl: 'http://127.0.0.1:1', targetEnvironment: 'sandbox' };
const freshPrefix = () => `t${++prefixes}-${process.pid}:`;

describeWithRedis('Redis stores (real redis-server)', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(() => server?.dispose());

  for (const library of LIBRARIES) {
    describe(library, () => {
      let redis: ConnectedClient;
      let raw: ConnectedClient; // reads keys back, independently of the code under test
      beforeAll(async () => {
        redis = await connectClient(library, server.url);
        raw = await connectClient('node-redis', server.url);
      });
      afterAll(async () => {
        await redis?.close();
        await raw?.close();
      });
      const rawCommand = (args: string[]) =>
        (raw.client as { sendCommand(a: string[]): Promise<unknown> }).sendCommand(args);

      it('stores a token under the prefix with a TTL equal to its remaining life', async () => {
        const prefix = freshPrefix();
        const store = new RedisTokenStore(redis.client, { prefix });
        await store.set(KEY, token('tok-1', 30_000));
        expect(await store.get(KEY)).toMatchObject({ accessToken: 'tok-1' });
        const redisKey = `{${prefix}token:disbursement:3f1c5e2a-8b4d-4c6e-9a7b-1d2e3f405162:sandbox}`;
        const ttl = Number(await rawCommand(['PTTL', redisKey]));
        expect(ttl).toBeGreaterThan(25_000);
        expect(ttl).toBeLessThanOrEqual(30_000);
        await store.set(KEY, token('expired', -1)); // never stored: it is dead already
        expect(await store.get(KEY)).toMatchObject({ accessToken: 'tok-1' });
      });

      it('reads a malformed value as a miss', async () => {
        const prefix = freshPrefix();
        await rawCommand(['SET', `{${prefix}token:disbursement:x:sandbox}`, '{"accessToken":1}']);
        const store = new RedisTokenStore(redis.client, { prefix });
        expect(await store.get('momo:disbursement:x:sandbox')).toBeUndefined();
      });

      it('deletes a refused token but keeps a newer one', async () => {
        const store = new RedisTokenStore(redis.client, { prefix: freshPrefix() });
        await store.set(KEY, token('new'));
        await store.delete(KEY, 'old');
        expect(await store.get(KEY)).toMatchObject({ accessToken: 'new' });
        await store.delete(KEY, 'new');
        expect(await store.get(KEY)).toBeUndefined();
      });

      it('locks: one holder at a time, a release frees it, an expired lock is taken over', async () => {
        const store = new RedisTokenStore(redis.client, { prefix: freshPrefix() });
        const first = await store.lock(KEY, 5_000);
        expect(first).toBeTypeOf('function');
        expect(await store.lock(KEY, 5_000)).toBeUndefined();
        await first?.();
        const second = await store.lock(KEY, 150);
        expect(second).toBeTypeOf('function');
        await sleep(250); // the holder "died": its lock lapses
        const third = await store.lock(KEY, 5_000);
        expect(third).toBeTypeOf('function');
        await second?.(); // the dead holder's late release must not free the new holder's lock
        expect(await store.lock(KEY, 5_000)).toBeUndefined();
        await third?.();
      });

      it('keeps apps with different prefixes apart', async () => {
        const a = createRedisState(redis.client, { prefix: freshPrefix() });
        const b = createRedisState(redis.client, { prefix: freshPrefix() });
        await a.tokenStore.set(KEY, token('a-token'));
        expect(await b.tokenStore.get(KEY)).toBeUndefined();
        const entry = {
          product: 'collection' as const,
          operation: 'collection.requestToPay',
          referenceId: 'a0c2b1f4-3f5e-4d6a-9b7c-8d9e0f1a2b3c',
          createdAt: Date.now(),
          ...PLATFORM,
        };
        await a.journal.record(entry);
        expect(await b.journal.pending()).toEqual([]);
        expect(await a.journal.pending()).toEqual([entry]);
        expect(a.callbackBus.channel).not.toBe(b.callbackBus.channel);
      });

      it('journals: pending oldest first, first record kept, finished ones expire', async () => {
        const journal = new RedisJournal(redis.client, { prefix: freshPrefix(), retentionMs: 300 });
        const ids = [
          'b1d2e3f4-0a1b-4c2d-8e3f-405162738495',
          'c1d2e3f4-0a1b-4c2d-8e3f-405162738495',
        ] as const;
        const now = Date.now();
        await journal.record({
          product: 'disbursement',
          operation: 'disbursement.deposit',
          referenceId: ids[1],
          createdAt: now,
          ...PLATFORM,
        });
        await journal.record({
          product: 'remittance',
          operation: 'remittance.transfer',
          referenceId: ids[0],
          createdAt: now - 1_000,
          ...PLATFORM,
        });
        await journal.record({
          product: 'remittance',
          operation: 'remittance.cashTransfer', // a second record of a pending id changes nothing
          referenceId: ids[0],
          createdAt: now,
          ...PLATFORM,
        });
        const pending = await journal.pending();
        expect(pending.map((e) => [e.referenceId, e.operation])).toEqual([
          [ids[0], 'remittance.transfer'],
          [ids[1], 'disbursement.deposit'],
        ]);
        await journal.finish(ids[0], 'SUCCESSFUL', now + 5);
        await journal.finish(ids[0], 'FAILED', now + 6); // the first outcome wins
        expect(await journal.get(ids[0])).toMatchObject({
          outcome: 'SUCCESSFUL',
          finishedAt: now + 5,
        });
        expect((await journal.pending()).map((e) => e.referenceId)).toEqual([ids[1]]);
        // A refusal's code is kept beside its outcome.
        const refused = 'd1d2e3f4-0a1b-4c2d-8e3f-405162738495';
        await journal.record({
          product: 'disbursement',
          operation: 'disbursement.transfer',
          referenceId: refused,
          createdAt: now,
          ...PLATFORM,
        });
        await journal.finish(refused, 'FAILED', now + 7, 'INVALID_CURRENCY');
        expect(await journal.get(refused)).toMatchObject({
          outcome: 'FAILED',
          reason: 'INVALID_CURRENCY',
        });
        expect(await journal.get(ids[0])).not.toHaveProperty('reason');
        await sleep(400);
        expect(await journal.get(ids[0])).toBeUndefined(); // retention over
        expect(await journal.get(ids[1])).toMatchObject({ operation: 'disbursement.deposit' });
        await journal.finish('d1d2e3f4-0a1b-4c2d-8e3f-405162738495', 'FAILED', now); // unknown: no-op
      });

      it('journals: entries of the same millisecond list in record order, not id order', async () => {
        await expectPendingInRecordOrder(new RedisJournal(redis.client, { prefix: freshPrefix() }));
      });

      it('publishes to every subscriber, whatever library it uses', async () => {
        const prefix = freshPrefix();
        const other = await connectClient(
          library === 'ioredis' ? 'node-redis' : 'ioredis',
          server.url,
        );
        const publisher = new RedisCallbackBus(redis.client, { prefix });
        const subscriber = new RedisCallbackBus(other.client, { prefix });
        const received: unknown[] = [];
        const stop = await subscriber.subscribe((event) => received.push(event));
        const event = {
          referenceId: 'e1d2e3f4-0a1b-4c2d-8e3f-405162738495',
          result: { status: 'SUCCESSFUL' as const },
        };
        await publisher.publish(event);
        await until(() => received.length > 0);
        expect(received).toEqual([event]);
        await stop();
        await publisher.publish(event);
        await sleep(50);
        expect(received).toHaveLength(1);
        await subscriber.close();
        await other.close();
      });
    });
  }

  it('refuses what is not a Redis client, and bad options, naming the field', () => {
    const notAClient = { get: () => undefined } as never;
    const error = (() => {
      try {
        new RedisTokenStore(notAClient);
      } catch (e) {
        return e;
      }
    })();
    expect(isValidationError(error)).toBe(true);
    expect((error as { field: string }).field).toBe('client');
    expect(() => new RedisJournal(notAClient, { retentionMs: -1 })).toThrow(/client/);
  });
});
