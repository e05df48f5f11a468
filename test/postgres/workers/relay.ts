/**
 * One instance of a partner's backend running the outbox relay in its own process
 * (spawned by test/postgres/outbox-crash.test.ts and outbox-takeover.test.ts, driven
 * over IPC): its own pool, its own client, `db.outbox.start` with the orders-settling
 * `onSettled`. The parent kills it with SIGKILL wherever it likes.
 */
import { MomoClient } from 'momo-partner-sdk';
import { createPostgresState, type PostgresState } from 'momo-partner-sdk/postgres';
import pg from 'pg';
import { send, serveParent } from '../../support/worker';
import { type ProviderOptions, settleOrder } from '../outbox-crash-support';

export interface RelayInput {
  provider: ProviderOptions;
  postgres: pg.PoolConfig;
  schema: string;
  /** The state's lease; absent: its default (15 s). */
  leaseMs?: number | undefined;
  concurrency: number;
  /** The client's creating calls per second (they queue beyond it); default unlimited. */
  createRate?: number | undefined;
}

let pool: pg.Pool | undefined;
let db: PostgresState | undefined;
let relay: { stop(): Promise<void> } | undefined;

serveParent({
  async start(input: RelayInput) {
    pool = new pg.Pool({ ...input.postgres, max: 6 });
    pool.on('error', () => {}); // a server restart: the pool reconnects
    const lease = input.leaseMs === undefined ? {} : { leaseMs: input.leaseMs };
    db = createPostgresState(pool, { schema: input.schema, ...lease });
    const momo = new MomoClient({
      ...input.provider,
      ...(input.createRate === undefined ? {} : { createRate: input.createRate }),
      logger: {
        info: (message) => send({ type: 'log', level: 'info', message }),
        warn: (message) => send({ type: 'log', level: 'warn', message }),
        error: (message) => send({ type: 'log', level: 'error', message }),
      },
    });
    const settle = settleOrder(input.schema);
    relay = db.outbox.start(momo, {
      concurrency: input.concurrency,
      onSettled: async (payment, tx) => {
        await settle(payment, tx);
        send({ type: 'event', name: 'settled', referenceId: payment.referenceId });
      },
    });
    return {};
  },

  async close() {
    await relay?.stop();
    await db?.close();
    await pool?.end();
    setImmediate(() => process.exit(0));
    return {};
  },
});
