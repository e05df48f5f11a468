/**
 * One process of a partner's backend running a batch on a shared store (Redis or
 * PostgreSQL), forked by test/support/batch-processes.ts: it connects, says `ready`, runs
 * the batch each time it is told (`run`), reports its progress as it goes and its report
 * at the end of each run, and closes its connections and exits when told (`exit`).
 */
import { type BatchStore, MomoClient, type MomoClientOptions } from 'momo-partner-sdk';
import { Batches, type BatchItem } from 'momo-partner-sdk/batches';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { redisBatchStore } from 'momo-partner-sdk/redis';
import pg from 'pg';
import { connectClient, type Library } from '../../redis/support/clients';

/** Where the batch lives: a Redis (a key prefix) or a PostgreSQL (a migrated schema). */
export type SharedStore =
  | { kind: 'redis'; url: string; library: Library; prefix: string }
  | { kind: 'postgres'; config: pg.PoolConfig; schema: string };

export interface BatchRunnerInput {
  simulator: Pick<
    MomoClientOptions,
    'baseUrl' | 'targetEnvironment' | 'subscriptionKey' | 'apiUser'
  >;
  store: SharedStore;
  batchId: string;
  /** The store's lease; absent: the store's default (15 s). */
  leaseMs?: number | undefined;
  items: BatchItem[];
}

const send = (message: unknown) => process.send?.(message);

/** The store, connected as a partner's process would, and how to let go of it. */
async function connect(
  shared: SharedStore,
  leaseMs: number | undefined,
): Promise<{ store: BatchStore; close(): Promise<void> }> {
  const lease = leaseMs === undefined ? {} : { leaseMs };
  if (shared.kind === 'redis') {
    const redis = await connectClient(shared.library, shared.url);
    const store = redisBatchStore(redis.client, { prefix: shared.prefix, ...lease });
    return { store, close: () => redis.close() };
  }
  const pool = new pg.Pool({ ...shared.config, max: 4 });
  pool.on('error', () => {});
  const { batchStore } = createPostgresState(pool, { schema: shared.schema, ...lease });
  return { store: batchStore, close: () => pool.end() };
}

process.once('message', async (input: BatchRunnerInput) => {
  const { store, close } = await connect(input.store, input.leaseMs);
  const momo = new MomoClient({
    ...input.simulator,
    polling: { initialDelayMs: 50, maxDelayMs: 200, timeoutMs: 60_000 },
  });
  process.on('message', async (command: 'run' | 'exit') => {
    if (command === 'exit') {
      await close();
      process.exit(0);
    }
    const report = await new Batches(momo).run(input.items, {
      id: input.batchId,
      store,
      concurrency: 8,
      onProgress: (p) => send({ type: 'progress', sent: p.sent }),
    });
    send({ type: 'report', report });
  });
  send({ type: 'ready' });
});
