import { Redis } from 'ioredis';
import type { MomoClient, SubscriptionStore } from 'momo-partner-sdk';
import {
  createPostgresState,
  type PostgresPool,
  type PostgresSubscriptionStore,
} from 'momo-partner-sdk/postgres';
import {
  createRedisState,
  type RedisSubscriptionStore,
  redisSubscriptionStore,
} from 'momo-partner-sdk/redis';
import { Subscriptions } from 'momo-partner-sdk/subscriptions';
import type { ConformanceReport } from 'momo-partner-sdk/testing';
import { checkSubscriptionStore } from 'momo-partner-sdk/testing';
import { createClient } from 'redis';
import { describe, expectTypeOf, it } from 'vitest';

declare const momo: MomoClient;
declare const pool: PostgresPool;

describe('subscription store types', () => {
  it('gives a SubscriptionStore on Redis and PostgreSQL, plugged into new Subscriptions(momo, options)', () => {
    const shared = createRedisState(createClient(), { prefix: 'gym:' });
    expectTypeOf(shared.subscriptionStore).toEqualTypeOf<RedisSubscriptionStore>();
    expectTypeOf(shared.subscriptionStore).toExtend<SubscriptionStore>();
    expectTypeOf(
      redisSubscriptionStore(new Redis({ lazyConnect: true })),
    ).toExtend<SubscriptionStore>();
    const db = createPostgresState(pool);
    expectTypeOf(db.subscriptionStore).toEqualTypeOf<PostgresSubscriptionStore>();
    new Subscriptions(momo, { store: db.subscriptionStore, secret: 's'.repeat(32) });
    expectTypeOf(
      checkSubscriptionStore(() => db.subscriptionStore),
    ).resolves.toEqualTypeOf<ConformanceReport>();
  });
});
