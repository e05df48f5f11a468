import { type BatchStore, isValidationError } from 'momo-partner-sdk';
import { RedisBatchStore, redisBatchStore } from 'momo-partner-sdk/redis';
import { batchStoreCases } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itConforms } from '../support/conformance';
import {
  CLUSTER_LIBRARIES,
  type ConnectedClient,
  connectClient,
  LIBRARIES,
} from './support/clients';
import { RedisCluster } from './support/redis-cluster';
import { describeWithRedis, RedisServer } from './support/redis-server';

let prefixes = 0;
const freshPrefix = () => `b${++prefixes}-${process.pid}:`;
/** Redis keeps the leases' clock: letting one run out means letting the time pass. */
const pass = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The exported conformance suite on `redis()`'s client: each store over a fresh prefix; reopen: same prefix. */
function contractOn(name: string, redis: () => ConnectedClient) {
  const prefixOf = new WeakMap<BatchStore, string>();
  const make = () => {
    const prefix = freshPrefix();
    const store = redisBatchStore(redis().client, { prefix });
    prefixOf.set(store, prefix);
    return store;
  };
  const reopen = (store: BatchStore) => {
    const prefix = prefixOf.get(store) as string;
    const next = new RedisBatchStore(redis().client, { prefix }); // another process's
    prefixOf.set(next, prefix);
    return next;
  };
  describe(`batch store conformance: ${name}`, () => {
    itConforms(batchStoreCases(make, { reopen, pass }));
  });
}

describeWithRedis('Redis batch store (real redis-server)', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(() => server?.dispose());

  for (const library of LIBRARIES) {
    describe(library, () => {
      let redis: ConnectedClient;
      beforeAll(async () => {
        redis = await connectClient(library, server.url);
      });
      afterAll(() => redis?.close());
      contractOn(`redisBatchStore on ${library}`, () => redis);
    });
  }

  describe('its keys and their life', () => {
    let redis: ConnectedClient;
    beforeAll(async () => {
      redis = await connectClient('node-redis', server.url);
    });
    afterAll(() => redis?.close());
    const raw = (args: string[]) =>
      (redis.client as { sendCommand(a: string[]): Promise<unknown> }).sendCommand(args);
    const intent = (key: string) => ({
      key,
      operation: 'disbursement.transfer',
      fingerprint: `print-${key}`,
      referenceId: '2f1d3b7e-8a4c-4f6e-9b1d-0c2e4a6f8b1d',
    });

    it('keeps a batch while an item is open; once every recorded item is final, expires it after retentionMs', async () => {
      const prefix = freshPrefix();
      const store = redisBatchStore(redis.client, { prefix, retentionMs: 60_000 });
      const batch = await store.open('pay:{roll}');
      const tag = `{${prefix}batch:pay%3A%7Broll%7D}`;
      const ttl = async () => Number(await raw(['PTTL', `${tag}:intents`]));
      const a = (await batch.claim('a', 'run', 10_000)) as string;
      await batch.recordIntent(intent('a'), a);
      await batch.recordOutcome('a', { status: 'SENT' }, a);
      expect(await ttl()).toBe(-1); // open: kept

      await batch.recordOutcome('a', { status: 'SUCCESSFUL' }, a);
      const keys = (await raw(['KEYS', `${tag}:*`])) as string[];
      expect(keys.sort()).toEqual(
        ['claim:a', 'fence', 'intents', 'open', 'order', 'outcomes'].map((k) => `${tag}:${k}`),
      );
      for (const key of keys.filter((k) => !k.endsWith(':claim:a'))) {
        const left = Number(await raw(['PTTL', key]));
        expect(left).toBeGreaterThan(50_000);
        expect(left).toBeLessThanOrEqual(60_000);
      }

      const b = (await batch.claim('b', 'run', 10_000)) as string;
      await batch.recordIntent(intent('b'), b); // open again: kept again
      expect(await ttl()).toBe(-1);
      expect(Number(await raw(['PTTL', `${tag}:outcomes`]))).toBe(-1);
    });

    it('lists a batch larger than one page in the order first recorded', async () => {
      const batch = await redisBatchStore(redis.client, { prefix: freshPrefix() }).open('big');
      const keys = Array.from({ length: 1_203 }, (_, i) => `row-${(i * 7919) % 1_203}`);
      for (const key of keys) {
        const token = (await batch.claim(key, 'run', 10_000)) as string;
        await batch.recordIntent(intent(key), token);
      }
      const listed: string[] = [];
      for await (const record of batch.records()) listed.push(record.key);
      expect(listed).toEqual(keys);
    });

    it('refuses bad options and ids, naming the field', async () => {
      for (const options of [{ leaseMs: 0 }, { retentionMs: 1.5 }]) {
        const error = (() => {
          try {
            redisBatchStore(redis.client, options);
          } catch (e) {
            return e;
          }
        })();
        expect(isValidationError(error)).toBe(true);
        expect((error as { issues: { path: string }[] }).issues[0]?.path).toBe(
          Object.keys(options)[0],
        );
      }
      await expect(redisBatchStore(redis.client).open('')).rejects.toSatisfy(isValidationError);
    });
  });
});

describeWithRedis(
  'Redis batch store (real 3-master Redis Cluster)',
  () => {
    let cluster: RedisCluster;
    beforeAll(async () => {
      cluster = await RedisCluster.start();
    }, 60_000);
    afterAll(() => cluster?.dispose());

    for (const library of CLUSTER_LIBRARIES) {
      describe(library, () => {
        let redis: ConnectedClient;
        beforeAll(async () => {
          redis = await connectClient(library, cluster.urls.join(','));
        });
        afterAll(() => redis?.close());
        contractOn(`redisBatchStore on ${library}`, () => redis);
      });
    }
  },
  { cli: true },
);
