/** The exported journal, token store and subscription store suites against the Redis stores: one server, and a Cluster. */
import type { Journal, SubscriptionStore, TokenStore } from 'momo-partner-sdk';
import { RedisJournal, RedisSubscriptionStore, RedisTokenStore } from 'momo-partner-sdk/redis';
import { journalCases, subscriptionStoreCases, tokenStoreCases } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  CLUSTER_LIBRARIES,
  type ConnectedClient,
  connectClient,
  LIBRARIES,
} from '../redis/support/clients';
import { RedisCluster } from '../redis/support/redis-cluster';
import { describeWithRedis, RedisServer } from '../redis/support/redis-server';
import { itConforms } from '../support/conformance';

let prefixes = 0;
const freshPrefix = () => `cf${++prefixes}-${process.pid}:`;

/** The suites on `redis()`'s client: each store over a fresh prefix; reopen: the same prefix. */
function suitesOn(redis: () => ConnectedClient) {
  const prefixOf = new WeakMap<object, string>();
  const fresh = <T extends object>(build: (prefix: string) => T) => {
    const prefix = freshPrefix();
    const store = build(prefix);
    prefixOf.set(store, prefix);
    return store;
  };
  const again = <T extends object>(store: T, build: (prefix: string) => T) => {
    const prefix = prefixOf.get(store) as string;
    const next = build(prefix); // another process's object over the same keys
    prefixOf.set(next, prefix);
    return next;
  };
  const journal = (prefix: string): Journal => new RedisJournal(redis().client, { prefix });
  const tokens = (prefix: string): TokenStore => new RedisTokenStore(redis().client, { prefix });
  describe('journal conformance: RedisJournal', () => {
    itConforms(journalCases(() => fresh(journal), { reopen: (j) => again(j, journal) }));
  });
  describe('token store conformance: RedisTokenStore', () => {
    // Redis keeps the TTLs' and the lock's clock: pass() waits real time (the default).
    itConforms(tokenStoreCases(() => fresh(tokens), { reopen: (t) => again(t, tokens) }));
  });
  const subs = (prefix: string): SubscriptionStore =>
    new RedisSubscriptionStore(redis().client, { prefix });
  describe('subscription store conformance: RedisSubscriptionStore', () => {
    itConforms(subscriptionStoreCases(() => fresh(subs), { reopen: (s) => again(s, subs) }));
  });
}

describeWithRedis('conformance of the Redis stores (real redis-server)', () => {
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
      suitesOn(() => redis);
    });
  }
});

describeWithRedis(
  'conformance of the Redis stores (real 3-master Redis Cluster)',
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
        suitesOn(() => redis);
      });
    }
  },
  { cli: true },
);
