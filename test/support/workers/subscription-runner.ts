/**
 * One instance of a partner's service running the subscriptions (`subs.start()`) on a
 * shared store, forked by test/support/subscription-processes.ts and SIGKILLed by it
 * whenever it likes. Its own pool or Redis client, its own MomoClient whose creating calls
 * ask the provider to call back this process's receiver (`momo.callbacks.handler` on a
 * loopback port), and the subscriptions' `now` taken from the provider's clock: the driver
 * sends each new time over IPC (`now`), as a shared clock would.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MomoClient, type SubscriptionStore, toNodeListener } from 'momo-partner-sdk';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { createRedisState } from 'momo-partner-sdk/redis';
import { Subscriptions } from 'momo-partner-sdk/subscriptions';
import pg from 'pg';
import { connectClient, type Library } from '../../redis/support/clients';
import { send, serveParent } from '../worker';

/** Where the subscriptions live: a Redis (a key prefix) or a PostgreSQL (a migrated schema). */
export type SharedSubscriptionStore =
  | { kind: 'redis'; url: string; library: Library; prefix: string }
  | { kind: 'postgres'; config: pg.PoolConfig; schema: string };

export interface SubscriptionRunnerInput {
  provider: {
    baseUrl: string;
    targetEnvironment: string;
    subscriptionKey: string;
    apiUser: { id: string; key: string };
  };
  store: SharedSubscriptionStore;
  secret: string;
  /** The provider's time when the runner starts (epoch ms). */
  now: number;
  concurrency: number;
  waitMs: number;
  recheckMs: number;
  intervalMs: number;
  /** The runner's lease (default the SDK's 15 s): shorter lets a killed runner's work go sooner. */
  leaseMs?: number;
}

/** Connects to the shared store as a partner's process would; how to let go of it. */
async function connectStore(
  shared: SharedSubscriptionStore,
): Promise<{ store: SubscriptionStore; close(): Promise<void> }> {
  if (shared.kind === 'redis') {
    const redis = await connectClient(shared.library, shared.url);
    const state = createRedisState(redis.client, { prefix: shared.prefix });
    return {
      store: state.subscriptionStore,
      close: async () => {
        await state.close();
        await redis.close();
      },
    };
  }
  const pool = new pg.Pool({ ...shared.config, max: 6 });
  pool.on('error', () => {});
  const db = createPostgresState(pool, { schema: shared.schema });
  return {
    store: db.subscriptionStore,
    close: async () => {
      await db.close();
      await pool.end();
    },
  };
}

let now = 0;
let stop: (() => Promise<void>) | undefined;

serveParent({
  async start(input: SubscriptionRunnerInput) {
    now = input.now;
    const { store, close } = await connectStore(input.store);
    const receiver: Server = createServer();
    const port = await new Promise<number>((resolve) => {
      receiver.listen(0, '127.0.0.1', () => resolve((receiver.address() as AddressInfo).port));
    });
    const momo = new MomoClient({
      ...input.provider,
      callbackUrl: `http://127.0.0.1:${port}/momo/{referenceId}`,
      simulatorTags: true, // the provider's records name each charge `<key>/<period>`
      polling: { initialDelayMs: 100, maxDelayMs: 500, timeoutMs: 60_000 },
    });
    receiver.on('request', toNodeListener(momo.callbacks.handler()));
    const subs = new Subscriptions(momo, {
      store,
      secret: input.secret,
      now: () => now,
      concurrency: input.concurrency,
      waitMs: input.waitMs,
      recheckMs: input.recheckMs,
      ...(input.leaseMs !== undefined ? { leaseMs: input.leaseMs } : {}),
    });
    const runner = subs.start({
      intervalMs: input.intervalMs,
      onPass: (report) => {
        for (const e of report.errors.slice(0, 3))
          send({ type: 'log', level: 'warn', message: `${e.key}: ${e.error}` });
      },
    });
    stop = async () => {
      await runner.stop();
      await new Promise((resolve) => receiver.close(resolve));
      await close();
    };
    return { port };
  },

  /** The provider's clock moved: the subscriptions' `now` follows it. */
  async now(input: { now: number }) {
    now = Math.max(now, input.now);
    return {};
  },

  async close() {
    await stop?.();
    setImmediate(() => process.exit(0));
    return {};
  },
});
