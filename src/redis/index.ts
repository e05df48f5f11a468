/**
 * `momo-partner-sdk/redis`: several instances of a partner's backend, one view. Shared
 * access tokens with a cross-process refresh lock, confirmed callbacks fanned out to
 * every instance's waits, and a durable journal of operations in flight. Bring your
 * own client: node-redis (v4, v5; createClient or createCluster) or ioredis (v5; Redis
 * or Cluster); none is bundled. A batch store on which several processes run one
 * batch together, and one request budget (`lookupRate`, `createRate`) for them all; a subscription store any number of runners share. docs/redis.md: cluster setup, hash tags, health.
 */
import { RedisBatchStore } from './batch-store';
import { RedisCallbackBus } from './callback-bus';
import { type RedisClient, RedisConnection } from './connection';
import { RedisJournal, type RedisJournalOptions } from './journal';
import { RedisRateBudget } from './rate-budget';
import { RedisSubscriptionStore } from './subscription-store';
import { RedisTokenStore } from './token-store';

export { RedisBatchStore, type RedisBatchStoreOptions, redisBatchStore } from './batch-store';
export { RedisCallbackBus } from './callback-bus';
export {
  type IoRedisClient,
  type NodeRedisClient,
  type NodeRedisCluster,
  type RedisClient,
  RedisCommandError,
  RedisConnection,
  type RedisOptions,
  RedisUnavailableError,
} from './connection';
export { RedisJournal, type RedisJournalOptions } from './journal';
export { RedisRateBudget } from './rate-budget';
export { RedisSubscriptionStore, redisSubscriptionStore } from './subscription-store';
export { RedisTokenStore } from './token-store';

/** The three shared parts on one client, ready for `MomoClient`'s options. */
export interface RedisState {
  tokenStore: RedisTokenStore;
  callbackBus: RedisCallbackBus;
  journal: RedisJournal;
  /** Batches several processes run together (`new Batches(momo).run(items, { id, store })`). */
  batchStore: RedisBatchStore;
  /** Subscriptions any number of runners share (`new Subscriptions(momo, { store, secret })`). */
  subscriptionStore: RedisSubscriptionStore;
  /** One `lookupRate` and `createRate` for every instance (the client option `rateBudget`). */
  rateBudget: RedisRateBudget;
  /** Closes the callback subscriber connection; the client you passed stays yours. */
  close(): Promise<void>;
}

/**
 * `const shared = createRedisState(redis, { prefix: 'shop:' })`, then
 * `new MomoClient({ ...options, tokenStore: shared.tokenStore, callbackBus:
 * shared.callbackBus, journal: shared.journal, rateBudget: shared.rateBudget, lookupRate: 90 })`.
 */
export function createRedisState(
  client: RedisClient,
  options: RedisJournalOptions = {},
): RedisState {
  const { retentionMs, ...connectionOptions } = options;
  const connection = new RedisConnection(client, connectionOptions);
  const callbackBus = new RedisCallbackBus(connection);
  return {
    tokenStore: new RedisTokenStore(connection),
    callbackBus,
    journal: new RedisJournal(connection, retentionMs === undefined ? {} : { retentionMs }),
    batchStore: new RedisBatchStore(connection),
    rateBudget: new RedisRateBudget(connection),
    subscriptionStore: new RedisSubscriptionStore(connection),
    close: () => callbackBus.close(),
  };
}
