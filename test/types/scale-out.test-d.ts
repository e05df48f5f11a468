import { Redis } from 'ioredis';
import {
  type BatchStore,
  type CallbackBus,
  type Journal,
  type JournalEntry,
  MomoClient,
  type ResumeOutcome,
  type StatusLike,
  type TokenStore,
} from 'momo-partner-sdk';
import {
  createRedisState,
  RedisCallbackBus,
  RedisJournal,
  RedisTokenStore,
  redisBatchStore,
} from 'momo-partner-sdk/redis';
import { createClient } from 'redis';
import { describe, expectTypeOf, it } from 'vitest';

describe('scale-out types', () => {
  it('accepts node-redis and ioredis clients as they come, and plugs into MomoClient', () => {
    const nodeRedis = createClient();
    const ioredis = new Redis({ lazyConnect: true });
    expectTypeOf(new RedisTokenStore(nodeRedis)).toExtend<TokenStore>();
    expectTypeOf(new RedisJournal(ioredis)).toExtend<Journal>();
    expectTypeOf(new RedisCallbackBus(ioredis)).toExtend<CallbackBus>();
    const shared = createRedisState(nodeRedis, { prefix: 'app:', retentionMs: 60_000 });
    new MomoClient({
      baseUrl: 'https://momo.example',
      targetEnvironment: 'sandbox',
      tokenStore: shared.tokenStore,
      callbackBus: shared.callbackBus,
      journal: shared.journal,
    });
    // @ts-expect-error not a Redis client
    createRedisState({ get() {} });
    expectTypeOf(shared.batchStore).toExtend<BatchStore>();
    expectTypeOf(
      redisBatchStore(ioredis, { leaseMs: 30_000, retentionMs: 60_000 }),
    ).toExtend<BatchStore>();
    // @ts-expect-error not an option of the batch store
    redisBatchStore(ioredis, { lease: 30_000 });
  });

  it('types the journal of a client', () => {
    const momo = new MomoClient({ baseUrl: 'https://momo.example', targetEnvironment: 'sandbox' });
    expectTypeOf(momo.journal.pending()).resolves.toEqualTypeOf<JournalEntry[]>();
    expectTypeOf(momo.journal.resume({ concurrency: 2 })).resolves.toEqualTypeOf<ResumeOutcome[]>();
    const outcome = {} as ResumeOutcome;
    if (outcome.status === 'SUCCESSFUL') {
      expectTypeOf(outcome.result).toExtend<StatusLike>();
      expectTypeOf(outcome.result.status).toEqualTypeOf<'SUCCESSFUL' | 'FAILED'>();
    }
    if (outcome.status === 'UNRESOLVED') expectTypeOf(outcome.error).toBeUnknown();
    expectTypeOf(outcome.entry.product).toEqualTypeOf<
      'disbursement' | 'collection' | 'remittance'
    >();
  });
});
